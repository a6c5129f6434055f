package hostemu

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
// Everything is validated before anything changes, as mlnx_qos does.
func (h *host) mlnxQoS(args []string) (string, string, int) {
	opts, dscpOps, f := mlnxArgs(args)
	if f != nil {
		return "", f.msg, f.status
	}
	ifname := opts["interface"]
	if ifname == "" {
		return "", mlnxQoSUsage + "mlnx_qos: error: the following arguments are required: -i/--interface\n", 2
	}
	n := h.lookup(ifname)
	if n == nil {
		return "", fmt.Sprintf("Interface %s doesn't exist\n", ifname), 1
	}
	next := *n
	next.dscp = map[int]int{}
	for k, v := range n.dscp {
		next.dscp[k] = v
	}
	for _, set := range []func(*nic, map[string]string) *mlnxFail{
		mlnxTrust, mlnxPFC, mlnxPrioTC, mlnxTSA, mlnxTCBW, mlnxETSCheck, mlnxRateLimit, mlnxCableLen,
	} {
		if f := set(&next, opts); f != nil {
			return "", f.msg, f.status
		}
	}
	for _, op := range dscpOps {
		if f := mlnxDSCP(&next, op); f != nil {
			return "", f.msg, f.status
		}
	}
	*n = next
	return n.mlnxShow(), "", 0
}

// mlnxFail is an mlnx_qos refusal: its standard error and exit status.
type mlnxFail struct {
	msg    string
	status int
}

// mlnxInvalid is a refusal of a value (exit status 1).
func mlnxInvalid(msg string) *mlnxFail { return &mlnxFail{msg: msg + "\n", status: 1} }

// mlnxUsage is an argparse refusal (exit status 2).
func mlnxUsage(msg string) *mlnxFail {
	return &mlnxFail{msg: mlnxQoSUsage + "mlnx_qos: error: " + msg + "\n", status: 2}
}

// mlnxArgs parses mlnx_qos's arguments into options by long name and the
// --dscp2prio operations in order.
func mlnxArgs(args []string) (map[string]string, []string, *mlnxFail) {
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
			return nil, nil, mlnxUsage("unrecognized arguments: " + a)
		}
		switch key {
		case "interface", "trust", "pfc", "dscp2prio", "prio_tc", "tsa", "tcbw", "cable_len", "ratelimit":
		case "all":
			continue
		default:
			return nil, nil, mlnxUsage("unrecognized arguments: " + a)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, nil, mlnxUsage("argument --" + key + ": expected one argument")
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
	return opts, dscpOps, nil
}

// mlnxTrust applies --trust.
func mlnxTrust(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["trust"]
	if !ok {
		return nil
	}
	if v != "pcp" && v != "dscp" {
		return mlnxUsage("argument --trust: invalid choice: '" + v + "' (choose from 'pcp', 'dscp')")
	}
	next.trust = v
	return nil
}

// mlnxPFC applies -f/--pfc.
func mlnxPFC(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["pfc"]
	if !ok {
		return nil
	}
	vals, err := list8(v, 0, 1)
	if err != nil {
		return mlnxInvalid("Invalid pfc configuration: " + err.Error())
	}
	for i, x := range vals {
		next.pfc[i] = x == 1
	}
	return nil
}

// mlnxPrioTC applies -p/--prio_tc.
func mlnxPrioTC(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["prio_tc"]
	if !ok {
		return nil
	}
	vals, err := list8(v, 0, 7)
	if err != nil {
		return mlnxInvalid("Invalid priority to tc mapping: " + err.Error())
	}
	copy(next.prioTC[:], vals)
	return nil
}

// mlnxTSA applies -s/--tsa.
func mlnxTSA(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["tsa"]
	if !ok {
		return nil
	}
	parts := strings.Split(v, ",")
	if len(parts) != 8 {
		return mlnxInvalid("Invalid tsa: expected 8 comma-separated values (strict, ets or vendor)")
	}
	for i, p := range parts {
		if p != "strict" && p != "ets" && p != "vendor" {
			return mlnxInvalid("Invalid tsa: " + p + " (use strict, ets or vendor)")
		}
		next.tsa[i] = p
	}
	return nil
}

// mlnxTCBW applies -t/--tcbw.
func mlnxTCBW(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["tcbw"]
	if !ok {
		return nil
	}
	vals, err := list8(v, 0, 100)
	if err != nil {
		return mlnxInvalid("Invalid tcbw: " + err.Error())
	}
	copy(next.tcbw[:], vals)
	return nil
}

