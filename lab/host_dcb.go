package lab

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// mlnxQoSUsage is printed for bad mlnx_qos arguments.
const mlnxQoSUsage = "Usage: mlnx_qos -i <interface> [options]\n"

// mlnxQoS implements the subset of mlnx-tools' mlnx_qos our scripts use:
// -i, --trust, -f/--pfc, --dscp2prio set|del|flush, -p/--prio_tc,
// -s/--tsa, -t/--tcbw, --cable_len; it prints the resulting state.
func (h *host) mlnxQoS(args []string) (string, string, int) {
	opts := map[string]string{}
	var dscpOps []string
	long := map[string]string{"-i": "interface", "-f": "pfc", "-p": "prio_tc", "-s": "tsa", "-t": "tcbw", "-a": "all", "-r": "ratelimit"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		key, val, hasVal := strings.Cut(a, "=")
		if l, ok := long[key]; ok {
			key = l
		} else if k, ok := strings.CutPrefix(key, "--"); ok {
			key = k
		} else {
			return "", mlnxQoSUsage + "mlnx_qos: error: unrecognized arguments: " + a + "\n", 2
		}
		switch key {
		case "interface", "trust", "pfc", "dscp2prio", "prio_tc", "tsa", "tcbw", "cable_len", "ratelimit":
		case "all":
			continue
		default:
			return "", mlnxQoSUsage + "mlnx_qos: error: unrecognized arguments: " + a + "\n", 2
		}
		if !hasVal {
			if i+1 >= len(args) {
				return "", mlnxQoSUsage + "mlnx_qos: error: argument --" + key + ": expected one argument\n", 2
			}
			val = args[i+1]
			i++
		}
		if key == "dscp2prio" {
			dscpOps = append(dscpOps, val)
			continue
		}
		opts[key] = val
	}
	ifname := opts["interface"]
	if ifname == "" {
		return "", mlnxQoSUsage + "mlnx_qos: error: the following arguments are required: -i/--interface\n", 2
	}
	n := h.lookup(ifname)
	if n == nil {
		return "", fmt.Sprintf("Interface %s doesn't exist\n", ifname), 1
	}
	// Validate everything before changing anything, as mlnx_qos does.
	next := *n
	next.dscp = map[int]int{}
	for k, v := range n.dscp {
		next.dscp[k] = v
	}
	if v, ok := opts["trust"]; ok {
		if v != "pcp" && v != "dscp" {
			return "", mlnxQoSUsage + "mlnx_qos: error: argument --trust: invalid choice: '" + v + "' (choose from 'pcp', 'dscp')\n", 2
		}
		next.trust = v
	}
	if v, ok := opts["pfc"]; ok {
		vals, err := list8(v, 0, 1)
		if err != nil {
			return "", "Invalid pfc configuration: " + err.Error() + "\n", 1
		}
		for i, x := range vals {
			next.pfc[i] = x == 1
		}
	}
	if v, ok := opts["prio_tc"]; ok {
		vals, err := list8(v, 0, 7)
		if err != nil {
			return "", "Invalid priority to tc mapping: " + err.Error() + "\n", 1
		}
		copy(next.prioTC[:], vals)
	}
	if v, ok := opts["tsa"]; ok {
		parts := strings.Split(v, ",")
		if len(parts) != 8 {
			return "", "Invalid tsa: expected 8 comma-separated values (strict, ets or vendor)\n", 1
		}
		for i, p := range parts {
			if p != "strict" && p != "ets" && p != "vendor" {
				return "", "Invalid tsa: " + p + " (use strict, ets or vendor)\n", 1
			}
			next.tsa[i] = p
		}
	}
	if v, ok := opts["tcbw"]; ok {
		vals, err := list8(v, 0, 100)
		if err != nil {
			return "", "Invalid tcbw: " + err.Error() + "\n", 1
		}
		copy(next.tcbw[:], vals)
	}
	if _, tsaSet := opts["tsa"]; tsaSet || opts["tcbw"] != "" {
		sum := 0
		for i := range next.tsa {
			if next.tsa[i] == "ets" {
				sum += next.tcbw[i]
			} else if next.tcbw[i] != 0 {
				return "", fmt.Sprintf("Bad ETS configuration: tc %d has bandwidth %d but tsa %s (only ets TCs take bandwidth)\n", i, next.tcbw[i], next.tsa[i]), 1
			}
		}
		ets := false
		for _, t := range next.tsa {
			ets = ets || t == "ets"
		}
		if ets && sum != 100 {
			return "", fmt.Sprintf("Bad ETS configuration: the bandwidth of ets TCs must sum to 100 (got %d)\n", sum), 1
		}
	}
	if v, ok := opts["ratelimit"]; ok {
		parts := strings.Split(v, ",")
		if len(parts) != 8 {
			return "", "Invalid ratelimit: expected 8 comma-separated Gb/s values (0 = unlimited)\n", 1
		}
		for i, p := range parts {
			g, err := strconv.Atoi(p)
			if err != nil || g < 0 {
				return "", "Invalid ratelimit value " + p + "\n", 1
			}
			next.rate[i] = ""
			if g > 0 {
				next.rate[i] = fmt.Sprintf("%dGbps", g)
			}
		}
	}
	if v, ok := opts["cable_len"]; ok {
		c, err := strconv.Atoi(v)
		if err != nil || c < 0 {
			return "", "Invalid cable_len " + v + "\n", 1
		}
		next.cable = c
	}
	for _, op := range dscpOps {
		parts := strings.Split(op, ",")
		switch {
		case len(parts) == 1 && parts[0] == "flush":
			next.dscp = map[int]int{}
			next.trust = "pcp"
		case len(parts) == 3 && (parts[0] == "set" || parts[0] == "del"):
			d, e1 := strconv.Atoi(parts[1])
			p, e2 := strconv.Atoi(parts[2])
			if e1 != nil || e2 != nil || d < 0 || d > 63 || p < 0 || p > 7 {
				return "", "Invalid dscp2prio " + op + ": use set,DSCP,PRIO or del,DSCP,PRIO with DSCP 0-63 and PRIO 0-7\n", 1
			}
			if parts[0] == "set" {
				next.dscp[d] = p
				next.trust = "dscp"
			} else {
				if cur, ok := next.dscp[d]; !ok || cur != p {
					return "", fmt.Sprintf("dscp2prio entry %d,%d does not exist\n", d, p), 1
				}
				delete(next.dscp, d)
				if len(next.dscp) == 0 {
					next.trust = "pcp"
				}
			}
		default:
			return "", "Invalid dscp2prio " + op + ": use set,DSCP,PRIO, del,DSCP,PRIO or flush\n", 1
		}
	}
	*n = next
	return n.mlnxShow(), "", 0
}

