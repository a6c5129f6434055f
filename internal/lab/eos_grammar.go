package lab

import (
	"strconv"
	"strings"
	"sync"
)

// EOS configuration grammar. Statement shapes follow the running-config
// form rendered by Arista AVD's eos_cli_config_gen templates (qos,
// priority-flow-control, ethernet-interfaces, class-maps, policy-maps-qos,
// ip-access-lists, qos-profiles) and the EOS User Manual's QoS and config
// session chapters; see docs/lab.md for what is a guess.

const (
	eosName  = `\S+`
	eosNum   = `\d+`
	eosList  = `[\d\- ]+`
	eosAny   = `.+`
	eosFloat = `\d+(?:\.\d+)?`
	// eosMTU is 68–9214, the interface (L3) MTU range of the EOS User
	// Manual ("Support for Layer 3 MTU on 7280R3/7500R3/7800R3"); a larger
	// value typed at the CLI gets "% Max MTU for IF is 9214" (eosMaxMTU).
	eosMTU = `6[89]|[7-9]\d|[1-9]\d{2}|[1-8]\d{3}|9[01]\d{2}|920\d|921[0-4]`
	// eosSpeed lists the "speed" arguments of AVD's ethernet_interfaces
	// schema (valid_values), the forms EOS accepts.
	eosSpeed = `100full|100g|100g-1|100g-2|100g-4|100half|10full|10g|10half|1g|200g|200g-2|200g-4|25g|400g|400g-4|` +
		`400g-8|40g|50g|50g-1|50g-2|800g-8|sfp-1000baset auto 100full|1\.6t-8|100mfull|100mhalf|10mfull|` +
		`10mhalf|200g-1|400g-2|40g-4|800g-4|auto|auto 10000full|auto 1000full|auto 100full|auto 100g-1|auto 100g-2|` +
		`auto 100g-4|auto 100gfull|auto 100half|auto 10full|auto 10gfull|auto 10half|auto 1gfull|auto 2\.5gfull|auto 200g-2|` +
		`auto 200g-4|auto 25gfull|auto 400g-4|auto 400g-8|auto 40gfull|auto 50g-1|auto 50g-2|auto 50gfull|auto 5gfull|` +
		`auto 800g-8|auto 1\.6t-8|auto 100mfull|auto 100mhalf|auto 10g|auto 10mfull|auto 10mhalf|auto 1g|auto 2\.5g|` +
		`auto 200g-1|auto 25g|auto 400g-2|auto 40g-4|auto 5g|auto 800g-4|forced 10000full|forced 1000full|forced 1000half|` +
		`forced 100full|forced 100gfull|forced 100half|forced 10full|forced 10half|forced 25gfull|forced 40gfull|forced 50gfull`
	// eosWatchdogAction is what the PFC watchdog may do to a stormed queue
	// (AVD priority_flow_control schema; "no-drop" was removed in AVD PR
	// #6400 because EOS answers it with "% Unavailable command").
	eosWatchdogAction = `drop|errdisable|notify-only`
)

// eosMaxMTU is the largest interface MTU EOS accepts.
const eosMaxMTU = 9214

// eosIfShort abbreviates an interface name the way EOS prompts do.
func eosIfShort(name string) string {
	for _, p := range [][2]string{{"Ethernet", "Et"}, {"Management", "Ma"}, {"Port-Channel", "Po"}, {"Loopback", "Lo"}, {"Vlan", "Vl"}} {
		if rest, ok := strings.CutPrefix(name, p[0]); ok {
			return p[1] + rest
		}
	}
	return name
}

func eosIfaceCanon(line string) string {
	f := strings.Fields(line)
	if len(f) == 2 {
		return "interface " + eosIfaceName(f[1])
	}
	return line
}

// eosIfaceName expands abbreviations (et1 -> Ethernet1).
func eosIfaceName(n string) string {
	low := strings.ToLower(n)
	for _, p := range [][2]string{{"ethernet", "Ethernet"}, {"et", "Ethernet"}, {"management", "Management"}, {"ma", "Management"}, {"port-channel", "Port-Channel"}, {"po", "Port-Channel"}, {"loopback", "Loopback"}, {"lo", "Loopback"}, {"vlan", "Vlan"}, {"vl", "Vlan"}} {
		if rest, ok := strings.CutPrefix(low, p[0]); ok && rest != "" && isDigit(rest[0]) {
			return p[1] + rest
		}
	}
	return n
}