// mlnxETSCheck refuses, when --tsa or --tcbw is given, bandwidth on a
// non-ETS TC and ETS bandwidths that do not sum to 100.
func mlnxETSCheck(next *nic, opts map[string]string) *mlnxFail {
	if _, tsaSet := opts["tsa"]; !tsaSet && opts["tcbw"] == "" {
		return nil
	}
	sum, ets := 0, false
	for i := range next.tsa {
		if next.tsa[i] == "ets" {
			sum += next.tcbw[i]
			ets = true
		} else if next.tcbw[i] != 0 {
			return mlnxInvalid(fmt.Sprintf("Bad ETS configuration: tc %d has bandwidth %d but tsa %s (only ets TCs take bandwidth)", i, next.tcbw[i], next.tsa[i]))
		}
	}
	if ets && sum != 100 {
		return mlnxInvalid(fmt.Sprintf("Bad ETS configuration: the bandwidth of ets TCs must sum to 100 (got %d)", sum))
	}
	return nil
}

// mlnxRateLimit applies -r/--ratelimit (Gb/s per TC, 0 = unlimited).
func mlnxRateLimit(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["ratelimit"]
	if !ok {
		return nil
	}
	parts := strings.Split(v, ",")
	if len(parts) != 8 {
		return mlnxInvalid("Invalid ratelimit: expected 8 comma-separated Gb/s values (0 = unlimited)")
	}
	for i, p := range parts {
		g, err := strconv.Atoi(p)
		if err != nil || g < 0 {
			return mlnxInvalid("Invalid ratelimit value " + p)
		}
		next.rate[i] = ""
		if g > 0 {
			next.rate[i] = fmt.Sprintf("%dGbps", g)
		}
	}
	return nil
}

// mlnxCableLen applies --cable_len.
func mlnxCableLen(next *nic, opts map[string]string) *mlnxFail {
	v, ok := opts["cable_len"]
	if !ok {
		return nil
	}
	c, err := strconv.Atoi(v)
	if err != nil || c < 0 {
		return mlnxInvalid("Invalid cable_len " + v)
	}
	next.cable = c
	return nil
}

// mlnxDSCP applies one --dscp2prio operation: set,DSCP,PRIO, del,DSCP,PRIO
// or flush.
func mlnxDSCP(next *nic, op string) *mlnxFail {
	parts := strings.Split(op, ",")
	switch {
	case len(parts) == 1 && parts[0] == "flush":
		next.dscp = map[int]int{}
		next.trust = "pcp"
		return nil
	case len(parts) == 3 && (parts[0] == "set" || parts[0] == "del"):
	default:
		return mlnxInvalid("Invalid dscp2prio " + op + ": use set,DSCP,PRIO, del,DSCP,PRIO or flush")
	}
	d, e1 := strconv.Atoi(parts[1])
	p, e2 := strconv.Atoi(parts[2])
	if e1 != nil || e2 != nil || d < 0 || d > 63 || p < 0 || p > 7 {
		return mlnxInvalid("Invalid dscp2prio " + op + ": use set,DSCP,PRIO or del,DSCP,PRIO with DSCP 0-63 and PRIO 0-7")
	}
	if parts[0] == "set" {
		next.dscp[d] = p
		next.trust = "dscp"
		return nil
	}
	if cur, ok := next.dscp[d]; !ok || cur != p {
		return mlnxInvalid(fmt.Sprintf("dscp2prio entry %d,%d does not exist", d, p))
	}
	delete(next.dscp, d)
	if len(next.dscp) == 0 {
		next.trust = "pcp"
	}
	return nil
}

// list8 parses eight comma-separated integers in lo..hi.
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

// dcb implements iproute2 dcb(8) app, pfc, ets, apptrust and maxrate for
// one device. -N (--Numeric) prints DSCP code points as numbers.
func (h *host) dcb(args []string) (string, string, int) {
	numeric := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-N", "--Numeric":
			numeric = true
		case "-n", "--netns":
			return "", "dcb: network namespaces are not emulated by the lab\n", 1
		default:
			return "", "dcb: invalid option -- '" + strings.TrimLeft(args[0], "-") + "'\nUnknown option.\n", 1
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
	if n.fwLLDP && verb != "show" && verb != "help" {
		// ice in firmware DCBX mode: the firmware owns DCB, the kernel
		// refuses host changes until fw-lldp-agent is off.
		return "", "Error: Operation not permitted\n", 1
	}
	switch obj {
	case "app":
		return dcbApp(n, verb, rest, numeric)
	case "pfc":
		return dcbPFC(n, verb, rest)
	case "ets":
		return dcbETS(n, verb, rest)
	case "apptrust":
		return dcbAppTrust(verb)
	case "maxrate":
		return dcbMaxrate(n, verb, rest)
	}
	return "", fmt.Sprintf("Object \"%s\" is unknown\n", obj), 255
}

