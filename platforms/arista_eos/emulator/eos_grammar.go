package emulator

import (
	"strconv"
	"strings"
	"sync"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
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
		if rest, ok := strings.CutPrefix(low, p[0]); ok && rest != "" && cli.IsDigit(rest[0]) {
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
	return cli.FirstN(2)(t)
}

// eosQosMap parses a `qos map cos|dscp|traffic-class KEYS to KIND N ...`
// line: EOS keeps one mapping per DSCP, CoS or traffic class in each map
// (a map is its key kind and target kind), so the keys are what a later
// line takes over and what `no` unmaps.
func eosQosMap(line string) (cli.Mapped, bool) {
	f := strings.Fields(line)
	to := -1
	for i, w := range f {
		if w == "to" {
			to = i
			break
		}
	}
	if len(f) < 6 || f[0] != "qos" || f[1] != "map" || to < 4 || to+1 >= len(f) {
		return cli.Mapped{}, false
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
	return cli.Mapped{Family: f[2] + ">" + f[to+1], Keys: keys, Head: strings.Join(f[:3], " "), Target: strings.Join(f[to:], " ")}, true
}

// eosPhysical reports an `interface` line of a physical port, which `no
// interface` / `default interface` resets instead of deleting.
func eosPhysical(line string) bool {
	name := strings.TrimPrefix(line, "interface ")
	return strings.HasPrefix(name, "Ethernet") || strings.HasPrefix(name, "Management")
}

// eosPortNames stores ACL entries as EOS prints them: well-known ports
// by name. Guess: EOS's own default-control-plane-acl reads "eq bfd", and
// AVD's intended configs write "eq bgp" to match the device; which numbers
// EOS names is not documented where we looked, so the lab names these six.
var eosPortNames = cli.PortNamer(func(p int) (string, bool) {
	switch p {
	case 22:
		return "ssh", true
	case 23:
		return "telnet", true
	case 80:
		return "www", true
	case 179:
		return "bgp", true
	case 443:
		return "https", true
	case 3784:
		return "bfd", true
	}
	return "", false
})

// eosIPv6Proto matches the protocol of an ipv6 access-list entry.
const eosIPv6Proto = `(?:ipv6|icmpv6|tcp|udp|sctp|ahp|esp|gre|ospf|pim|vrrp|\d{1,3})`

// eosGrammar returns the grammar, built once: it is read-only after that.
var eosGrammar = sync.OnceValue(buildEosGrammar)

// buildEosGrammar lists the EOS configuration modes and the statements
// each takes, with how the tree orders, identifies and renders them.
//
//nolint:funlen // data table
func buildEosGrammar() cli.Grammar {
	ifQoS := func() []*cli.Rule {
		return []*cli.Rule{
			cli.NewRule("qos trust", `dscp|cos`).Ident(cli.FirstN(2)),
			cli.NewRule("no qos trust", "").Ident(cli.FirstN(2)),
			cli.NewRule("qos cos", eosNum).Ident(cli.FirstN(2)),
			cli.NewRule("qos dscp", eosNum).Ident(cli.FirstN(2)),
			cli.NewRule("service-policy type qos input", eosName).Ident(cli.FirstN(4)),
			cli.NewRule("priority-flow-control", `on|off`).Ident(func([]string) string { return "priority-flow-control mode" }),
			cli.NewRule("priority-flow-control priority", eosNum+` (?:no-drop|drop)`).Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control pause watchdog", "").Ident(cli.FirstN(4)),
			cli.NewRule("priority-flow-control pause watchdog port action", eosWatchdogAction).Ident(cli.FirstN(6)),
			cli.NewRule("priority-flow-control pause watchdog port timer", eosAny).Ident(cli.FirstN(6)),
			cli.NewRule("tx-queue", `(\d+)`).Enters("txq", func(p string, a []string) string { return p + "-txq-" + a[0] }),
			cli.NewRule("uc-tx-queue", `(\d+)`).Enters("txq", func(p string, a []string) string { return p + "-uc-txq-" + a[0] }),
			cli.NewRule("mc-tx-queue", `(\d+)`).Enters("txq", func(p string, a []string) string { return p + "-mc-txq-" + a[0] }),
		}
	}
	iface := []*cli.Rule{
		cli.NewRule("description", eosAny).Ident(cli.FirstN(1)),
		cli.NewRule("shutdown", "").Ident(cli.FirstN(1)),
		cli.NewRule("load-interval", eosNum).Ident(cli.FirstN(1)),
		cli.NewRule("mtu", eosMTU).Ident(cli.FirstN(1)),
		cli.NewRule("speed", eosSpeed).Ident(cli.FirstN(1)),
		cli.NewRule("error-correction encoding", `reed-solomon|fire-code|disabled`).Ident(cli.FirstN(2)),
		cli.NewRule("no error-correction encoding", "").Ident(cli.FirstN(2)),
		cli.NewRule("flowcontrol send", `on|off`).Ident(cli.FirstN(2)),
		cli.NewRule("flowcontrol receive", `on|off`).Ident(cli.FirstN(2)),
		cli.NewRule("lldp", eosAny),
		cli.NewRule("switchport", eosAny).Ident(cli.FirstN(2)),
		cli.NewRule("no switchport", "").Ident(cli.FirstN(1)),
		cli.NewRule("switchport", "").Ident(cli.FirstN(1)),
		cli.NewRule("channel-group", eosAny).Ident(cli.FirstN(1)),
		cli.NewRule("vrf", eosName).Ident(cli.FirstN(1)),
		cli.NewRule("ip address", eosAny).Ident(cli.FirstN(2)),
		cli.NewRule("ipv6 address", eosAny),
		cli.NewRule("ipv6 enable", "").Ident(cli.FirstN(2)),
		cli.NewRule("ip access-group", eosName+` (?:in|out)`).Ident(func(t []string) string { return "ip access-group " + t[len(t)-1] }),
		cli.NewRule("ipv6 access-group", eosName+` (?:in|out)`).Ident(func(t []string) string { return "ipv6 access-group " + t[len(t)-1] }),
		cli.NewRule("service-profile", eosName).Ident(cli.FirstN(1)),
	}
	iface = append(iface, ifQoS()...)
	iface = append(iface,
		cli.NewRule("spanning-tree", eosAny),
		cli.NewRule("dcbx mode", `ieee|cee`).Ident(cli.FirstN(2)),
		cli.NewRule("no dcbx mode", "").Ident(cli.FirstN(2)),
	)
	return cli.NewGrammar(map[string][]*cli.Rule{
		"config": {
			cli.NewRule("no aaa root", "").Ident(cli.FirstN(2)),
			cli.NewRule("username", eosName+` .+`).Ident(eosUserIdent),
			cli.NewRule("service routing protocols model", `multi-agent|ribd`).Ident(cli.FirstN(4)),
			cli.NewRule("hardware counter feature", eosAny),
			cli.NewRule("logging buffered", eosAny).Ident(cli.FirstN(2)),
			cli.NewRule("logging host", eosAny).Grouped(),
			cli.NewRule("logging console", eosAny).Ident(cli.FirstN(2)),
			cli.NewRule("hostname", eosName).Ident(cli.FirstN(1)),
			cli.NewRule("ip name-server", eosAny).Attached(),
			cli.NewRule("ip domain-name", eosName).Ident(cli.FirstN(2)).Attached(),
			cli.NewRule("dns domain", eosName).Ident(cli.FirstN(2)).Grouped().Attached(),
			cli.NewRule("ntp server", eosAny),
			cli.NewRule("snmp-server location", eosAny).Ident(cli.FirstN(2)),
			cli.NewRule("snmp-server contact", eosAny).Ident(cli.FirstN(2)).Grouped(),
			cli.NewRule("snmp-server community", eosAny).Ident(cli.FirstN(3)).Grouped(),
			cli.NewRule("spanning-tree mode", `mstp|rstp|rapid-pvst|none`).Ident(cli.FirstN(2)),
			cli.NewRule("no aaa root", "").Ident(cli.FirstN(2)),
			cli.NewRule("aaa authorization exec default local", ""),
			cli.NewRule("username", eosName+` .+`).Ident(cli.FirstN(2)),
			cli.NewRule("clock timezone", eosName).Ident(cli.FirstN(2)),
			cli.NewRule("vlan", `([\d,\-]+)`).Enters("vlan", func(_ string, a []string) string { return "vlan-" + a[0] }),
			cli.NewRule("vrf instance", `(\S+)`).Enters("vrf", func(_ string, a []string) string { return "vrf-" + a[0] }),
			cli.NewRule("platform", eosAny),
			cli.NewRule("qos rewrite dscp", "").Ident(cli.FirstN(3)),
			cli.NewRule("no qos rewrite dscp", "").Ident(cli.FirstN(3)),
			cli.NewRule("qos map cos", eosList+` to traffic-class \d+`).ValueMap(eosQosMap),
			cli.NewRule("qos map dscp", eosList+` to traffic-class \d+(?: drop-precedence \d+)?`).Grouped().ValueMap(eosQosMap),
			cli.NewRule("qos map traffic-class", eosList+` to (?:tx-queue|dscp|cos) \d+`).Grouped().ValueMap(eosQosMap),
			cli.NewRule("qos random-detect ecn allow non-ect", `|chip-based`).Ident(cli.FirstN(5)),
			cli.NewRule("qos profile", `(\S+)`).Enters("qos-profile", func(_ string, a []string) string { return "qos-profile-" + a[0] }),
			cli.NewRule("interface", `(\S+)`).Enters("if", func(_ string, a []string) string {
				return "if-" + eosIfShort(eosIfaceName(a[0]))
			}).Canonical(eosIfaceCanon).Resets(eosPhysical),
			cli.NewRule("priority-flow-control all off", "").Ident(cli.FirstN(3)),
			cli.NewRule("priority-flow-control pause watchdog default timeout", eosFloat).Ident(cli.FirstN(5)),
			cli.NewRule("priority-flow-control pause watchdog default recovery-time", eosFloat+`(?: forced)?`).Ident(cli.FirstN(5)),
			cli.NewRule("priority-flow-control pause watchdog default polling-interval", eosFloat).Ident(cli.FirstN(5)),
			cli.NewRule("priority-flow-control pause watchdog action", eosWatchdogAction).Ident(cli.FirstN(4)),
			cli.NewRule("priority-flow-control pause watchdog override action", eosWatchdogAction).Ident(cli.FirstN(5)),
			cli.NewRule("priority-flow-control pause watchdog hardware", eosAny).Ident(cli.FirstN(5)),
			cli.NewRule("ip access-list", `(\S+)`).Enters("acl", func(_ string, a []string) string { return "acl-" + a[0] }),
			cli.NewRule("ip access-list standard", `(\S+)`).Enters("acl", func(_ string, a []string) string { return "std-acl-" + a[0] }),
			cli.NewRule("ipv6 access-list", `(\S+)`).Enters("acl6", func(_ string, a []string) string { return "ipv6-acl-" + a[0] }),
			cli.NewRule("class-map type qos", `(?:match-any|match-all) (\S+)`).Enters("cmap", func(_ string, a []string) string {
				return "cmap-qos-" + a[0]
			}),
			cli.NewRule("policy-map type quality-of-service", `(\S+)`).Enters("pmap", func(_ string, a []string) string { return "pmap-qos-" + a[0] }),
			cli.NewRule("policy-map type qos", `(\S+)`).Enters("pmap", func(_ string, a []string) string { return "pmap-qos-" + a[0] }).Grouped().
				Canonical(func(l string) string { return strings.Replace(l, "type qos", "type quality-of-service", 1) }),
			cli.NewRule("ip routing", `|vrf \S+`).Ident(cli.FirstN(4)),
			cli.NewRule("no ip routing", `|vrf \S+`).Ident(cli.FirstN(4)).Grouped(),
			cli.NewRule("ip route", eosAny),
			cli.NewRule("router bgp", eosNum).Enters("router", func(string, []string) string { return "router-bgp" }),
			cli.NewRule("lldp", eosAny),
			cli.NewRule("management api http-commands", "").Enters("mgmt", func(string, []string) string { return "mgmt-api-http-cmds" }),
			cli.NewRule("management ssh", "").Enters("mgmt", func(string, []string) string { return "mgmt-ssh" }),
		},
		"if": iface,
		"txq": {
			cli.NewRule("priority strict", "").Ident(func([]string) string { return "priority" }),
			cli.NewRule("no priority", "").Ident(func([]string) string { return "priority" }),
			cli.NewRule("bandwidth percent", eosNum).Ident(func([]string) string { return "bandwidth" }),
			cli.NewRule("bandwidth guaranteed percent", eosNum).Ident(func([]string) string { return "bandwidth guaranteed" }),
			cli.NewRule("shape rate", eosAny).Ident(cli.FirstN(2)),
			cli.NewRule("random-detect ecn minimum-threshold", eosAny).Ident(cli.FirstN(2)),
			cli.NewRule("random-detect ecn count", "").Ident(cli.FirstN(3)),
			cli.NewRule("random-detect drop", eosAny).Ident(cli.FirstN(2)),
		},
		"qos-profile": ifQoS(),
		"vlan":        {cli.NewRule("name", eosName).Ident(cli.FirstN(1))},
		"vrf":         {cli.NewRule("description", eosAny).Ident(cli.FirstN(1))},
		"acl": {
			cli.NewRule("statistics per-entry", "").Ident(cli.FirstN(2)),
			cli.NewRule("", `\d+ (?:permit|deny|remark) .+`).Ident(cli.FirstN(1)).Canonical(eosPortNames),
			cli.NewRule("", `(?:permit|deny|remark) .+`).Ident(cli.FirstN(1)).Sequenced().Canonical(eosPortNames),
		},
		// An ipv6 access-list names its protocols in IPv6 words: "ipv6"
		// for any, "icmpv6" (AVD's ipv6-access-lists and qos configs,
		// openconfig/featureprofiles' Arista CLI); "ip" and "icmp" are
		// refused as an IPv4 list's words.
		"acl6": {
			cli.NewRule("statistics per-entry", "").Ident(cli.FirstN(2)),
			cli.NewRule("", `\d+ (?:permit|deny) `+eosIPv6Proto+` .+`).Ident(cli.FirstN(1)).Canonical(eosPortNames),
			cli.NewRule("", `\d+ remark .+`).Ident(cli.FirstN(1)),
			cli.NewRule("", `(?:permit|deny) `+eosIPv6Proto+` .+`).Ident(cli.FirstN(1)).Sequenced().Canonical(eosPortNames),
			cli.NewRule("", `remark .+`).Ident(cli.FirstN(1)).Sequenced(),
		},
		"cmap": {
			cli.NewRule("match ip access-group", eosName).Ordered(),
			cli.NewRule("match ipv6 access-group", eosName).Ordered(),
			cli.NewRule("match dscp", eosAny).Ordered(),
			cli.NewRule("match vlan", eosAny).Ordered(),
		},
		"pmap": {
			cli.NewRule("class", `(\S+)`).Enters("pmap-c", func(p string, a []string) string {
				return "pmap-c-qos-" + strings.TrimPrefix(p, "pmap-qos-") + "-" + a[0]
			}).Ordered(),
		},
		"pmap-c": {
			cli.NewRule("set cos", eosNum).Ident(cli.FirstN(2)),
			cli.NewRule("set dscp", eosName).Ident(cli.FirstN(2)),
			cli.NewRule("set traffic-class", eosNum).Ident(cli.FirstN(2)),
			cli.NewRule("set drop-precedence", eosNum).Ident(cli.FirstN(2)),
			cli.NewRule("police", eosAny).Ident(cli.FirstN(1)),
		},
		"router": {
			cli.NewRule("router-id", eosName).Ident(cli.FirstN(1)),
			cli.NewRule("maximum-paths", eosAny).Ident(cli.FirstN(1)),
			// EOS lists peer groups and neighbors as configured
			// (peer-group lines first in AVD's output), not sorted.
			cli.NewRule("neighbor", eosAny).Ordered(),
			cli.NewRule("network", eosAny),
		},
		"mgmt": {
			cli.NewRule("protocol", eosAny),
			cli.NewRule("no shutdown", "").Ident(cli.FirstN(1)),
			cli.NewRule("shutdown", "").Ident(cli.FirstN(1)),
			cli.NewRule("vrf", `(\S+)`).Enters("mgmt", func(_ string, a []string) string { return "mgmt-api-http-cmds-vrf-" + a[0] }),
			cli.NewRule("idle-timeout", eosNum).Ident(cli.FirstN(1)),
		},
	})
}
