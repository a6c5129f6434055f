package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// mlnxOpt maps an mlnx_qos option (mlnx-tools python/mlnx_qos) to its
// fact key.
func mlnxOpt(opt string) (string, bool) {
	switch opt {
	case "--trust":
		return "trust", true
	case "--pfc", "-f":
		return "pfc", true
	case "--prio_tc", "-p":
		return "prio_tc", true
	case "--tsa", "-s":
		return "tsa", true
	case "--tcbw", "-t":
		return "tcbw", true
	case "--cable_len":
		return "cable_len", true
	}
	return "", false
}

func parseMlnxQos(line string, args []string) (HostAction, error) {
	a := HostAction{Line: line}
	iface := ""
	var facts []Fact
	dscp := false
	for i := 0; i < len(args); i++ {
		opt, val, hasEq := strings.Cut(args[i], "=")
		if !hasEq {
			if i+1 >= len(args) {
				return a, fmt.Errorf("mlnx_qos option %s has no value", opt)
			}
			val = args[i+1]
			i++
		}
		switch opt {
		case "-i", "--interface":
			iface = val
		case "--dscp2prio":
			parts := strings.Split(val, ",")
			if len(parts) != 3 || parts[0] != "set" {
				return a, fmt.Errorf("--dscp2prio %s: fabricgen plans only set,DSCP,PRIO", val)
			}
			facts = append(facts, Fact{Kind: "mlnx_dscp", Key: "dscp2prio " + parts[1], Value: parts[2]})
			dscp = true
		default:
			key, ok := mlnxOpt(opt)
			if !ok {
				return a, fmt.Errorf("mlnx_qos option %s: fabricgen cannot read it back", opt)
			}
			facts = append(facts, Fact{Kind: "mlnx_qos", Key: key, Value: val})
		}
	}
	if iface == "" {
		return a, fmt.Errorf("mlnx_qos needs -i IFACE")
	}
	if len(facts) == 0 {
		return a, fmt.Errorf("mlnx_qos -i %s sets nothing", quoteWord(iface))
	}
	for i := range facts {
		facts[i].Target = iface
	}
	a.Facts = facts
	a.Read = quoteWords("mlnx_qos", "-i", iface)
	if dscp {
		// mlnx_qos prints the whole effective DSCP table, the default
		// mapping (priority = DSCP / 8) included, so it cannot tell an
		// explicit entry from a default one; the APP table can (dcbnl,
		// the table mlnx_qos --dscp2prio writes).
		if len(facts) > 1 {
			return a, fmt.Errorf("mlnx_qos --dscp2prio goes on a line of its own, so fabricgen can read it back")
		}
		a.Read = quoteWords("dcb", "-N", "app", "show", "dev", iface, "dscp-prio")
	}
	return a, nil
}

var (
	reTrust    = regexp.MustCompile(`(?m)^\s*Priority trust state:\s*(\S+)`)
	reDSCPPrio = regexp.MustCompile(`(?m)^\s*prio:\s*(\d+)\s+dscp:\s*([\d,\s]+)$`)
	rePFCEn    = regexp.MustCompile(`(?m)^\s*enabled\s+([\d\s]+)$`)
	reTC       = regexp.MustCompile(`^\s*tc:\s*(\d+)\b.*?tsa:\s*(\w+)(?:,\s*bw:\s*(\d+)%)?`)
	rePrioLine = regexp.MustCompile(`^\s*priority:\s*([\d\s,]+)$`)
	reCable    = regexp.MustCompile(`(?m)^\s*Cable len:\s*(\d+)`)
	reMTU      = regexp.MustCompile(`\bmtu (\d+)\b`)
	rePause    = regexp.MustCompile(`(?m)^\s*(RX|TX|Autonegotiate):\s*(on|off)\b`)
	reInt      = regexp.MustCompile(`\d+`)
	rePrivFlag = regexp.MustCompile(`(?m)^([a-z0-9][a-z0-9-]*)\s*:\s*(on|off)\s*$`)
)