func list8(s string, lo, hi int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 8 {
		return nil, fmt.Errorf("%q: expected 8 comma-separated values", s)
	}
	out := make([]int, 8)
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("%q: value %d must be %d..%d", s, i, lo, hi)
		}
		out[i] = v
	}
	return out, nil
}

// mlnxShow prints the state the way mlnx_qos reports it.
func (n *nic) mlnxShow() string {
	var b strings.Builder
	b.WriteString("DCBX mode: OS controlled\n")
	fmt.Fprintf(&b, "Priority trust state: %s\n", n.trust)
	if n.trust == "dscp" {
		b.WriteString("dscp2prio mapping:\n")
		for p := 0; p < 8; p++ {
			var ds []string
			for d := 63; d >= 0; d-- {
				if n.prioOf(d) == p {
					ds = append(ds, fmt.Sprintf("%02d", d))
				}
			}
			fmt.Fprintf(&b, "\tprio:%d dscp:%s,\n", p, strings.Join(ds, ","))
		}
	}
	b.WriteString("default priority:\n")
	b.WriteString("Receive buffer size (bytes): 130944,130944,0,0,0,0,0,0,\n")
	fmt.Fprintf(&b, "Cable len: %d\n", n.cable)
	b.WriteString("PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     ")
	for _, on := range n.pfc {
		fmt.Fprintf(&b, "%-4d", b2i(on))
	}
	b.WriteString("\n\tbuffer      ")
	for _, on := range n.pfc {
		fmt.Fprintf(&b, "%-4d", b2i(on))
	}
	b.WriteString("\n")
	for tc := 0; tc < 8; tc++ {
		var prios []string
		for p, t := range n.prioTC {
			if t == tc {
				prios = append(prios, strconv.Itoa(p))
			}
		}
		rl := n.rate[tc]
		if rl == "" {
			rl = "unlimited"
		}
		if n.tsa[tc] == "ets" {
			fmt.Fprintf(&b, "tc: %d ratelimit: %s, tsa: ets, bw: %d%%\n", tc, rl, n.tcbw[tc])
		} else {
			fmt.Fprintf(&b, "tc: %d ratelimit: %s, tsa: %s\n", tc, rl, n.tsa[tc])
		}
		if len(prios) > 0 {
			fmt.Fprintf(&b, "\t priority:  %s\n", strings.Join(prios, " "))
		}
	}
	return b.String()
}

