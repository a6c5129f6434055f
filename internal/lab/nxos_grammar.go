package lab

import (
	"strings"
	"sync"
)

// NX-OS configuration grammar. Statement shapes follow the Cisco Nexus 9000
// NX-OS Quality of Service Configuration Guide (class-map/policy-map types
// qos, network-qos and queuing, system qos, priority-flow-control) and the
// Microsoft Azure Local reference TOR QoS configuration; see docs/lab.md.

// nxosIfaceName expands abbreviations (eth1/1 -> Ethernet1/1).
func nxosIfaceName(n string) string {
	low := strings.ToLower(n)
	for _, p := range [][2]string{{"ethernet", "Ethernet"}, {"eth", "Ethernet"}, {"e", "Ethernet"}, {"mgmt", "mgmt"}, {"port-channel", "port-channel"}, {"po", "port-channel"}, {"loopback", "loopback"}, {"lo", "loopback"}, {"vlan", "Vlan"}} {
		if rest, ok := strings.CutPrefix(low, p[0]); ok && rest != "" && isDigit(rest[0]) {
			return p[1] + rest
		}
	}
	return n
}

// nxosIfaceOrder sorts interfaces as NX-OS lists them: VLAN interfaces,
// port-channels, Ethernet ports, mgmt0, loopbacks, then the rest.
func nxosIfaceOrder(text string) string {
	name := strings.TrimPrefix(text, "interface ")
	for i, p := range []string{"Vlan", "port-channel", "Ethernet", "mgmt", "loopback"} {
		if strings.HasPrefix(name, p) {
			return string(rune('0'+i)) + " " + name
		}
	}
	return "9 " + name
}

// nxosPhysical reports an `interface` line of a physical port (Ethernet,
// mgmt0), which `no interface` / `default interface` resets instead of
// deleting.
func nxosPhysical(line string) bool {
	name := strings.TrimPrefix(line, "interface ")
	return strings.HasPrefix(name, "Ethernet") || strings.HasPrefix(name, "mgmt")
}

// nxosGrammar returns the grammar, built once: it is read-only after that.
var nxosGrammar = sync.OnceValue(buildNxosGrammar)