// dcbAppUsage is dcb_app_help_add().
const dcbAppUsage = "Usage: dcb app { add | del | replace } dev STRING\n" +
	"           [ default-prio PRIO ]\n           [ ethtype-prio ET:PRIO ]\n           [ stream-port-prio PORT:PRIO ]\n" +
	"           [ dgram-port-prio PORT:PRIO ]\n           [ port-prio PORT:PRIO ]\n           [ dscp-prio INTEGER:PRIO ]\n" +
	"           [ pcp-prio PCP:PRIO ]\n\n where PRIO := { 0 .. 7 }\n       ET := { 0x600 .. 0xffff }\n" +
	"       PORT := { 1 .. 65535 }\n       DSCP := { 0 .. 63 }\n       PCP := { 0(nd/de) .. 7(nd/de) }\n\n"

// dscpNames are the rt_dsfield names dcb app shows DSCP code points by
// (without -N) and accepts as keys.
var dscpNames = map[int]string{
	8: "CS1", 16: "CS2", 24: "CS3", 32: "CS4", 40: "CS5", 48: "CS6", 56: "CS7",
	10: "AF11", 12: "AF12", 14: "AF13", 18: "AF21", 20: "AF22", 22: "AF23",
	26: "AF31", 28: "AF32", 30: "AF33", 34: "AF41", 36: "AF42", 38: "AF43", 46: "EF",
}

// pcpNames are dcb-app(8)'s PCP/DEI keys: 0nd..7nd are 0..7, 0de..7de 8..15.
var pcpNames = []string{"0nd", "1nd", "2nd", "3nd", "4nd", "5nd", "6nd", "7nd", "0de", "1de", "2de", "3de", "4de", "5de", "6de", "7de"}

// dcbAppKeys parses a mapping key of dcb app: DSCP 0-63, "all" or an
// rt_dsfield name; PCP only as 0nd..7de.
func dcbAppKeys(sel, k string) ([]int, bool) {
	if sel == "pcp-prio" {
		for i, name := range pcpNames {
			if k == name {
				return []int{i}, true
			}
		}
		return nil, false
	}
	if k == "all" {
		all := make([]int, 64)
		for i := range all {
			all[i] = i
		}
		return all, true
	}
	if d, err := strconv.Atoi(k); err == nil && d >= 0 {
		return []int{d}, true
	}
	for d, name := range dscpNames {
		if strings.EqualFold(k, name) {
			return []int{d}, true
		}
	}
	return nil, false
}

// dcbApp is dcb-app(8) on mlx5_en: the driver takes DSCP entries only
// (mlx5e_dcbnl_ieee_setapp rejects other selectors with EINVAL), keeps one
// priority per code point (adding a new one drops the old entry itself),
// and the first DSCP entry switches trust to DSCP, removing the last one
// back to PCP. As in dcb/dcb_app.c, "replace" exits 0 even when it fails.
func dcbApp(n *nic, verb string, rest []string, numeric bool) (string, string, int) {
	switch verb {
	case "show":
		return dcbAppShow(n, rest, numeric)
	case "flush":
		n.dscp = map[int]int{}
		n.trust = "pcp"
		return "", "", 0
	case "add", "del", "replace":
	default:
		return "", fmt.Sprintf("What is \"%s\"?\n", verb), 1
	}
	if len(rest) == 0 {
		return "", dcbAppUsage, 0
	}
	entries, msg, status := dcbAppEntries(rest)
	if msg != "" {
		if status == 1 && verb == "replace" {
			// dcb app replace reports a bad mapping and still exits 0.
			status = 0
		}
		return "", msg, status
	}
	return dcbAppApply(n, verb, entries)
}

// dcbAppShow prints `dcb app show dev DEV [SELECTOR...]`.
func dcbAppShow(n *nic, rest []string, numeric bool) (string, string, int) {
	for _, sel := range rest {
		if sel != "dscp-prio" && sel != "pcp-prio" && sel != "default-prio" && sel != "ethtype-prio" &&
			sel != "stream-port-prio" && sel != "dgram-port-prio" && sel != "port-prio" {
			return "", fmt.Sprintf("What is \"%s\"?\n", sel), 1
		}
	}
	if len(n.dscp) == 0 || (len(rest) > 0 && !containsWord(rest, "dscp-prio")) {
		return "", "", 0
	}
	keys := make([]int, 0, len(n.dscp))
	for d := range n.dscp {
		keys = append(keys, d)
	}
	sort.Ints(keys)
	var b strings.Builder
	b.WriteString("dscp-prio ")
	for _, d := range keys {
		k := strconv.Itoa(d)
		if name, ok := dscpNames[d]; ok && !numeric {
			k = name
		}
		fmt.Fprintf(&b, "%s:%d ", k, n.dscp[d])
	}
	b.WriteString("\n")
	return b.String(), "", 0
}