// dcb implements iproute2 dcb(8) app, pfc and ets for one device.
func (h *host) dcb(args []string) (string, string, int) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] != "-N" && args[0] != "-n" && args[0] != "--no-nice-names" {
			return "", "Option \"" + args[0] + "\" is unknown, try \"dcb -help\".\n", 255
		}
		args = args[1:]
	}
	if len(args) < 2 {
		return "", "Usage: dcb [ OPTIONS ] OBJECT { COMMAND | help }\nwhere  OBJECT := { app | apptrust | buffer | dcbx | ets | maxrate | pfc | rewr }\n", 255
	}
	obj, verb, rest := args[0], args[1], args[2:]
	if len(rest) < 2 || rest[0] != "dev" {
		return "", "Error: Argument \"dev\" is required.\n", 255
	}
	n := h.lookup(rest[1])
	if n == nil {
		return "", fmt.Sprintf("Cannot find device \"%s\"\n", rest[1]), 1
	}
	rest = rest[2:]
	switch obj {
	case "app":
		return h.dcbApp(n, verb, rest)
	case "pfc":
		return dcbPFC(n, verb, rest)
	case "ets":
		return dcbETS(n, verb, rest)
	case "apptrust":
		return dcbAppTrust(n, verb, rest)
	case "maxrate":
		return dcbMaxrate(n, verb, rest)
	}
	return "", fmt.Sprintf("Object \"%s\" is unknown\n", obj), 255
}

func (h *host) dcbApp(n *nic, verb string, rest []string) (string, string, int) {
	switch verb {
	case "show":
		var b strings.Builder
		if len(n.dscp) > 0 && (len(rest) == 0 || rest[0] == "dscp-prio") {
			b.WriteString("dscp-prio " + n.dscpApp() + "\n")
		}
		if len(n.pcp) > 0 && (len(rest) == 0 || rest[0] == "pcp-prio") {
			b.WriteString("pcp-prio " + mapPairs(n.pcp) + "\n")
		}
		return b.String(), "", 0
	case "flush":
		n.dscp = map[int]int{}
		n.trust = "pcp"
		return "", "", 0
	case "add", "del", "replace":
	default:
		return "", fmt.Sprintf("dcb app: Command \"%s\" is unknown, try \"dcb app help\".\n", verb), 255
	}
	if len(rest) < 2 || (rest[0] != "dscp-prio" && rest[0] != "pcp-prio") {
		sel := "(none)"
		if len(rest) > 0 {
			sel = rest[0]
		}
		return "", "dcb app: selector " + sel + " is not emulated by the lab; use dscp-prio or pcp-prio\n", 1
	}
	table, maxKey := n.dscp, 63
	if rest[0] == "pcp-prio" {
		table, maxKey = n.pcp, 7
	}
	pairs := map[int]int{}
	for _, kv := range rest[1:] {
		k, v, ok := strings.Cut(kv, ":")
		d, e1 := strconv.Atoi(k)
		p, e2 := strconv.Atoi(v)
		if !ok || e1 != nil || e2 != nil || d < 0 || d > maxKey || p < 0 || p > 7 {
			return "", fmt.Sprintf("Invalid %s mapping \"%s\": use KEY:PRIO with KEY 0-%d and PRIO 0-7\n", rest[0], kv, maxKey), 255
		}
		pairs[d] = p
	}
	keys := make([]int, 0, len(pairs))
	for d := range pairs {
		keys = append(keys, d)
	}
	sort.Ints(keys)
	for _, d := range keys {
		p := pairs[d]
		switch verb {
		case "add":
			if cur, ok := table[d]; ok && cur != p {
				return "", "Error: Failed to add: the driver keeps one priority per key; use replace\n", 1
			}
			table[d] = p
		case "replace":
			table[d] = p
		case "del":
			if cur, ok := table[d]; ok && cur == p {
				delete(table, d)
			}
		}
	}
	// mlx5_en without apptrust: the first DSCP app entry switches trust to
	// DSCP, removing the last one switches it back to PCP.
	if rest[0] == "dscp-prio" && n.apptrust == "" {
		if len(n.dscp) > 0 {
			n.trust = "dscp"
		} else {
			n.trust = "pcp"
		}
	}
	return "", "", 0
}