// eosUserIdent identifies a username line: the account, and apart from
// it the account's ssh-key line (both are in a running config).
func eosUserIdent(t []string) string {
	if len(t) > 2 && (t[2] == "ssh-key" || t[2] == "sshkey") {
		return strings.Join(t[:3], " ")
	}
	return firstN(2)(t)
}

// eosQosMap parses a `qos map cos|dscp|traffic-class KEYS to KIND N ...`
// line: EOS keeps one mapping per DSCP, CoS or traffic class in each map
// (a map is its key kind and target kind), so the keys are what a later
// line takes over and what `no` unmaps.
func eosQosMap(line string) (mapped, bool) {
	f := strings.Fields(line)
	to := -1
	for i, w := range f {
		if w == "to" {
			to = i
			break
		}
	}
	if len(f) < 6 || f[0] != "qos" || f[1] != "map" || to < 4 || to+1 >= len(f) {
		return mapped{}, false
	}
	var keys []string
	for _, k := range f[3:to] {
		lo, hi, isRange := strings.Cut(k, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if !isRange || err1 != nil || err2 != nil || b < a || b-a > 63 {
			keys = append(keys, k)
			continue
		}
		for v := a; v <= b; v++ {
			keys = append(keys, strconv.Itoa(v))
		}
	}
	return mapped{family: f[2] + ">" + f[to+1], keys: keys, head: strings.Join(f[:3], " "), target: strings.Join(f[to:], " ")}, true
}

// eosPhysical reports an `interface` line of a physical port, which `no
// interface` / `default interface` resets instead of deleting.
func eosPhysical(line string) bool {
	name := strings.TrimPrefix(line, "interface ")
	return strings.HasPrefix(name, "Ethernet") || strings.HasPrefix(name, "Management")
}

// eosGrammar returns the grammar, built once: it is read-only after that.
var eosGrammar = sync.OnceValue(buildEosGrammar)

func buildEosGrammar() grammar {
	ifQoS := func() []*rule {
		return []*rule{
			r("qos trust", `dscp|cos`).ident(firstN(2)),
			r("no qos trust", "").ident(firstN(2)),
			r("qos cos", eosNum).ident(firstN(2)),
			r("qos dscp", eosNum).ident(firstN(2)),
			r("service-policy type qos input", eosName).ident(firstN(4)),
			r("priority-flow-control", `on|off`).ident(func([]string) string { return "priority-flow-control mode" }),
			r("priority-flow-control priority", eosNum+` (?:no-drop|drop)`).ident(firstN(3)),
			r("priority-flow-control pause watchdog", "").ident(firstN(4)),
			r("priority-flow-control pause watchdog port action", eosWatchdogAction).ident(firstN(6)),
			r("priority-flow-control pause watchdog port timer", eosAny).ident(firstN(6)),
			r("tx-queue", `(\d+)`).enters("txq", func(p string, a []string) string { return p + "-txq-" + a[0] }),
			r("uc-tx-queue", `(\d+)`).enters("txq", func(p string, a []string) string { return p + "-uc-txq-" + a[0] }),
			r("mc-tx-queue", `(\d+)`).enters("txq", func(p string, a []string) string { return p + "-mc-txq-" + a[0] }),
		}
	}
	iface := []*rule{
		r("description", eosAny).ident(firstN(1)),
		r("shutdown", "").ident(firstN(1)),
		r("load-interval", eosNum).ident(firstN(1)),
		r("mtu", eosMTU).ident(firstN(1)),
		r("speed", eosSpeed).ident(firstN(1)),
		r("error-correction encoding", `reed-solomon|fire-code|disabled`).ident(firstN(2)),
		r("no error-correction encoding", "").ident(firstN(2)),
		r("flowcontrol send", `on|off`).ident(firstN(2)),
		r("flowcontrol receive", `on|off`).ident(firstN(2)),
		r("lldp", eosAny),
		r("switchport", eosAny).ident(firstN(2)),
		r("no switchport", "").ident(firstN(1)),
		r("switchport", "").ident(firstN(1)),
		r("channel-group", eosAny).ident(firstN(1)),
		r("vrf", eosName).ident(firstN(1)),
		r("ip address", eosAny).ident(firstN(2)),
		r("ipv6 address", eosAny),
		r("ip access-group", eosName+` (?:in|out)`).ident(func(t []string) string { return "ip access-group " + t[len(t)-1] }),
		r("service-profile", eosName).ident(firstN(1)),
	}
	iface = append(iface, ifQoS()...)
	iface = append(iface,
		r("spanning-tree", eosAny),
		r("dcbx mode", `ieee|cee`).ident(firstN(2)),
		r("no dcbx mode", "").ident(firstN(2)),
	)
	return newGrammar(map[string][]*rule{
		"config": {
			r("no aaa root", "").ident(firstN(2)),
			r("username", eosName+` .+`).ident(eosUserIdent),
			r("service routing protocols model", `multi-agent|ribd`).ident(firstN(4)),
			r("hardware counter feature", eosAny),
			r("logging buffered", eosAny).ident(firstN(2)),
			r("logging host", eosAny).grouped(),
			r("logging console", eosAny).ident(firstN(2)),
			r("hostname", eosName).ident(firstN(1)),
			r("ip name-server", eosAny).attached(),
			r("ip domain-name", eosName).ident(firstN(2)).attached(),
			r("dns domain", eosName).ident(firstN(2)).grouped().attached(),
			r("ntp server", eosAny),
			r("snmp-server location", eosAny).ident(firstN(2)),
			r("snmp-server contact", eosAny).ident(firstN(2)).grouped(),
			r("snmp-server community", eosAny).ident(firstN(3)).grouped(),
			r("spanning-tree mode", `mstp|rstp|rapid-pvst|none`).ident(firstN(2)),
			r("no aaa root", "").ident(firstN(2)),
			r("aaa authorization exec default local", ""),
			r("username", eosName+` .+`).ident(firstN(2)),
			r("clock timezone", eosName).ident(firstN(2)),
			r("vlan", `([\d,\-]+)`).enters("vlan", func(_ string, a []string) string { return "vlan-" + a[0] }),
			r("vrf instance", `(\S+)`).enters("vrf", func(_ string, a []string) string { return "vrf-" + a[0] }),
			r("platform", eosAny),
			r("qos rewrite dscp", "").ident(firstN(3)),
			r("no qos rewrite dscp", "").ident(firstN(3)),
			r("qos map cos", eosList+` to traffic-class \d+`).valueMap(eosQosMap),
			r("qos map dscp", eosList+` to traffic-class \d+(?: drop-precedence \d+)?`).grouped().valueMap(eosQosMap),
			r("qos map traffic-class", eosList+` to (?:tx-queue|dscp|cos) \d+`).grouped().valueMap(eosQosMap),
			r("qos random-detect ecn allow non-ect", `|chip-based`).ident(firstN(5)),
			r("qos profile", `(\S+)`).enters("qos-profile", func(_ string, a []string) string { return "qos-profile-" + a[0] }),
			r("interface", `(\S+)`).enters("if", func(_ string, a []string) string {
				return "if-" + eosIfShort(eosIfaceName(a[0]))
			}).canonical(eosIfaceCanon).resets(eosPhysical),
			r("priority-flow-control all off", "").ident(firstN(3)),
			r("priority-flow-control pause watchdog default timeout", eosFloat).ident(firstN(5)),
			r("priority-flow-control pause watchdog default recovery-time", eosFloat+`(?: forced)?`).ident(firstN(5)),
			r("priority-flow-control pause watchdog default polling-interval", eosFloat).ident(firstN(5)),
			r("priority-flow-control pause watchdog action", eosWatchdogAction).ident(firstN(4)),
			r("priority-flow-control pause watchdog override action", eosWatchdogAction).ident(firstN(5)),
			r("priority-flow-control pause watchdog hardware", eosAny).ident(firstN(5)),
			r("ip access-list", `(\S+)`).enters("acl", func(_ string, a []string) string { return "acl-" + a[0] }),
			r("ip access-list standard", `(\S+)`).enters("acl", func(_ string, a []string) string { return "std-acl-" + a[0] }),
			r("ipv6 access-list", `(\S+)`).enters("acl", func(_ string, a []string) string { return "ipv6-acl-" + a[0] }),
			r("class-map type qos", `(?:match-any|match-all) (\S+)`).enters("cmap", func(_ string, a []string) string {
				return "cmap-qos-" + a[0]
			}),
			r("policy-map type quality-of-service", `(\S+)`).enters("pmap", func(_ string, a []string) string { return "pmap-qos-" + a[0] }),
			r("policy-map type qos", `(\S+)`).enters("pmap", func(_ string, a []string) string { return "pmap-qos-" + a[0] }).grouped().
				canonical(func(l string) string { return strings.Replace(l, "type qos", "type quality-of-service", 1) }),
			r("ip routing", `|vrf \S+`).ident(firstN(4)),
			r("no ip routing", `|vrf \S+`).ident(firstN(4)).grouped(),
			r("ip route", eosAny),
			r("router bgp", eosNum).enters("router", func(string, []string) string { return "router-bgp" }),
			r("lldp", eosAny),
			r("management api http-commands", "").enters("mgmt", func(string, []string) string { return "mgmt-api-http-cmds" }),
			r("management ssh", "").enters("mgmt", func(string, []string) string { return "mgmt-ssh" }),
		},
		"if": iface,
		"txq": {
			r("priority strict", "").ident(func([]string) string { return "priority" }),
			r("no priority", "").ident(func([]string) string { return "priority" }),
			r("bandwidth percent", eosNum).ident(func([]string) string { return "bandwidth" }),
			r("bandwidth guaranteed percent", eosNum).ident(func([]string) string { return "bandwidth guaranteed" }),
			r("shape rate", eosAny).ident(firstN(2)),
			r("random-detect ecn minimum-threshold", eosAny).ident(firstN(2)),
			r("random-detect ecn count", "").ident(firstN(3)),
			r("random-detect drop", eosAny).ident(firstN(2)),
		},
		"qos-profile": ifQoS(),
		"vlan":        {r("name", eosName).ident(firstN(1))},
		"vrf":         {r("description", eosAny).ident(firstN(1))},
		"acl": {
			r("statistics per-entry", "").ident(firstN(2)),
			r("", `\d+ (?:permit|deny|remark) .+`).ident(firstN(1)),
			r("", `(?:permit|deny|remark) .+`).ident(firstN(1)).sequenced(),
		},
		"cmap": {
			r("match ip access-group", eosName).ordered(),
			r("match ipv6 access-group", eosName).ordered(),
			r("match dscp", eosAny).ordered(),
			r("match vlan", eosAny).ordered(),
		},
		"pmap": {
			r("class", `(\S+)`).enters("pmap-c", func(p string, a []string) string {
				return "pmap-c-qos-" + strings.TrimPrefix(p, "pmap-qos-") + "-" + a[0]
			}).ordered(),
		},
		"pmap-c": {
			r("set cos", eosNum).ident(firstN(2)),
			r("set dscp", eosName).ident(firstN(2)),
			r("set traffic-class", eosNum).ident(firstN(2)),
			r("set drop-precedence", eosNum).ident(firstN(2)),
			r("police", eosAny).ident(firstN(1)),
		},
		"router": {
			r("router-id", eosName).ident(firstN(1)),
			r("maximum-paths", eosAny).ident(firstN(1)),
			// EOS lists peer groups and neighbors as configured
			// (peer-group lines first in AVD's output), not sorted.
			r("neighbor", eosAny).ordered(),
			r("network", eosAny),
		},
		"mgmt": {
			r("protocol", eosAny),
			r("no shutdown", "").ident(firstN(1)),
			r("shutdown", "").ident(firstN(1)),
			r("vrf", `(\S+)`).enters("mgmt", func(_ string, a []string) string { return "mgmt-api-http-cmds-vrf-" + a[0] }),
			r("idle-timeout", eosNum).ident(firstN(1)),
		},
	})
}