func buildNxosGrammar() grammar {
	const name, num, any = `\S+`, `\d+`, `.+`
	tag := func(t string) func(string, []string) string {
		return func(string, []string) string { return t }
	}
	return newGrammar(map[string][]*rule{
		"config": {
			r("hostname", name).ident(firstN(1)),
			r("feature", name),
			r("username", name+` .+`).ident(firstN(2)),
			r("ip domain-lookup", "").ident(firstN(2)),
			r("no ip domain-lookup", "").ident(firstN(2)),
			r("ip access-list", `(\S+)`).enters("acl", tag("acl")),
			r("ipv6 access-list", `(\S+)`).enters("acl", tag("ipv6-acl")),
			r("class-map type qos", `(?:match-any|match-all) (\S+)`).enters("cmap-qos", tag("cmap-qos")),
			r("class-map type network-qos", `(?:match-any |match-all )?(\S+)`).enters("cmap-nqos", tag("cmap-nqos")),
			r("class-map type queuing", `(?:match-any |match-all )?(\S+)`).enters("cmap-que", tag("cmap-que")),
			r("policy-map type qos", `(\S+)`).enters("pmap-qos", tag("pmap-qos")),
			r("policy-map type network-qos", `(\S+)`).enters("pmap-nqos", tag("pmap-nqos")),
			r("policy-map type queuing", `(\S+)`).enters("pmap-que", tag("pmap-que")),
			r("system qos", "").enters("sys-qos", tag("sys-qos")),
			r("priority-flow-control watch-dog-interval", `on|off`).ident(firstN(2)),
			r("priority-flow-control watch-dog interval", num).ident(firstN(3)),
			r("priority-flow-control watch-dog shutdown-multiplier", num).ident(firstN(3)),
			r("priority-flow-control auto-restore multiplier", num).ident(firstN(3)),
			r("priority-flow-control fixed-restore multiplier", num).ident(firstN(3)),
			r("priority-flow-control recover mode no-drop", "").ident(firstN(3)),
			r("hardware access-list tcam region", name+` \d+`).ident(firstN(5)),
			r("copp profile", name).ident(firstN(2)),
			r("snmp-server location", any).ident(firstN(2)),
			r("snmp-server community", any).ident(firstN(3)),
			r("ntp server", any),
			r("logging server", any),
			r("logging logfile", any).ident(firstN(2)),
			r("ip route", any),
			r("vrf context", `(\S+)`).enters("vrf", tag("vrf")).blank(),
			r("interface", `(\S+)`).enters("if", tag("if")).blank().
				canonical(func(l string) string {
					f := strings.Fields(l)
					return "interface " + nxosIfaceName(f[1])
				}).sortBy(nxosIfaceOrder).resets(nxosPhysical),
			r("line console", "").enters("line", tag("console")).blank(),
			r("line vty", "").enters("line", tag("line")).blank(),
			r("router bgp", num).enters("router", tag("router")).blank(),
		},
		"acl": {
			r("statistics per-entry", "").ident(firstN(2)),
			r("", `\d+ (?:permit|deny|remark) .+`).ident(firstN(1)),
			r("", `(?:permit|deny|remark) .+`).ident(firstN(1)).sequenced(),
		},
		"cmap-qos": {
			r("match dscp", any).ordered(),
			r("match cos", any).ordered(),
			r("match access-group name", name).ordered(),
			r("match precedence", any).ordered(),
		},
		"cmap-nqos": {r("match qos-group", num).ordered()},
		"cmap-que":  {r("match qos-group", num).ordered()},
		"pmap-qos": {
			// class NAME insert-before OTHER (NX-OS QoS guide, "Configuring
			// Type QoS Policies": [insert-before before-class-name]).
			r("class", `(\S+)(?: insert-before \S+)?`).enters("pmap-c-qos", tag("pmap-c-qos")).ordered().insertsBefore(),
		},
		"pmap-c-qos": {
			r("set qos-group", num).ident(firstN(2)),
			r("set dscp", name).ident(firstN(2)),
			r("set cos", num).ident(firstN(2)),
			r("police", any).ident(firstN(1)),
		},
		"pmap-nqos": {
			r("class type network-qos", `(\S+)`).enters("pmap-nqos-c", tag("pmap-nqos-c")).ordered(),
		},
		"pmap-nqos-c": {
			r("mtu", num).ident(firstN(1)),
			r("pause pfc-cos", `[\d,\- ]+(?: no-drop)?`).ident(firstN(2)),
			r("pause buffer-size", any).ident(firstN(2)),
			r("congestion-control", any).ident(firstN(1)),
		},
		"pmap-que": {
			r("class type queuing", `(\S+)`).enters("pmap-c-que", tag("pmap-c-que")).ordered(),
		},
		"pmap-c-que": {
			r("priority", `level \d+|`).ident(firstN(1)),
			r("bandwidth remaining percent", num).ident(firstN(1)),
			r("bandwidth percent", num).ident(firstN(1)),
			r("shape", any).ident(firstN(1)),
			r("random-detect", any).ident(firstN(1)),
			r("congestion-control", any).ident(firstN(1)),
		},
		"sys-qos": {
			r("service-policy type network-qos", name).ident(firstN(3)),
			r("service-policy type queuing", `(?:input|output) `+name).ident(firstN(4)),
			r("service-policy type qos input", name).ident(firstN(4)),
		},
		"vrf": {
			r("ip route", any),
			r("description", any).ident(firstN(1)),
		},
		"if": {
			r("description", any).ident(firstN(1)),
			r("switchport", "").ident(firstN(1)),
			r("no switchport", "").ident(firstN(1)),
			r("switchport", any).ident(firstN(2)),
			r("speed", any).ident(firstN(1)),
			r("fec", `auto|rs-fec|fc-fec|off|rs-ieee|rs-cons16`).ident(firstN(1)),
			r("mtu", num).ident(firstN(1)),
			r("flowcontrol receive", `on|off`).ident(firstN(2)),
			r("flowcontrol send", `on|off`).ident(firstN(2)),
			r("channel-group", any).ident(firstN(1)),
			r("priority-flow-control mode", `on|off|auto|on send-tlv`).ident(firstN(2)),
			r("priority-flow-control watch-dog-interval", `on|off`).ident(firstN(2)),
			r("priority-flow-control watch-dog", any).ident(firstN(3)),
			r("service-policy type qos input", name).ident(firstN(4)),
			r("service-policy type queuing", `(?:input|output) `+name).ident(firstN(4)),
			r("ip access-group", name+` in`).ident(firstN(2)),
			r("ip port access-group", name+` in`).ident(firstN(3)),
			r("lldp", any),
			r("vrf member", name).ident(firstN(2)),
			r("ip address", any).ident(firstN(2)),
			r("ipv6 address", any),
			r("ipv6 traffic-filter", name+` in`).ident(firstN(2)),
			r("shutdown", "").ident(firstN(1)),
			r("no shutdown", "").ident(firstN(1)),
		},
		"line": {
			r("exec-timeout", num).ident(firstN(1)),
			r("session-limit", num).ident(firstN(1)),
		},
		"router": {
			r("router-id", name).ident(firstN(1)),
			r("neighbor", any),
			r("address-family", any),
		},
	})
}