// dcbAppEntry is one KEY:PRIO mapping of a dcb app command.
type dcbAppEntry struct {
	pcp       bool
	key, prio int
}

// dcbAppEntries parses `dscp-prio K:P... pcp-prio K:P...`; on a bad
// mapping it returns dcb's message and exit status.
func dcbAppEntries(rest []string) ([]dcbAppEntry, string, int) {
	var entries []dcbAppEntry
	for i := 0; i < len(rest); {
		sel := rest[i]
		if sel != "dscp-prio" && sel != "pcp-prio" {
			return nil, fmt.Sprintf("What is \"%s\"?\n", sel) + dcbAppUsage, 1
		}
		i++
		if i >= len(rest) {
			return nil, "Command line is not complete. Try option \"help\"\n", 255
		}
		start := i
		for ; i < len(rest) && strings.Contains(rest[i], ":"); i++ {
			e, msg := dcbAppMapping(sel, rest[i])
			if msg != "" {
				return nil, msg, 1
			}
			entries = append(entries, e...)
		}
		if i == start {
			return nil, fmt.Sprintf("What is \"%s\"?\n", rest[i]) + dcbAppUsage, 1
		}
	}
	return entries, "", 0
}

// dcbAppMapping parses one KEY:PRIO word of selector sel.
func dcbAppMapping(sel, word string) ([]dcbAppEntry, string) {
	k, v, _ := strings.Cut(word, ":")
	keys, ok := dcbAppKeys(sel, k)
	if !ok {
		return nil, "Invalid mapping " + k + "\n"
	}
	p, err := strconv.Atoi(v)
	what := "DSCP"
	if sel == "pcp-prio" {
		what = "PCP"
	}
	if err != nil || p < 0 || p > 7 {
		return nil, fmt.Sprintf("In %s:PRIO mapping, PRIO is expected to be 0..7\nInvalid mapping %s\n", what, k)
	}
	var out []dcbAppEntry
	for _, key := range keys {
		if sel == "dscp-prio" && key > 63 {
			return nil, fmt.Sprintf("In DSCP:PRIO mapping, DSCP is expected to be 0..63\nInvalid mapping %s\n", k)
		}
		out = append(out, dcbAppEntry{pcp: sel == "pcp-prio", key: key, prio: p})
	}
	return out, ""
}

// dcbAppApply applies parsed entries as the kernel does: in order,
// stopping at the first the driver refuses.
func dcbAppApply(n *nic, verb string, entries []dcbAppEntry) (string, string, int) {
	const (
		einval = "Error when attempting to set attribute: Unknown error 234\n" // -EINVAL as the u8 dcbnl reply
		enoent = "Error when attempting to set attribute: Unknown error 254\n" // -ENOENT
	)
	if verb == "del" {
		for _, e := range entries {
			if e.pcp {
				return "", einval, 1
			}
			if cur, ok := n.dscp[e.key]; !ok || cur != e.prio {
				return "", enoent, 1
			}
			delete(n.dscp, e.key)
			if len(n.dscp) == 0 {
				n.trust = "pcp"
			}
		}
		return "", "", 0
	}
	replaced := false
	for _, e := range entries {
		if e.pcp {
			if verb == "replace" {
				return "", einval + "Could not add new APP entries\n", 0
			}
			return "", einval, 1
		}
		if old, ok := n.dscp[e.key]; ok && old != e.prio {
			replaced = true
		}
		n.dscp[e.key] = e.prio
		n.trust = "dscp"
	}
	if verb == "replace" && replaced {
		// dcb then deletes the old entries, which mlx5 already
		// dropped: ENOENT, reported, and the exit status is still 0.
		return "", enoent + "Could not remove replaced APP entries\n", 0
	}
	return "", "", 0
}

// containsWord reports whether w is one of words.
func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
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

// dcbAppTrust is `dcb apptrust` on mlx5_en, which has no dcbnl_setapptrust
// or getapptrust: set fails with EOPNOTSUPP (kernel dcbnl_ieee_set reports
// it as a u8, so dcb prints "Unknown error 161"), and show finds no
// attribute.
func dcbAppTrust(verb string) (string, string, int) {
	switch verb {
	case "show":
		return "", "Attribute not found: Success\n", 1
	case "set":
		return "", "Error when attempting to set attribute: Unknown error 161\n", 1
	}
	return "", fmt.Sprintf("What is \"%s\"?\n", verb), 1
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
