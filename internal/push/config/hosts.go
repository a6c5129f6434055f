package config

import (
	"fmt"
	"github.com/fabricgen/fabricgen/schema"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// A host NIC has no running-config file: the rendered script's action lines
// each set some NIC state. fabricgen maps every action line to the facts it
// sets ("ens1f0np0 trust = dscp") and to the command that reads them back,
// reads them, and compares facts. The change set is the action lines whose
// facts differ; they are idempotent, so re-running one is safe.

// Fact is one piece of host NIC state.
type Fact struct {
	// Kind is the setting family: mlnx_qos, sysfs, roce_tos, mtu, dcb,
	// pause, tunable, privflag.
	Kind string `json:"kind"`
	// Target is the interface, RDMA device or sysfs path.
	Target string `json:"target"`
	// Key names the setting within the target ("trust", "dscp2prio 26").
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ID is the fact's identity: target and key.
func (f Fact) ID() string { return f.Target + " " + f.Key }

// HostAction is one action line of a host script.
type HostAction struct {
	Line string
	// Read is the command printing the facts' current values; empty for
	// a setup line (mkdir -p) that sets no fact and runs only before a
	// changed line.
	Read  string
	Facts []Fact
}

// HostLookup is a preamble assignment NAME=$(command), run before
// anything else; later lines use "$NAME".
type HostLookup struct {
	Var     string
	Command string
}

var reLookup = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=\$\((.+)\)$`)

// HostLookups returns the script's preamble assignments in order. Only
// a lookup whose command is plain words (quoted as needed, nothing the
// shell would expand, no operator) is returned: push runs these commands
// on the host, and a script line using a variable that is not set is
// refused by ParseHostScript.
func HostLookups(script string) []HostLookup {
	var out []HostLookup
	for _, raw := range strings.Split(strings.ReplaceAll(script, "\r", ""), "\n") {
		if m := reLookup.FindStringSubmatch(strings.TrimSpace(raw)); m != nil {
			toks, err := shellWords(m[2])
			if _, plain := wordsOnly(toks); err != nil || !plain || len(toks) == 0 {
				continue
			}
			out = append(out, HostLookup{Var: m[1], Command: m[2]})
		}
	}
	return out
}

// ResolveHostScript substitutes the lookups' values ("$NAME" and $NAME)
// into the script and drops the assignments. A value that is not a plain
// device name (safeLookupValue: what the host printed could be anything)
// is not substituted, so the line using it is refused when parsed.
func ResolveHostScript(script string, values map[string]string) string {
	keys := make([]string, 0, len(values))
	for k, v := range values {
		if safeLookupValue(v) {
			keys = append(keys, k)
		}
	}
	// Longer names first: $ibdev_eth01 must not be read as $ibdev_eth0 + "1".
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	for _, raw := range strings.Split(strings.ReplaceAll(script, "\r", ""), "\n") {
		line := strings.TrimSpace(raw)
		if reLookup.MatchString(line) {
			continue
		}
		for _, k := range keys {
			v := values[k]
			line = strings.ReplaceAll(line, `"$`+k+`"`, v)
			line = strings.ReplaceAll(line, `"${`+k+`}"`, v)
			line = strings.ReplaceAll(line, "${"+k+"}", v)
			line = strings.ReplaceAll(line, "$"+k, v)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	// reCheck is a read-back guard: [ TEST ] || { echo MSG >&2; exit 1; }.
	// push reads every fact back after applying, so it skips these.
	reCheck = regexp.MustCompile(`^\[ .+ \] \|\| \{ echo .+ >&2; exit 1; \}$`)
	// reProbe is a capability probe of a script's preamble: a read-only
	// test (a driver's file or directory, DCB netlink, an ethtool tunable
	// or private flag), then the message the script stops with.
	reProbe        = regexp.MustCompile(`^(\[ -[de] \S+ \]|dcb pfc show dev \S+ >/dev/null 2>&1|ethtool --get-tunable \S+ \S+ >/dev/null 2>&1|ethtool --show-priv-flags \S+ \| grep -q '\^\S+') \|\| \{ echo (.+) >&2; exit 1; \}$`)
	reProbeFile    = regexp.MustCompile(`^\[ -([de]) (\S+) \]$`)
	reProbeDCB     = regexp.MustCompile(`^dcb pfc show dev (\S+) >/dev/null 2>&1$`)
	reProbeTunable = regexp.MustCompile(`^ethtool --get-tunable (\S+) (\S+) >/dev/null 2>&1$`)
	reProbeFlag    = regexp.MustCompile(`^ethtool --show-priv-flags (\S+) \| grep -q '\^(\S+)'$`)
	// probeWord is what a probe's interface, tunable or flag may be; a
	// probe path is /sys/ and such words joined by "/".
	probeWord = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$`)
)

