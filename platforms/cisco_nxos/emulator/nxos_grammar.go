package emulator

import (
	"strings"
	"sync"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// NX-OS configuration grammar. Statement shapes follow the Cisco Nexus 9000
// NX-OS Quality of Service Configuration Guide (class-map/policy-map types
// qos, network-qos and queuing, system qos, priority-flow-control) and the
// Microsoft Azure Local reference TOR QoS configuration; see docs/lab.md.

// nxosIfaceName expands abbreviations (eth1/1 -> Ethernet1/1).
func nxosIfaceName(n string) string {
	low := strings.ToLower(n)
	for _, p := range [][2]string{{"ethernet", "Ethernet"}, {"eth", "Ethernet"}, {"e", "Ethernet"}, {"mgmt", "mgmt"}, {"port-channel", "port-channel"}, {"po", "port-channel"}, {"loopback", "loopback"}, {"lo", "loopback"}, {"vlan", "Vlan"}} {
		if rest, ok := strings.CutPrefix(low, p[0]); ok && rest != "" && cli.IsDigit(rest[0]) {
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

// nxosPortNames stores ACL entries as NX-OS prints them: a Nexus 9000v
// "show access-lists" (pyATS genieparser's capture) has "eq www" beside
// "eq 22" and "eq 443", and its CoPP ACLs "eq bgp": the lab names these
// three and leaves other numbers as typed (a guess beyond them).
var nxosPortNames = cli.PortNamer(func(p int) (string, bool) {
	switch p {
	case 23:
		return "telnet", true
	case 80:
		return "www", true
	case 179:
		return "bgp", true
	}
	return "", false
})

// nxosIPv6Proto matches the protocol of an ipv6 access-list entry.
const nxosIPv6Proto = `(?:ipv6|icmp|tcp|udp|sctp|ahp|esp|pcp|\d{1,3})`

// nxosGrammar returns the grammar, built once: it is read-only after that.
var nxosGrammar = sync.OnceValue(buildNxosGrammar)

func buildNxosGrammar() cli.Grammar {
	const name, num, any = `\S+`, `\d+`, `.+`
	tag := func(t string) func(string, []string) string {
		return func(string, []string) string { return t }
	}
	return cli.NewGrammar(map[string][]*cli.Rule{
		"config": {
			cli.NewRule("hostname", name).Ident(cli.FirstN(1)),
			cli.NewRule("feature", name),
			cli.NewRule("username", name+` .+`).Ident(cli.FirstN(2)),
			cli.NewRule("ip domain-lookup", "").Ident(cli.FirstN(2)),
			cli.NewRule("no ip domain-lookup", "").Ident(cli.FirstN(2)),
			cli.NewRule("ip access-list", `(\S+)`).Enters("acl", tag("acl")),
			cli.NewRule("ipv6 access-list", `(\S+)`).Enters("acl6", tag("ipv6-acl")),
			cli.NewRule("class-map type qos", `(?:match-any|match-all) (\S+)`).Enters("cmap-qos", tag("cmap-qos")),
			cli.NewRule("class-map type network-qos", `(?:match-any |match-all )?(\S+)`).Enters("cmap-nqos", tag("cmap-nqos")),
			cli.NewRule("class-map type queuing", `(?:match-any |match-all )?(\S+)`).Enters("cmap-que", tag("cmap-que")),
			cli.NewRule("policy-map type qos", `(\S+)`).Enters("pmap-qos", tag("pmap-qos")),
			cli.NewRule("policy-map type network-qos", `(\S+)`).Enters("pmap-nqos", tag("pmap-nqos")),
			cli.NewRule("policy-map type queuing", `(\S+)`).Enters("pmap-que", tag("pmap-que")),
			cli.NewRule("system qos", "").Enters("sys-qos", tag("sys-qos")),
			cli.NewRule("priority-flow-control watch-dog-interval", `on|off`).Ident(cli.FirstN(2)),
			cli.NewRule("priority-flow-control watch-dog interval", num).Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control watch-dog shutdown-multiplier", num).Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control auto-restore multiplier", num).Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control fixed-restore multiplier", num).Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control recover mode no-drop", "").Ident(cli.FirstN(3)),
			cli.NewRule("hardware access-list tcam region", name+` \d+`).Ident(cli.FirstN(5)),
			cli.NewRule("copp profile", name).Ident(cli.FirstN(2)),
			cli.NewRule("snmp-server location", any).Ident(cli.FirstN(2)),
			cli.NewRule("snmp-server community", any).Ident(cli.FirstN(3)),
			cli.NewRule("ntp server", any),
			cli.NewRule("logging server", any),
			cli.NewRule("logging logfile", any).Ident(cli.FirstN(2)),
			cli.NewRule("ip route", any),
			cli.NewRule("vrf context", `(\S+)`).Enters("vrf", tag("vrf")).Blank(),
			cli.NewRule("interface", `(\S+)`).Enters("if", tag("if")).Blank().
				Canonical(func(l string) string {
					f := strings.Fields(l)
					return "interface " + nxosIfaceName(f[1])
				}).SortBy(nxosIfaceOrder).Resets(nxosPhysical),
			cli.NewRule("line console", "").Enters("line", tag("console")).Blank(),
			cli.NewRule("line vty", "").Enters("line", tag("line")).Blank(),
			cli.NewRule("router bgp", num).Enters("router", tag("router")).Blank(),
		},
		"acl": {
			cli.NewRule("statistics per-entry", "").Ident(cli.FirstN(2)),
			cli.NewRule("", `\d+ (?:permit|deny|remark) .+`).Ident(cli.FirstN(1)).Canonical(nxosPortNames),
			cli.NewRule("", `(?:permit|deny|remark) .+`).Ident(cli.FirstN(1)).Sequenced().Canonical(nxosPortNames),
		},
		// An ipv6 access-list says "ipv6" for any protocol (a Nexus 9000v
		// "show access-lists": "10 permit ipv6 any any log") and "icmp" for
		// ICMPv6 (the default CoPP ACL copp-system-p-acl-ndp); "ip" is an
		// IPv4 list's word and is refused.
		"acl6": {
			cli.NewRule("statistics per-entry", "").Ident(cli.FirstN(2)),
			cli.NewRule("", `\d+ (?:permit|deny) `+nxosIPv6Proto+` .+`).Ident(cli.FirstN(1)).Canonical(nxosPortNames),
			cli.NewRule("", `\d+ remark .+`).Ident(cli.FirstN(1)),
			cli.NewRule("", `(?:permit|deny) `+nxosIPv6Proto+` .+`).Ident(cli.FirstN(1)).Sequenced().Canonical(nxosPortNames),
			cli.NewRule("", `remark .+`).Ident(cli.FirstN(1)).Sequenced(),
		},
		"cmap-qos": {
			cli.NewRule("match dscp", any).Ordered(),
			cli.NewRule("match cos", any).Ordered(),
			cli.NewRule("match access-group name", name).Ordered(),
			cli.NewRule("match precedence", any).Ordered(),
		},
		"cmap-nqos": {cli.NewRule("match qos-group", num).Ordered()},
		"cmap-que":  {cli.NewRule("match qos-group", num).Ordered()},
		"pmap-qos": {
			// class NAME insert-before OTHER (NX-OS QoS guide, "Configuring
			// Type QoS Policies": [insert-before before-class-name]).
			cli.NewRule("class", `(\S+)(?: insert-before \S+)?`).Enters("pmap-c-qos", tag("pmap-c-qos")).Ordered().InsertsBefore(),
		},
		"pmap-c-qos": {
			cli.NewRule("set qos-group", num).Ident(cli.FirstN(2)),
			cli.NewRule("set dscp", name).Ident(cli.FirstN(2)),
			cli.NewRule("set cos", num).Ident(cli.FirstN(2)),
			cli.NewRule("police", any).Ident(cli.FirstN(1)),
		},
		"pmap-nqos": {
			cli.NewRule("class type network-qos", `(\S+)`).Enters("pmap-nqos-c", tag("pmap-nqos-c")).Ordered(),
		},
		"pmap-nqos-c": {
			cli.NewRule("mtu", num).Ident(cli.FirstN(1)),
			cli.NewRule("pause pfc-cos", `[\d,\- ]+(?: no-drop)?`).Ident(cli.FirstN(2)),
			cli.NewRule("pause buffer-size", any).Ident(cli.FirstN(2)),
			cli.NewRule("congestion-control", any).Ident(cli.FirstN(1)),
		},
		"pmap-que": {
			cli.NewRule("class type queuing", `(\S+)`).Enters("pmap-c-que", tag("pmap-c-que")).Ordered(),
		},
		"pmap-c-que": {
			cli.NewRule("priority", `level \d+|`).Ident(cli.FirstN(1)),
			cli.NewRule("bandwidth remaining percent", num).Ident(cli.FirstN(1)),
			cli.NewRule("bandwidth percent", num).Ident(cli.FirstN(1)),
			cli.NewRule("shape", any).Ident(cli.FirstN(1)),
			cli.NewRule("random-detect", any).Ident(cli.FirstN(1)),
			cli.NewRule("congestion-control", any).Ident(cli.FirstN(1)),
		},
		"sys-qos": {
			cli.NewRule("service-policy type network-qos", name).Ident(cli.FirstN(3)),
			cli.NewRule("service-policy type queuing", `(?:input|output) `+name).Ident(cli.FirstN(4)),
			cli.NewRule("service-policy type qos input", name).Ident(cli.FirstN(4)),
		},
		"vrf": {
			cli.NewRule("ip route", any),
			cli.NewRule("description", any).Ident(cli.FirstN(1)),
		},
		"if": {
			cli.NewRule("description", any).Ident(cli.FirstN(1)),
			cli.NewRule("switchport", "").Ident(cli.FirstN(1)),
			cli.NewRule("no switchport", "").Ident(cli.FirstN(1)),
			cli.NewRule("switchport", any).Ident(cli.FirstN(2)),
			cli.NewRule("speed", any).Ident(cli.FirstN(1)),
			cli.NewRule("fec", `auto|rs-fec|fc-fec|off|rs-ieee|rs-cons16`).Ident(cli.FirstN(1)),
			cli.NewRule("mtu", num).Ident(cli.FirstN(1)),
			cli.NewRule("flowcontrol receive", `on|off`).Ident(cli.FirstN(2)),
			cli.NewRule("flowcontrol send", `on|off`).Ident(cli.FirstN(2)),
			cli.NewRule("channel-group", any).Ident(cli.FirstN(1)),
			cli.NewRule("priority-flow-control mode", `on|off|auto|on send-tlv`).Ident(cli.FirstN(2)),
			cli.NewRule("priority-flow-control watch-dog-interval", `on|off`).Ident(cli.FirstN(2)),
			cli.NewRule("priority-flow-control watch-dog", any).Ident(cli.FirstN(3)),
			cli.NewRule("service-policy type qos input", name).Ident(cli.FirstN(4)),
			cli.NewRule("service-policy type queuing", `(?:input|output) `+name).Ident(cli.FirstN(4)),
			// One routed ACL per direction and family (an egress RACL
			// too: genielibs' NX-OS interface commands list
			// "ip access-group someword out").
			cli.NewRule("ip access-group", name+` (?:in|out)`).Ident(func(t []string) string { return "ip access-group " + t[len(t)-1] }),
			cli.NewRule("ip port access-group", name+` in`).Ident(cli.FirstN(3)),
			cli.NewRule("lldp", any),
			cli.NewRule("vrf member", name).Ident(cli.FirstN(2)),
			cli.NewRule("ip address", any).Ident(cli.FirstN(2)),
			cli.NewRule("ipv6 address", any),
			cli.NewRule("ipv6 traffic-filter", name+` (?:in|out)`).Ident(func(t []string) string { return "ipv6 traffic-filter " + t[len(t)-1] }),
			cli.NewRule("shutdown", "").Ident(cli.FirstN(1)),
			cli.NewRule("no shutdown", "").Ident(cli.FirstN(1)),
		},
		"line": {
			cli.NewRule("exec-timeout", num).Ident(cli.FirstN(1)),
			cli.NewRule("session-limit", num).Ident(cli.FirstN(1)),
		},
		"router": {
			cli.NewRule("router-id", name).Ident(cli.FirstN(1)),
			cli.NewRule("neighbor", any),
			cli.NewRule("address-family", any),
		},
	})
}