// parseRead turns one read command's output into fact values by ID.
func parseRead(a HostAction, out string) map[string]string {
	m := map[string]string{}
	if len(a.Facts) == 0 {
		return m
	}
	target := a.Facts[0].Target
	put := func(key, v string) { m[target+" "+key] = v }
	switch a.Facts[0].Kind {
	case "mlnx_qos":
		parseMlnxShow(out, put)
	case "mlnx_dscp":
		// "dscp-prio 26:3 48:6": the explicit entries only.
		for _, tok := range strings.Fields(out) {
			d, p, ok := strings.Cut(tok, ":")
			if _, err := strconv.Atoi(d); ok && err == nil {
				put("dscp2prio "+d, p)
			}
		}
	case "sysfs":
		if v := strings.TrimSpace(out); v != "" {
			put("value", v)
		}
	case "mtu":
		if s := reMTU.FindStringSubmatch(out); s != nil {
			put("mtu", s[1])
		}
	case "roce_mode":
		put(a.Facts[0].Key, normRoCEMode(out))
	case "tunable":
		if all := reInt.FindAllString(out, -1); len(all) > 0 {
			put(a.Facts[0].Key, all[len(all)-1])
		}
	case "privflag":
		// "fw-lldp-agent         : on", one flag a line.
		for _, s := range rePrivFlag.FindAllStringSubmatch(out, -1) {
			put("priv-flag "+s[1], s[2])
		}
	case "roce_tos":
		if all := reInt.FindAllString(out, -1); len(all) > 0 {
			put(a.Facts[0].Key, all[len(all)-1])
		}
	case "pause":
		for _, s := range rePause.FindAllStringSubmatch(out, -1) {
			k := map[string]string{"RX": "rx", "TX": "tx", "Autonegotiate": "autoneg"}[s[1]]
			put("pause "+k, s[2])
		}
	case "dcb":
		kind := strings.Fields(a.Facts[0].Key)[0]
		for _, f := range dcbFacts(kind, target, strings.Join(strings.Fields(out), " ")) {
			m[f.ID()] = f.Value
		}
	}
	return m
}

func parseMlnxShow(out string, put func(key, v string)) {
	if s := reTrust.FindStringSubmatch(out); s != nil {
		put("trust", s[1])
	}
	for _, s := range reDSCPPrio.FindAllStringSubmatch(out, -1) {
		for _, d := range strings.FieldsFunc(s[2], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			n, err := strconv.Atoi(d)
			if err == nil {
				put("dscp2prio "+strconv.Itoa(n), s[1])
			}
		}
	}
	if s := rePFCEn.FindStringSubmatch(out); s != nil {
		put("pfc", strings.Join(strings.Fields(s[1]), ","))
	}
	if s := reCable.FindStringSubmatch(out); s != nil {
		put("cable_len", s[1])
	}
	tsa := make([]string, 8)
	bw := make([]string, 8)
	prioTC := make([]string, 8)
	seen := false
	tc := -1
	for _, l := range strings.Split(out, "\n") {
		if s := reTC.FindStringSubmatch(l); s != nil {
			n, _ := strconv.Atoi(s[1])
			if n < 0 || n > 7 {
				tc = -1
				continue
			}
			tc, seen = n, true
			tsa[n] = s[2]
			bw[n] = "0"
			if s[3] != "" {
				bw[n] = s[3]
			}
			continue
		}
		if s := rePrioLine.FindStringSubmatch(l); s != nil && tc >= 0 {
			for _, p := range strings.FieldsFunc(s[1], func(r rune) bool { return r == ',' || r == ' ' }) {
				if n, err := strconv.Atoi(p); err == nil && n >= 0 && n < 8 {
					prioTC[n] = strconv.Itoa(tc)
				}
			}
		}
	}
	if seen {
		put("tsa", strings.Join(tsa, ","))
		put("tcbw", strings.Join(bw, ","))
		put("prio_tc", strings.Join(prioTC, ","))
	}
}

// dcbFacts reads iproute2 dcb "key value" text, the same in `dcb X set`
// arguments and `dcb X show` output: "prio-pfc all:off 3:on delay 4096".
// Mapped values (a:b) become one fact per index, all: expanding to 0-7;
// plain words after a key are that key's scalar value.
func dcbFacts(kind, iface, text string) []Fact {
	key := ""
	vals := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = v
	}
	for _, tok := range strings.Fields(text) {
		switch {
		case isKnownDCBKey(tok) || key == "":
			key = tok
		case strings.Contains(tok, ":"):
			idx, v, _ := strings.Cut(tok, ":")
			if idx == "all" {
				for i := 0; i < 8; i++ {
					set(fmt.Sprintf("%s %s %d", kind, key, i), v)
				}
				continue
			}
			set(fmt.Sprintf("%s %s %s", kind, key, idx), v)
		default:
			k := kind + " " + key
			if prev, ok := vals[k]; ok {
				set(k, prev+" "+tok)
			} else {
				set(k, tok)
			}
		}
	}
	out := make([]Fact, 0, len(order))
	for _, k := range order {
		out = append(out, Fact{Kind: "dcb", Target: iface, Key: k, Value: vals[k]})
	}
	return out
}

// isKnownDCBKey lists the dcb keys that start a new setting.
func isKnownDCBKey(s string) bool {
	switch s {
	case "prio-pfc", "delay", "macsec-bypass", "pfc-cap", "prio-tc", "tc-tsa", "tc-bw", "pg-bw",
		"willing", "ets-cap", "cbs", "dscp-prio", "default-prio", "ethtype-prio", "stream-port-prio",
		"dgram-port-prio", "port-prio", "pcp-prio", "requests", "indications", "order", "tc-maxrate":
		return true
	}
	return false
}