// HostProbe is one capability check of a script's preamble: Test succeeds
// on a host that has what the script needs; Message says what is missing
// and which driver provides it.
type HostProbe struct {
	Test    string
	Message string
}

// HostProbes returns the script's capability probes, in order, each with
// the command push runs for it. push runs them on the host before reading
// or changing anything, so a host without a capability stops with the
// script's own message. The command is rebuilt from the probe's parts,
// each of which must be a plain word (a path under /sys/ for a file test):
// a probe with anything else is an error, never sent.
func HostProbes(script string) ([]HostProbe, error) {
	var out []HostProbe
	for i, raw := range strings.Split(strings.ReplaceAll(script, "\r", ""), "\n") {
		line := strings.TrimSpace(raw)
		m := reProbe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		test, err := probeCommand(m[1])
		if err != nil {
			return nil, fmt.Errorf("host script line %d %s: %w", i+1, quoteLine(line), err)
		}
		msg := m[2]
		if toks, err := shellWords(m[2]); err == nil && len(toks) == 1 && !toks[0].op {
			msg = toks[0].s
		}
		out = append(out, HostProbe{Test: test, Message: msg})
	}
	return out, nil
}

// probeCommand rebuilds a probe's test from its validated parts.
func probeCommand(test string) (string, error) {
	words := func(ws ...string) error {
		for _, w := range ws {
			if !probeWord.MatchString(w) {
				return fmt.Errorf("a capability probe with %q, which is not a plain name", w)
			}
		}
		return nil
	}
	switch {
	case reProbeFile.MatchString(test):
		m := reProbeFile.FindStringSubmatch(test)
		parts := strings.Split(strings.TrimPrefix(m[2], "/sys/"), "/")
		if !strings.HasPrefix(m[2], "/sys/") {
			return "", fmt.Errorf("a capability probe of %q, which is not under /sys/", m[2])
		}
		for _, p := range parts {
			if err := words(p); err != nil || p == "." || p == ".." {
				return "", fmt.Errorf("a capability probe of %q, which is not a plain /sys/ path", m[2])
			}
		}
		return quoteWords("test", "-"+m[1], m[2]), nil
	case reProbeDCB.MatchString(test):
		dev := reProbeDCB.FindStringSubmatch(test)[1]
		if err := words(dev); err != nil {
			return "", err
		}
		return quoteWords("dcb", "pfc", "show", "dev", dev) + " >/dev/null 2>&1", nil
	case reProbeTunable.MatchString(test):
		m := reProbeTunable.FindStringSubmatch(test)
		if err := words(m[1], m[2]); err != nil {
			return "", err
		}
		return quoteWords("ethtool", "--get-tunable", m[1], m[2]) + " >/dev/null 2>&1", nil
	case reProbeFlag.MatchString(test):
		m := reProbeFlag.FindStringSubmatch(test)
		if err := words(m[1], m[2]); err != nil {
			return "", err
		}
		return quoteWords("ethtool", "--show-priv-flags", m[1]) + " | " + quoteWords("grep", "-q", "^"+m[2]), nil
	}
	return "", fmt.Errorf("a capability probe fabricgen does not know")
}

// ethtoolUnchanged follows "ethtool -A" in rendered scripts: exit status
// 78, the ioctl path's "no pause parameters changed", is not a failure.
const ethtoolUnchanged = " || [ $? -eq 78 ]"

// stripEthtoolUnchanged drops ethtoolUnchanged from an ethtool -A line.
func stripEthtoolUnchanged(line string) string {
	if strings.HasPrefix(line, "ethtool -A ") {
		return strings.TrimSuffix(line, ethtoolUnchanged)
	}
	return line
}

// setupLines are lines that set no fact but prepare for the lines after
// them (rdma_cm configfs); like mkdir -p they run before a changed line.
var setupLines = map[string]bool{
	"modprobe rdma_cm": true,
	"mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config": true,
}