// parseMap parses "all:V K:V ..." words for a 0..7 keyed map.
func parseMap(words []string, parse func(string) (string, bool)) (map[int]string, int, error) {
	out := map[int]string{}
	i := 0
	for ; i < len(words); i++ {
		k, v, ok := strings.Cut(words[i], ":")
		if !ok {
			break
		}
		val, good := parse(v)
		if !good {
			return nil, 0, fmt.Errorf("invalid value %q", words[i])
		}
		if k == "all" {
			for j := 0; j < 8; j++ {
				out[j] = val
			}
			continue
		}
		idx, err := strconv.Atoi(k)
		if err != nil || idx < 0 || idx > 7 {
			return nil, 0, fmt.Errorf("invalid key %q", words[i])
		}
		out[idx] = val
	}
	return out, i, nil
}

func dcbPFC(n *nic, verb string, rest []string) (string, string, int) {
	switch verb {
	case "show":
		var b strings.Builder
		b.WriteString("pfc-cap 8 macsec-bypass off delay 4096\nprio-pfc ")
		for i, on := range n.pfc {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:%s", i, onOff(on))
		}
		b.WriteString("\n")
		return b.String(), "", 0
	case "set":
	default:
		return "", fmt.Sprintf("dcb pfc: Command \"%s\" is unknown, try \"dcb pfc help\".\n", verb), 255
	}
	next := n.pfc
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case "prio-pfc":
			m, used, err := parseMap(rest[i+1:], func(v string) (string, bool) { return v, v == "on" || v == "off" })
			if err != nil || used == 0 {
				return "", "Error: prio-pfc expects PRIO:on|off (all:off 3:on)\n", 255
			}
			for k, v := range m {
				next[k] = v == "on"
			}
			i += used
		case "delay", "macsec-bypass":
			i++
		default:
			return "", fmt.Sprintf("Unknown keyword \"%s\"\n", rest[i]), 255
		}
	}
	n.pfc = next
	return "", "", 0
}