// ParseHostScript returns the script's action lines with their facts. The
// preamble (shebang, comments, set -eu, command -v checks) and read-back
// guards ([ ... ] || { echo ...; exit 1; }) are skipped. A line fabricgen
// cannot read back is an error naming it.
func ParseHostScript(script string) ([]HostAction, error) {
	var out []HostAction
	for i, raw := range strings.Split(strings.ReplaceAll(script, "\r", ""), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "set -") ||
			strings.HasPrefix(line, "command -v ") || reLookup.MatchString(line) || reCheck.MatchString(line) || reProbe.MatchString(line) {
			continue
		}
		if setupLines[line] {
			out = append(out, HostAction{Line: line})
			continue
		}
		a, err := parseAction(line)
		if err != nil {
			return nil, fmt.Errorf("host script line %d %s: %w", i+1, quoteLine(line), err)
		}
		out = append(out, a)
	}
	return out, nil
}

func parseAction(line string) (HostAction, error) {
	a := HostAction{Line: line}
	toks, err := shellWords(stripEthtoolUnchanged(line))
	if err != nil {
		return a, err
	}
	if len(toks) == 0 {
		return a, fmt.Errorf("nothing left after removing quotes")
	}
	if w, ok := parseWrite(a, toks); ok {
		return w, nil
	}
	f, plain := wordsOnly(toks)
	if !plain {
		return a, fmt.Errorf("fabricgen plans only simple commands and echo VALUE > FILE, not shell operators")
	}
	switch {
	case f[0] == "mkdir" && len(f) == 3 && f[1] == "-p":
		return a, nil
	case f[0] == "cma_roce_mode":
		return parseRoCEMode(a, f[1:])
	case f[0] == "ethtool" && len(f) == 5 && f[1] == "--set-tunable":
		a.Read = quoteWords("ethtool", "--get-tunable", f[2], f[3])
		a.Facts = []Fact{{Kind: "tunable", Target: f[2], Key: "tunable " + f[3], Value: f[4]}}
	case f[0] == "ethtool" && len(f) == 5 && f[1] == "--set-priv-flags" && (f[4] == "on" || f[4] == "off"):
		a.Read = quoteWords("ethtool", "--show-priv-flags", f[2])
		a.Facts = []Fact{{Kind: "privflag", Target: f[2], Key: "priv-flag " + f[3], Value: f[4]}}
	case f[0] == "mlnx_qos":
		return parseMlnxQos(line, f[1:])
	case isIPMTU(f):
		dev, mtu := f[len(f)-3], f[len(f)-1]
		a.Read = quoteWords("ip", "link", "show", "dev", dev)
		a.Facts = []Fact{{Kind: "mtu", Target: dev, Key: "mtu", Value: mtu}}
	case f[0] == "cma_roce_tos":
		return parseRoCETos(a, f[1:])
	case isEthtoolPause(f):
		a.Read = quoteWords("ethtool", "-a", f[2])
		for i := 3; i+1 < len(f); i += 2 {
			a.Facts = append(a.Facts, Fact{Kind: "pause", Target: f[2], Key: "pause " + f[i], Value: f[i+1]})
		}
	case isDCBSet(f):
		return parseDCB(a, f)
	default:
		return a, fmt.Errorf("fabricgen cannot read this setting back, so it cannot plan it " +
			"(supported: mlnx_qos, echo V > /sys/..., cma_roce_tos, ip link set dev IF mtu N, dcb pfc|ets|app, ethtool -A|--set-tunable|--set-priv-flags)")
	}
	return a, nil
}

// parseWrite reads echo V > PATH, or echo V | tee PATH: a sysfs or
// configfs write (ok false: the line is not one).
func parseWrite(a HostAction, toks []shellToken) (HostAction, bool) {
	n := len(toks)
	if toks[0].s != "echo" || toks[0].op || (n != 4 && n != 5) {
		return a, false
	}
	redirect := n == 4 && toks[2].op && toks[2].s == ">"
	tee := n == 5 && toks[2].op && toks[2].s == "|" && !toks[3].op && toks[3].s == "tee"
	path := toks[n-1]
	if (!redirect && !tee) || toks[1].op || path.op || !strings.HasPrefix(path.s, "/") || toks[1].s == "" {
		return a, false
	}
	a.Read = quoteWords("cat", path.s)
	a.Facts = []Fact{{Kind: "sysfs", Target: path.s, Key: "value", Value: toks[1].s}}
	return a, true
}

// parseRoCETos reads cma_roce_tos -d DEV [-p PORT] -t TOS.
func parseRoCETos(a HostAction, args []string) (HostAction, error) {
	dev, port, tos := "", "1", ""
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "-d":
			dev = args[i+1]
		case "-p":
			port = args[i+1]
		case "-t":
			tos = args[i+1]
		}
	}
	if dev == "" || tos == "" {
		return a, fmt.Errorf("cma_roce_tos needs -d DEV and -t TOS")
	}
	a.Read = quoteWords("cma_roce_tos", "-d", dev, "-p", port)
	a.Facts = []Fact{{Kind: "roce_tos", Target: dev, Key: "port " + port + " roce_tos", Value: tos}}
	return a, nil
}

// parseDCB reads dcb (pfc|ets|app|apptrust|maxrate) (set|add|replace) dev IF SETTINGS...
func parseDCB(a HostAction, f []string) (HostAction, error) {
	kind, dev, rest := f[1], f[4], strings.Join(f[5:], " ")
	a.Read = quoteWords("dcb", kind, "show", "dev", dev)
	if kind == "app" {
		// Without -N, dcb app shows DSCP code points by rt_dsfield
		// name (26 as AF31); with -N, PCP keys as numbers 0-15
		// instead of 0nd..7de. So each selector is read its own way.
		dscp, pcp := slices.Contains(f[5:], "dscp-prio"), slices.Contains(f[5:], "pcp-prio")
		switch {
		case dscp && pcp:
			return a, fmt.Errorf("put dscp-prio and pcp-prio on separate dcb app lines")
		case dscp:
			a.Read = quoteWords("dcb", "-N", "app", "show", "dev", dev, "dscp-prio")
		case pcp:
			a.Read = quoteWords("dcb", "app", "show", "dev", dev, "pcp-prio")
		}
	}
	a.Facts = dcbFacts(kind, dev, rest)
	if len(a.Facts) == 0 {
		return a, fmt.Errorf("no settings found after dev %s", quoteWord(dev))
	}
	return a, nil
}

// isIPMTU matches ip link set [dev] IF mtu N.
func isIPMTU(f []string) bool {
	if len(f) < 6 || f[0] != "ip" || f[1] != "link" || f[2] != "set" {
		return false
	}
	rest := f[3:]
	if rest[0] == "dev" {
		rest = rest[1:]
	}
	return len(rest) == 3 && rest[1] == "mtu" && rest[2] != "" && digits(rest[2])
}

// isEthtoolPause matches ethtool -A IF followed by (rx|tx|autoneg) (on|off) pairs.
func isEthtoolPause(f []string) bool {
	if len(f) < 5 || f[0] != "ethtool" || f[1] != "-A" || len(f)%2 == 0 {
		return false
	}
	for i := 3; i+1 < len(f); i += 2 {
		if (f[i] != "rx" && f[i] != "tx" && f[i] != "autoneg") || (f[i+1] != "on" && f[i+1] != "off") {
			return false
		}
	}
	return true
}