func dcbETS(n *nic, verb string, rest []string) (string, string, int) {
	switch verb {
	case "show":
		var b strings.Builder
		b.WriteString("willing off ets-cap 8 cbs off\ntc-bw")
		for i, v := range n.tcbw {
			fmt.Fprintf(&b, " %d:%d", i, v)
		}
		b.WriteString("\ntc-tsa")
		for i, v := range n.tsa {
			fmt.Fprintf(&b, " %d:%s", i, v)
		}
		b.WriteString("\nprio-tc")
		for i, v := range n.prioTC {
			fmt.Fprintf(&b, " %d:%d", i, v)
		}
		b.WriteString("\n")
		return b.String(), "", 0
	case "set":
	default:
		return "", fmt.Sprintf("dcb ets: Command \"%s\" is unknown, try \"dcb ets help\".\n", verb), 255
	}
	next := *n
	isNum := func(lo, hi int) func(string) (string, bool) {
		return func(v string) (string, bool) {
			x, err := strconv.Atoi(v)
			return v, err == nil && x >= lo && x <= hi
		}
	}
	for i := 0; i < len(rest); i++ {
		var parse func(string) (string, bool)
		switch rest[i] {
		case "prio-tc":
			parse = isNum(0, 7)
		case "tc-bw":
			parse = isNum(0, 100)
		case "tc-tsa":
			parse = func(v string) (string, bool) { return v, v == "strict" || v == "ets" || v == "vendor" || v == "cbs" }
		case "willing":
			i++
			continue
		default:
			return "", fmt.Sprintf("Unknown keyword \"%s\"\n", rest[i]), 255
		}
		m, used, err := parseMap(rest[i+1:], parse)
		if err != nil || used == 0 {
			return "", fmt.Sprintf("Error: %s expects KEY:VALUE pairs\n", rest[i]), 255
		}
		for k, v := range m {
			switch rest[i] {
			case "prio-tc":
				next.prioTC[k], _ = strconv.Atoi(v)
			case "tc-bw":
				next.tcbw[k], _ = strconv.Atoi(v)
			case "tc-tsa":
				next.tsa[k] = v
			}
		}
		i += used
	}
	sum := 0
	for i := range next.tsa {
		if next.tsa[i] == "ets" {
			sum += next.tcbw[i]
		}
	}
	if sum != 0 && sum != 100 {
		return "", fmt.Sprintf("Error: Failed to set ETS: the bandwidth of ets TCs must sum to 100 (got %d)\n", sum), 1
	}
	*n = next
	return "", "", 0
}

// dcbAppTrust handles `dcb apptrust set dev IF order SEL...` and show.
func dcbAppTrust(n *nic, verb string, rest []string) (string, string, int) {
	switch verb {
	case "show":
		order := n.apptrust
		if order == "" {
			order = n.trust
		}
		return "order " + order + "\n", "", 0
	case "set":
		if len(rest) < 2 || rest[0] != "order" {
			return "", "Error: apptrust set expects: order SEL [SEL...]\n", 255
		}
		seen := map[string]bool{}
		for _, sel := range rest[1:] {
			if sel != "dscp" && sel != "pcp" {
				return "", fmt.Sprintf("Error: selector %q is not supported by the driver (use dscp, pcp)\n", sel), 1
			}
			if seen[sel] {
				return "", "Error: duplicate selector " + sel + "\n", 255
			}
			seen[sel] = true
		}
		n.apptrust = strings.Join(rest[1:], " ")
		n.trust = rest[1]
		return "", "", 0
	}
	return "", fmt.Sprintf("dcb apptrust: Command \"%s\" is unknown, try \"dcb apptrust help\".\n", verb), 255
}

// dcbMaxrate handles `dcb maxrate set dev IF tc-maxrate TC:RATE...` and show.
func dcbMaxrate(n *nic, verb string, rest []string) (string, string, int) {
	switch verb {
	case "show":
		return "tc-maxrate " + n.rates() + "\n", "", 0
	case "set":
		if len(rest) < 2 || rest[0] != "tc-maxrate" {
			return "", "Error: maxrate set expects: tc-maxrate TC:RATE...\n", 255
		}
		m, used, err := parseMap(rest[1:], func(v string) (string, bool) {
			num := strings.TrimRight(v, "bitKMGTps")
			_, e := strconv.ParseFloat(num, 64)
			return v, e == nil && num != ""
		})
		if err != nil || used != len(rest)-1 {
			return "", "Error: tc-maxrate expects TC:RATE pairs (3:10Gbit)\n", 255
		}
		for k, v := range m {
			n.rate[k] = v
		}
		return "", "", 0
	}
	return "", fmt.Sprintf("dcb maxrate: Command \"%s\" is unknown, try \"dcb maxrate help\".\n", verb), 255
}