// isDCBSet matches dcb (pfc|ets|app|apptrust|maxrate) (set|add|replace) dev IF SETTINGS...
func isDCBSet(f []string) bool {
	if len(f) < 6 || f[0] != "dcb" || f[3] != "dev" {
		return false
	}
	switch f[1] {
	case "pfc", "ets", "app", "apptrust", "maxrate":
	default:
		return false
	}
	switch f[2] {
	case "set", "add", "replace":
		return true
	}
	return false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// HostReadCommands lists the distinct read-back commands of a host
// script, in script order.
func HostReadCommands(script string, _ *dialect.Dialect) ([]string, error) {
	actions, err := ParseHostScript(script)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{"": true}
	var out []string
	for _, a := range actions {
		if !seen[a.Read] {
			seen[a.Read] = true
			out = append(out, a.Read)
		}
	}
	return out, nil
}

// HostState joins read commands and their outputs into the text fetched
// for a host: "$ command" lines, each followed by its output.
func HostState(cmds, outputs []string) string {
	var b strings.Builder
	for i, c := range cmds {
		b.WriteString("$ ")
		b.WriteString(c)
		b.WriteByte('\n')
		for _, l := range strings.Split(strings.ReplaceAll(outputs[i], "\r", ""), "\n") {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "$ ") {
				continue
			}
			b.WriteString(strings.TrimRight(l, " \t"))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// splitState parses HostState text back into command → output.
func splitState(state string) map[string]string {
	out := map[string]string{}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur != "" {
			out[cur] = b.String()
		}
		b.Reset()
	}
	for _, l := range strings.Split(state, "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			flush()
			cur = c
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	flush()
	return out
}

// HostFacts reads the current value of every fact the actions set from the
// fetched state; a fact the output does not show is "<unset>".
func HostFacts(actions []HostAction, state string) map[string]string {
	outs := splitState(state)
	parsed := map[string]map[string]string{}
	cur := map[string]string{}
	for _, a := range actions {
		if a.Read == "" {
			continue
		}
		p, ok := parsed[a.Read]
		if !ok {
			p = parseRead(a, outs[a.Read])
			parsed[a.Read] = p
		}
		for _, f := range a.Facts {
			v, ok := p[f.ID()]
			if !ok {
				v = "<unset>"
			}
			cur[f.ID()] = v
		}
	}
	return cur
}

// lookupValues reads the preamble lookups' values from fetched state.
func lookupValues(script, state string) map[string]string {
	outs := splitState(state)
	values := map[string]string{}
	for _, l := range HostLookups(script) {
		values[l.Var] = strings.TrimSpace(outs[l.Command])
	}
	return values
}

// CompareHost compares a host's fetched facts with its script.
func CompareHost(device, state, script string, d *dialect.Dialect) (*Comparison, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, state)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", device, err)
	}
	cur := HostFacts(actions, state)
	want := map[string]string{}
	for _, a := range actions {
		for _, f := range a.Facts {
			want[f.ID()] = f.Value
		}
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return schema.NaturalLess(ids[i], ids[j]) })
	var run, des strings.Builder
	var replaced []string
	for _, id := range ids {
		fmt.Fprintf(&run, "%s = %s\n", id, cur[id])
		fmt.Fprintf(&des, "%s = %s\n", id, want[id])
		if cur[id] != want[id] && cur[id] != "<unset>" {
			replaced = append(replaced, fmt.Sprintf("%s = %s", id, cur[id]))
		}
	}
	changed := make([]bool, len(actions))
	for i, a := range actions {
		for _, f := range a.Facts {
			if cur[f.ID()] != f.Value {
				changed[i] = true
				break
			}
		}
	}
	// A setup line (no facts) runs when any later line changes.
	later := false
	for i := len(actions) - 1; i >= 0; i-- {
		if len(actions[i].Facts) == 0 {
			changed[i] = later
		}
		later = later || changed[i]
	}
	var lines []string
	for i, a := range actions {
		if changed[i] {
			lines = append(lines, a.Line)
		}
	}
	cs := &ChangeSet{}
	if len(lines) > 0 {
		cs.Blocks = []Block{{Lines: lines}}
	}
	c := &Comparison{
		RunningSHA256: Digest(state, d),
		Running:       run.String(),
		Desired:       des.String(),
		Changes:       cs,
		Replaced:      replaced,
	}
	c.Diff = Unified(device+" (running)", device+" (fabricgen)", c.Running, c.Desired)
	return c, nil
}

func parseRoCEMode(a HostAction, args []string) (HostAction, error) {
	dev, port, mode := "", "1", ""
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "-d":
			dev = args[i+1]
		case "-p":
			port = args[i+1]
		case "-m":
			mode = args[i+1]
		}
	}
	if dev == "" || mode == "" {
		return a, fmt.Errorf("cma_roce_mode needs -d DEV and -m MODE")
	}
	a.Read = quoteWords("cma_roce_mode", "-d", dev, "-p", port)
	a.Facts = []Fact{{Kind: "roce_mode", Target: dev, Key: "port " + port + " roce_mode", Value: normRoCEMode(mode)}}
	return a, nil
}

// normRoCEMode maps "2", "v2", "RoCE v2" to "2" (and the same for 1).
func normRoCEMode(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasSuffix(s, "v2") || s == "2":
		return "2"
	case strings.HasSuffix(s, "v1") || s == "1":
		return "1"
	}
	return s
}
