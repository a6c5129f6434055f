package hostimport

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// command is one simple command of a script: its words, its output
// redirection, and where it is.
type command struct {
	words []word
	// out is the file of a > or >> redirection (nil: none).
	out *word
	// pipedFrom is the command whose output this one reads (a | b).
	pipedFrom *command
	// src is the script the command is in (the file, or an sh -c string),
	// str the same as a string; start and end are its offsets there.
	src   []byte
	str   string
	line  int
	start int
	end   int
	// depth counts the sh -c scripts the command is nested in.
	depth int
	// outs counts the output redirections (the last one gets the output).
	outs int
	// dropped counts the words past maxWords, which are not kept.
	dropped int
}

// maxWords bounds the words kept of one command (a host command has tens;
// a command continued over a huge file must not hold them all).
const maxWords = 1 << 16

// text is the command as written, on one line.
func (r *reader) text(c *command) string {
	if c.start >= c.end || c.end > len(c.src) {
		return ""
	}
	src := c.src[c.start:c.end]
	if oneLine(src) {
		if len(c.str) == len(c.src) {
			return c.str[c.start:c.end]
		}
		return string(src)
	}
	s := strings.ReplaceAll(string(src), "\\\n", " ")
	return strings.Join(strings.Fields(s), " ")
}

// oneLine reports whether a command's text is already on one line, its
// words one space apart: what text would make of it.
func oneLine(b []byte) bool {
	if len(b) == 0 || b[0] == ' ' || b[len(b)-1] == ' ' {
		return false
	}
	for i, c := range b {
		switch {
		case c == ' ' && b[i-1] == ' ':
			return false
		case c < 0x20 || c == 0x7f:
			return false // tabs, newlines and what strings.Fields may split on
		case c >= 0x80:
			return false // unicode spaces: leave them to strings.Fields
		}
	}
	return true
}

// splitComma is strings.Split(v, ",") into buf, for at most cap(buf)
// parts: the last part keeps the rest, commas and all.
func splitComma(v string, buf []string) []string {
	for len(buf) < cap(buf)-1 {
		i := strings.IndexByte(v, ',')
		if i < 0 {
			break
		}
		buf = append(buf, v[:i])
		v = v[i+1:]
	}
	return append(buf, v)
}

// maxNested bounds sh -c scripts within sh -c scripts.
const maxNested = 4

// readScript reads a setup script, command by command.
func (r *reader) readScript(ctx context.Context) error {
	return r.script(ctx, r.src, 0, 0)
}

// scriptState is the command being assembled from a script's tokens.
type scriptState struct {
	r        *reader
	src      []byte
	str      string
	base     int
	depth    int
	cur      *command
	prev     *command
	pipe     bool
	redirect string
	// inTest is true inside [[ ... ]], whose && || < > are not the shell's.
	inTest bool
}

func (st *scriptState) flush(op string) {
	if len(st.cur.words) > 0 || st.cur.out != nil {
		if st.pipe {
			st.cur.pipedFrom = st.prev
		}
		st.r.command(st.cur)
		// The command just read is the next one's pipe source; the one
		// before it is read and done with, so it holds the next command
		// (commands are read as they end; nothing keeps one after).
		st.cur, st.prev = st.prev, st.cur
	}
	st.pipe = op == "|"
	if st.cur == nil {
		st.cur = &command{words: make([]word, 0, 8)}
	}
	*st.cur = command{src: st.src, str: st.str, depth: st.depth, words: st.cur.words[:0]}
}

func (st *scriptState) op(t token) {
	if st.inTest {
		return
	}
	switch t.op {
	case ">", ">>", ">|", "&>", "<", "<<", "<&", ">&":
		cur := st.cur
		// An fd number written against the operator (2>) is not a word.
		if k := len(cur.words); k > 0 && cur.words[k-1].end == t.start && digitsOnly(cur.words[k-1].text) {
			cur.words = cur.words[:k-1]
		}
		st.redirect = t.op
		if len(cur.words) == 0 && cur.end == 0 {
			cur.start, cur.line = t.start, st.base+t.line
		}
		cur.end = t.end
	default:
		st.flush(t.op)
		st.redirect = ""
	}
}

func (st *scriptState) word(t token) {
	cur := st.cur
	if len(cur.words) == 0 && cur.out == nil && st.redirect == "" && cur.end == 0 {
		cur.start, cur.line = t.start, st.base+t.line
	}
	cur.end = t.end
	if st.redirect != "" {
		if st.redirect == ">" || st.redirect == ">>" || st.redirect == ">|" || st.redirect == "&>" {
			w := t.w
			if cur.out == nil || !strings.HasPrefix(cur.out.text, "/sys/") {
				cur.out = &w
			}
			cur.outs++
		}
		st.redirect = ""
		return
	}
	switch {
	case t.w.text == "[[" && !t.w.expand:
		st.inTest = true
	case t.w.text == "]]" && !t.w.expand:
		st.inTest = false
	}
	if len(cur.words) >= maxWords {
		cur.dropped++
		return
	}
	cur.words = append(cur.words, t.w)
}

// script reads src (the file, or an sh -c string at line base+1 of the
// file) command by command.
func (r *reader) script(ctx context.Context, src []byte, base, depth int) error {
	lx := newLexer(r.name, src)
	st := &scriptState{r: r, src: src, str: lx.str, base: base, depth: depth, cur: &command{src: src, str: lx.str, depth: depth}}
	for n := 1; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		t, err := lx.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case tEOF:
			st.flush("")
			if lx.unended > 0 {
				r.unmapped(base+lx.unended, "<<"+lx.unendedDelim, "a here-document whose end line ("+lx.unendedDelim+") never comes: bash reads the rest of the file as its data, and so does import")
			}
			return r.err
		case tComment:
			if depth == 0 {
				r.comment(t.line, t.op)
			}
		case tNewline:
			st.flush("\n")
			st.redirect, st.inTest = "", false
		case tOp:
			st.op(t)
		case tWord:
			st.word(t)
		}
	}
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// comment reads fabricgen's own header lines; other comments are ignored.
func (r *reader) comment(line int, c string) {
	body := strings.TrimSpace(strings.TrimPrefix(c, "#"))
	switch {
	case strings.HasPrefix(body, "fabricgen: fabric "):
		// "fabricgen: fabric F, device NAME (PLATFORM)"
		if i := strings.LastIndex(body, ", device "); i >= 0 {
			rest := body[i+len(", device "):]
			if j := strings.LastIndex(rest, " ("); j >= 0 {
				r.dev.Name = rest[:j]
				r.dev.Fabric = strings.TrimPrefix(body[:i], "fabricgen: fabric ")
				r.fabricgen = true
			}
		}
	case strings.HasPrefix(body, "fabricgen lab: NIC state of "):
		// The lab's saved host state: "fabricgen lab: NIC state of NAME (PLATFORM); ..."
		rest := strings.TrimPrefix(body, "fabricgen lab: NIC state of ")
		if j := strings.Index(rest, " ("); j >= 0 {
			r.dev.Name = rest[:j]
		}
	case !r.fabricgen:
	case strings.HasPrefix(body, "NIC driver "):
		// "NIC driver ice (driver)": the intent set it; "(fabricgen's
		// default; ...)": the intent named none, so neither does import.
		rest := strings.TrimPrefix(body, "NIC driver ")
		if drv, how, ok := strings.Cut(rest, " ("); ok && how == "driver)" {
			r.driver = drv
		}
	case strings.HasPrefix(body, "release "):
		rest := strings.TrimPrefix(body, "release ")
		if rel, how, ok := strings.Cut(rest, " ("); ok && strings.HasPrefix(how, "os_version)") {
			r.dev.OSVersion = rel
		}
	case strings.HasPrefix(body, "not applied on a host NIC: "):
		r.note(line, c, strings.TrimPrefix(body, "not applied on a host NIC: "))
	}
}

// note reads one of fabricgen's "not applied on a host NIC" header notes:
// intent values the script does not apply but names, with their values
// ("pfc_watchdog NAME (detection 200ms, ...): why").
func (r *reader) note(line int, text, n string) {
	f := strings.Fields(n)
	switch {
	case len(f) >= 2 && f[0] == "pfc_watchdog":
		name, vals := noteValues(strings.TrimPrefix(n, "pfc_watchdog "))
		w := &importer.Watchdog{Name: name, Action: vals["action"]}
		w.DetectionMS, w.RestorationMS, w.PollMS = millis(vals["detection"]), millis(vals["restoration"]), millis(vals["poll_interval"])
		r.wd = w
	case len(f) >= 4 && f[0] == "queue" && f[2] == "ecn_profile":
		q, ok := atoiRange(f[1], 0, 7)
		if !ok {
			break
		}
		name, vals := noteValues(strings.SplitN(n, " ecn_profile ", 2)[1])
		e := &importer.ECN{Name: name, Mark: vals["mode"] != "drop"}
		e.MinBytes, e.MaxBytes = int64(bytesOf(vals["min_threshold"])), int64(bytesOf(vals["max_threshold"]))
		e.Probability, _ = atoiRange(vals["max_probability"], 0, 100)
		if v, ok := atoiRange(vals["min_fill_level"], 0, 100); ok {
			e.MinFill = &v
		}
		if v, ok := atoiRange(vals["max_fill_level"], 0, 100); ok {
			e.MaxFill = &v
		}
		r.ecnNotes[q] = e
	case len(f) >= 3 && f[0] == "rdma" && f[1] == "path_mtu":
		if v, ok := atoiRange(strings.TrimSuffix(f[2], ":"), 256, 4096); ok {
			r.setRDMAInt("path_mtu", &r.rdma.PathMTU, v, line, text)
		}
	case len(f) >= 1 && (f[0] == "buffer" || f[0] == "buffer:"):
		_, vals := noteValues(n)
		b := &importer.Buffer{Headroom: int64(bytesOf(vals["headroom"])), XOFF: int64(bytesOf(vals["xoff"])), XON: int64(bytesOf(vals["xon"])),
			IngressLosslessPool: int64(bytesOf(vals["ingress_lossless_pool"])), EgressLossyPool: int64(bytesOf(vals["egress_lossy_pool"]))}
		if v, ok := vals["dynamic_threshold"]; ok {
			if x, err := strconv.Atoi(v); err == nil && x >= -7 && x <= 7 {
				b.DynamicThreshold = &x
			}
		}
		if *b == (importer.Buffer{}) {
			r.unmapped(line, text, "buffer values the render noted without their values; a host script does not carry them (switch-side)")
			return
		}
		r.buffer = b
	default:
		r.unmapped(line, text, "an intent value fabricgen's render noted but a host script does not carry (switch-side)")
	}
}

// noteValues splits "NAME (k v, k v): why" into the name and the values.
func noteValues(s string) (string, map[string]string) {
	vals := map[string]string{}
	head, _, _ := strings.Cut(s, ": ")
	name, rest, ok := strings.Cut(head, " (")
	if !ok {
		return strings.TrimSuffix(head, ":"), vals
	}
	for _, kv := range strings.Split(strings.TrimSuffix(rest, ")"), ", ") {
		if k, v, ok := strings.Cut(kv, " "); ok {
			vals[k] = v
		}
	}
	return name, vals
}

// millis reads "200ms" (0: none).
func millis(s string) int64 {
	v, _ := atoiRange(strings.TrimSuffix(s, "ms"), 0, 1<<30)
	return int64(v)
}

// bytesOf reads "153600B" (0: none).
func bytesOf(s string) int {
	v, _ := atoiRange(strings.TrimSuffix(s, "B"), 0, 1<<40)
	return v
}

// shellKeywords start a compound command; the command after them is read.
var shellKeywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "do": true,
	"while": true, "until": true, "!": true, "{": true, "}": true, "time": true, "sudo": true, "exec": true, "command": false}

// command reads one simple command.
func (r *reader) command(c *command) {
	ws := c.words
	for len(ws) > 0 && !ws[0].expand && shellKeywords[ws[0].text] {
		ws = ws[1:]
	}
	for len(ws) > 0 && isAssignment(ws[0].text) {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return
	}
	text := r.text(c)
	if c.dropped > 0 {
		r.unmapped(c.line, text, fmt.Sprintf("a command of more than %d words, which import does not read", maxWords))
		return
	}
	if ws[0].expand {
		if looksQoS(text) {
			r.unmapped(c.line, text, "the command is named by a shell variable or substitution, which import does not expand")
		}
		return
	}
	name := path.Base(ws[0].text)
	args := ws[1:]
	if c.out != nil && (name == "echo" || name == "printf") {
		if c.outs > 1 && strings.HasPrefix(c.out.text, "/sys/") {
			r.unmapped(c.line, text, "two output redirections: the shell sends the value to the last one only, so this write does not happen as written")
			return
		}
		r.echoWrite(c, text, args, *c.out)
		return
	}
	if name == "tee" && c.pipedFrom != nil && len(c.pipedFrom.words) > 0 && c.pipedFrom.words[0].text == "echo" {
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				r.echoWrite(c, text, c.pipedFrom.words[1:], a)
			}
		}
		return
	}
	switch name {
	case "sh", "bash", "dash":
		r.shellC(c, text, args)
	case "[", "[[", "test", "eval":
		if name == "eval" && looksQoS(text) {
			r.unmapped(c.line, text, "eval builds its command at run time, which import never does; write the command itself")
		}
	case "mlnx_qos":
		r.mlnxQoS(c, text, args)
	case "dcb":
		r.dcb(c, text, args)
	case "ethtool":
		r.ethtool(c, text, args)
	case "ip":
		r.ip(c, text, args)
	case "cma_roce_tos":
		r.cmaRoCETos(c, text, args)
	case "cma_roce_mode":
		r.cmaRoCEMode(c, text, args)
	default:
		r.otherCommand(c, text, name, args)
	}
}

// otherCommand reads the commands beside the QoS tools: the hostname, and
// QoS-relevant tools fabricgen does not render (tc, lldptool, mlxconfig,
// sysctl), which are reported.
func (r *reader) otherCommand(c *command, text, name string, args []word) {
	switch name {
	case "ifconfig":
		// ifconfig IF mtu N (net-tools).
		if ws, ok := literal(args); ok && len(ws) >= 3 {
			for i := 1; i+1 < len(ws); i++ {
				if v, okM := atoiRange(ws[i+1], 68, 65535); ws[i] == "mtu" && okM {
					p := r.port(ws[0], c.line)
					r.set(p, "mtu", c.line, text, false)
					p.mtu = v
				}
			}
		} else if hasWord(args, "mtu") {
			r.unmapped(c.line, text, "the interface or MTU "+whyVar)
		}
	case "tc":
		if len(args) > 1 && !readOnly(args) {
			r.unmapped(c.line, text, "a tc qdisc, class or filter: fabricgen renders no Linux traffic control on hosts")
		}
	case "hostnamectl":
		if len(args) == 2 && args[0].text == "set-hostname" && !args[1].expand {
			r.dev.Name = args[1].text
		}
	case "hostname":
		if len(args) == 1 && !args[0].expand && !strings.HasPrefix(args[0].text, "-") {
			r.dev.Name = args[0].text
		}
	case "lldptool":
		if hasWord(args, "-T") || hasWord(args, "set-tlv") || hasWord(args, "-L") || hasWord(args, "set-lldp") {
			r.unmapped(c.line, text, "an lldpad DCBX setting: fabricgen configures host DCB directly (mlnx_qos or dcb), not through lldpad")
		}
	case "mlxconfig":
		if hasWord(args, "set") || hasWord(args, "s") {
			r.unmapped(c.line, text, "a ConnectX firmware setting (mlxconfig): fabricgen renders no NIC firmware configuration")
		}
	case "sysctl":
		for _, a := range args {
			if strings.Contains(a.text, "ecn") || strings.Contains(a.text, "dscp") || strings.Contains(a.text, "tos") {
				r.unmapped(c.line, text, "a kernel IP stack setting (sysctl): fabricgen renders the NIC's QoS, not the host's TCP/IP ECN or ToS")
				break
			}
		}
	}
}

// shellC reads the script of sh -c SCRIPT (sudo sh -c "echo V > FILE"),
// as if its commands were on the line.
func (r *reader) shellC(c *command, text string, args []word) {
	for i := 0; i+1 < len(args); i++ {
		if args[i].text != "-c" {
			continue
		}
		if c.depth >= maxNested {
			r.unmapped(c.line, text, "sh -c nested too deep to read")
			return
		}
		if err := r.script(context.Background(), []byte(args[i+1].text), c.line-1, c.depth+1); err != nil && r.err == nil {
			if looksQoS(text) {
				r.unmapped(c.line, text, "an sh -c script import cannot split into commands")
			}
		}
		return
	}
}

func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		if !isNameByte(s[j]) {
			return false
		}
	}
	return s[0] < '0' || s[0] > '9'
}

// looksQoS reports whether an unreadable command names something QoS.
func looksQoS(s string) bool {
	s = strings.ToLower(s)
	for _, k := range []string{"mlnx_qos", "dcb", "pfc", "dscp", "trust", "prio", "ecn", "roce", "tos", "mtu", "ets", "tsa"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

func hasWord(ws []word, s string) bool {
	for _, w := range ws {
		if w.text == s {
			return true
		}
	}
	return false
}

// readOnly reports whether a tc or dcb command only shows.
func readOnly(args []word) bool {
	for _, a := range args {
		switch a.text {
		case "show", "ls", "list", "help", "-s", "-d", "-j":
			return true
		}
	}
	return false
}

// literal returns the words' texts, or false when one needs expanding.
func literal(ws []word) ([]string, bool) {
	out := make([]string, len(ws))
	for i, w := range ws {
		if w.expand {
			return nil, false
		}
		out[i] = w.text
	}
	return out, true
}

const whyVar = "needs a shell variable, command substitution or glob expanded, which import never does; write the literal values"

// echoWrite reads echo VALUE > FILE (or echo VALUE | tee FILE).
func (r *reader) echoWrite(c *command, text string, args []word, file word) {
	var vals []word
	for i, a := range args {
		if i == 0 && (a.text == "-n" || a.text == "-e" || a.text == "%s" || a.text == "%s\\n" || a.text == "%d") {
			continue
		}
		vals = append(vals, a)
	}
	p := file.text
	if !strings.HasPrefix(p, "/sys/") {
		return
	}
	v, ok := literal(vals)
	value := strings.Join(v, " ")
	r.sysfsWrite(c.line, text, p, value, ok, file.expand)
}

// sysfsWrite reads one sysfs or configfs write. pathExpand says the path
// holds a variable (allowed only where it names the RDMA device).
func (r *reader) sysfsWrite(line int, text, p, value string, valueOK, pathExpand bool) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) == 8 && parts[0] == "sys" && parts[1] == "kernel" && parts[2] == "config" && parts[3] == "rdma_cm" && parts[5] == "ports":
		// /sys/kernel/config/rdma_cm/DEV/ports/N/ATTR (the device may be a variable).
		if strings.ContainsAny(parts[6]+parts[7], "$`*?") {
			r.unmapped(line, text, "an rdma_cm configfs path fabricgen cannot read; "+whyVar)
			return
		}
		if !valueOK {
			r.unmapped(line, text, "the rdma_cm value "+whyVar)
			return
		}
		switch parts[7] {
		case "default_roce_tos":
			if v, ok := atoiRange(value, 0, 255); ok {
				r.setRDMAInt("tos", &r.rdma.ToS, v, line, text)
				return
			}
		case "default_roce_mode":
			switch strings.ToLower(value) {
			case "roce v2", "2":
				r.setTransport("roce_v2", line, text)
				return
			case "ib/roce v1", "roce v1", "1":
				r.setTransport("roce_v1", line, text)
				return
			}
		}
		r.unmapped(line, text, "an rdma_cm configfs setting fabricgen does not render")
	case len(parts) >= 4 && parts[0] == "sys" && parts[1] == "kernel" && parts[2] == "config" && parts[3] == "rdma_cm":
		r.unmapped(line, text, "an rdma_cm configfs setting fabricgen does not render (it renders ports/N/default_roce_tos and default_roce_mode)")
	case len(parts) >= 5 && parts[0] == "sys" && parts[1] == "class" && parts[2] == "net":
		if pathExpand && strings.ContainsAny(parts[3], "$`*?") {
			r.unmapped(line, text, "the interface "+whyVar)
			return
		}
		r.netSysfs(line, text, parts[3], parts[4:], value, valueOK)
	case len(parts) >= 4 && parts[0] == "sys" && parts[1] == "class" && parts[2] == "infiniband":
		if len(parts) == 7 && parts[4] == "tc" && parts[6] == "traffic_class" {
			r.unmapped(line, text, "the RDMA device's traffic class for every QP (mlx5 tc/N/traffic_class): fabricgen renders the ToS through rdma_cm (rdma tos)")
			return
		}
		r.unmapped(line, text, "an RDMA device sysfs write fabricgen does not render")
	default:
		r.unmapped(line, text, "a sysfs write fabricgen does not render")
	}
}

// netSysfs reads a write under /sys/class/net/IF/.
func (r *reader) netSysfs(line int, text, ifname string, rest []string, value string, ok bool) {
	if !ok {
		r.unmapped(line, text, "the value "+whyVar)
		return
	}
	if len(rest) == 1 && rest[0] == "mtu" {
		if v, ok := atoiRange(value, 68, 65535); ok {
			p := r.port(ifname, line)
			r.set(p, "mtu", line, text, false)
			p.mtu = v
			return
		}
	}
	if len(rest) < 2 || rest[0] != "ecn" {
		r.unmapped(line, text, "a network device sysfs write fabricgen does not render")
		return
	}
	if !r.fl.MLNX {
		r.unmapped(line, text, "MLNX_OFED's ECN sysfs: linux_dcb renders no DCQCN or CNP setting; import with --platform nvidia_mlnx to keep it")
		return
	}
	p := r.port(ifname, line)
	switch {
	case len(rest) == 4 && (rest[1] == "roce_np" || rest[1] == "roce_rp") && rest[2] == "enable":
		prio, okP := atoiRange(rest[3], 0, 7)
		v, okV := atoiRange(value, 0, 1)
		if !okP || !okV {
			break
		}
		r.set(p, "ecn "+rest[1]+" "+rest[3], line, text, false)
		if rest[1] == "roce_np" {
			p.ecnNP[prio], p.ecnNPLine[prio] = v, line
		} else {
			p.ecnRP[prio], p.ecnRPLine[prio] = v, line
		}
		p.ecnText[prio] = text
		return
	case len(rest) == 3 && rest[1] == "roce_np" && rest[2] == "cnp_dscp":
		if v, ok := atoiRange(value, 0, 63); ok {
			r.setRDMAInt("cnp_dscp", &r.rdma.CNPDSCP, v, line, text)
			return
		}
	case len(rest) == 3 && rest[1] == "roce_np" && rest[2] == "cnp_802p_prio":
		if v, ok := atoiRange(value, 0, 7); ok {
			r.setRDMAInt("cnp_priority", &r.rdma.CNPPriority, v, line, text)
			return
		}
	}
	r.unmapped(line, text, "a DCQCN parameter of MLNX_OFED's ECN sysfs fabricgen does not render (it renders the enables, cnp_dscp and cnp_802p_prio)")
}

// mlnxQoS reads mlnx_qos -i IF OPTIONS (mlnx-tools python/mlnx_qos).
func (r *reader) mlnxQoS(c *command, text string, args []word) {
	type opt struct {
		name string
		val  word
	}
	var optBuf [8]opt
	opts := optBuf[:0]
	var ifw word
	hasIf := false
	for i := 0; i < len(args); i++ {
		a := args[i].text
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasEq := strings.Cut(a, "=")
		var vw word
		switch {
		case hasEq:
			vw = word{text: val, expand: args[i].expand}
		case name == "-a" || name == "-h" || name == "--help" || name == "-v" || name == "--version":
			continue
		case i+1 < len(args):
			vw = args[i+1]
			i++
		default:
			r.unmapped(c.line, text, "mlnx_qos option "+name+" has no value")
			return
		}
		if name == "-i" || name == "--interface" {
			ifw, hasIf = vw, true
			continue
		}
		opts = append(opts, opt{name, vw})
	}
	if !hasIf || len(opts) == 0 {
		return // mlnx_qos -i IF alone only shows.
	}
	if ifw.expand {
		r.unmapped(c.line, text, "the interface "+whyVar)
		return
	}
	p := r.port(ifw.text, c.line)
	for _, o := range opts {
		if o.val.expand {
			r.unmapped(c.line, text, "mlnx_qos "+o.name+": "+whyVar)
			continue
		}
		r.mlnxOpt(p, c.line, text, o.name, o.val.text)
	}
}

// mlnxOpt reads one mlnx_qos option of port p.
func (r *reader) mlnxOpt(p *portAcc, line int, text, name, v string) {
	bad := func() { r.unmapped(line, text, "mlnx_qos "+name+" "+v+": a value fabricgen cannot read") }
	switch name {
	case "--trust":
		switch v {
		case "dscp":
			r.set(p, "trust", line, text, true)
			p.trust = "dscp"
		case "pcp":
			if !r.fl.MLNX {
				r.unmapped(line, text, "PCP trust: linux_dcb classifies by DSCP only (its render refuses trust pcp); import with --platform nvidia_mlnx to keep it")
				return
			}
			r.set(p, "trust", line, text, true)
			p.trust = "pcp"
		default:
			bad()
		}
	case "--dscp2prio":
		var buf [4]string
		op := splitComma(v, buf[:0])
		switch {
		case len(op) == 1 && op[0] == "flush":
			r.set(p, "dscp2prio flush", line, text, true)
			p.dscp = nil
		case len(op) == 3 && (op[0] == "set" || op[0] == "del"):
			d, ok1 := atoiRange(op[1], 0, 63)
			pr, ok2 := atoiRange(op[2], 0, 7)
			if !ok1 || !ok2 {
				bad()
				return
			}
			if op[0] == "del" {
				p.qos(line)
				if cur, ok := p.dscp[d]; ok && cur == pr {
					delete(p.dscp, d)
				}
				return
			}
			r.setDSCP(p, d, line, text)
			if p.dscp == nil {
				p.dscp, p.dscpLine = make(map[int]int, 64), line
			}
			p.dscp[d] = pr
		default:
			bad()
		}
	case "--pfc", "-f":
		vec, ok := list8(v, 0, 1)
		if !ok {
			bad()
			return
		}
		r.set(p, "pfc", line, text, true)
		p.pfc, p.pfcSet = nil, true
		for i, on := range vec {
			if on == 1 {
				p.pfc = append(p.pfc, i)
			}
		}
	case "--prio_tc", "-p":
		m, ok := list8(v, 0, 7)
		if !ok {
			bad()
			return
		}
		r.set(p, "prio_tc", line, text, true)
		p.prioTC = m
	case "--tsa", "-s":
		parts := strings.Split(strings.TrimSuffix(v, ","), ",")
		if len(parts) != 8 {
			bad()
			return
		}
		for _, t := range parts {
			if t != "ets" && t != "strict" {
				r.unmapped(line, text, "mlnx_qos --tsa "+t+": fabricgen schedules a traffic class as strict or ETS only (the vendor TSA is the NIC's own)")
				return
			}
		}
		r.set(p, "tsa", line, text, true)
		copy(p.tsa[:], parts)
	case "--tcbw", "-t":
		bw, ok := list8(v, 0, 100)
		if !ok {
			bad()
			return
		}
		r.set(p, "tcbw", line, text, true)
		copy(p.bw[:], bw)
		p.bwSet = true
	case "--ratelimit", "-r":
		parts := strings.Split(strings.TrimSuffix(v, ","), ",")
		if len(parts) != 8 {
			bad()
			return
		}
		var rates [8]int64
		for i, s := range parts {
			g, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || g < 0 || g > 1e6 {
				bad()
				return
			}
			rates[i] = int64(g * 1e9)
		}
		r.set(p, "ratelimit", line, text, true)
		p.shaper = rates
	case "--cable_len":
		r.unmapped(line, text, "mlnx_qos --cable_len: the NIC's PFC headroom from the cable length; fabricgen renders no NIC buffer setting (cable_length is a switch-side link attribute)")
	case "--buffer_size", "--prio2buffer":
		r.unmapped(line, text, "mlnx_qos "+name+": a NIC receive buffer setting; fabricgen renders no NIC buffers (PFC headroom is switch-side)")
	case "-d", "--dcbx":
		r.unmapped(line, text, "mlnx_qos --dcbx: the DCBX mode; fabricgen configures the host (OS controlled) and renders no DCBX setting")
	default:
		r.unmapped(line, text, "mlnx_qos "+name+": an option fabricgen does not render")
	}
}

// cmaRoCETos reads cma_roce_tos -d DEV [-p PORT] -t TOS (mlnx-tools).
func (r *reader) cmaRoCETos(c *command, text string, args []word) {
	for i := 0; i+1 < len(args); i++ {
		if args[i].text != "-t" {
			continue
		}
		if args[i+1].expand {
			r.unmapped(c.line, text, "the ToS "+whyVar)
			return
		}
		v, ok := atoiRange(args[i+1].text, 0, 255)
		if !ok {
			r.unmapped(c.line, text, "cma_roce_tos -t "+args[i+1].text+": not a ToS (0-255)")
			return
		}
		r.setRDMAInt("tos", &r.rdma.ToS, v, c.line, text)
		return
	}
}

// cmaRoCEMode reads cma_roce_mode -d DEV [-p PORT] -m 1|2 (mlnx-tools).
func (r *reader) cmaRoCEMode(c *command, text string, args []word) {
	for i := 0; i+1 < len(args); i++ {
		if args[i].text != "-m" {
			continue
		}
		if args[i+1].expand {
			r.unmapped(c.line, text, "the RoCE mode "+whyVar)
			return
		}
		switch args[i+1].text {
		case "2":
			r.setTransport("roce_v2", c.line, text)
		case "1":
			r.setTransport("roce_v1", c.line, text)
		default:
			r.unmapped(c.line, text, "cma_roce_mode -m "+args[i+1].text+": not a RoCE mode (1 or 2)")
		}
		return
	}
}

// ip reads ip link set [dev] IF ... mtu N and ip addr add A/N dev IF.
func (r *reader) ip(c *command, text string, args []word) {
	ws, ok := literal(args)
	if len(args) >= 2 && (args[0].text == "link" || args[0].text == "l") && args[1].text == "set" {
		mtuAt := -1
		for i, a := range args {
			if a.text == "mtu" {
				mtuAt = i
			}
		}
		if mtuAt < 0 {
			return
		}
		if !ok || mtuAt+1 >= len(ws) {
			r.unmapped(c.line, text, "the interface or MTU "+whyVar)
			return
		}
		dev := ws[2]
		if dev == "dev" && len(ws) > 3 {
			dev = ws[3]
		}
		if dev == "mtu" || dev == "dev" {
			r.unmapped(c.line, text, "ip link set names no interface")
			return
		}
		v, okM := atoiRange(ws[mtuAt+1], 68, 65535)
		if !okM {
			r.unmapped(c.line, text, "ip link mtu "+ws[mtuAt+1]+": not an MTU")
			return
		}
		p := r.port(dev, c.line)
		r.set(p, "mtu", c.line, text, false)
		p.mtu = v
		return
	}
	if ok && len(ws) >= 5 && (ws[0] == "addr" || ws[0] == "address" || ws[0] == "a") && (ws[1] == "add" || ws[1] == "replace") {
		dev := ""
		for i := 2; i+1 < len(ws); i++ {
			if ws[i] == "dev" {
				dev = ws[i+1]
			}
		}
		if dev != "" && strings.Contains(ws[2], "/") {
			p := r.port(dev, c.line)
			if p.ip == "" {
				p.ip = ws[2]
			}
		}
	}
}

// ethtool reads ethtool -A (pause), --set-tunable pfc-prevention-tout,
// --set-priv-flags, -s speed and -G (reported).
func (r *reader) ethtool(c *command, text string, args []word) {
	if len(args) < 2 {
		return
	}
	ws, ok := literal(args)
	op := args[0].text
	switch op {
	case "-A", "--pause", "-G", "--set-ring", "--set-tunable", "--set-priv-flags", "-s", "--change":
	default:
		return // read-only or not QoS
	}
	if !ok {
		r.unmapped(c.line, text, "ethtool "+op+": "+whyVar)
		return
	}
	dev := ws[1]
	rest := ws[2:]
	switch op {
	case "-A", "--pause":
		var rx, tx string
		for i := 0; i+1 < len(rest); i += 2 {
			switch rest[i] {
			case "rx":
				rx = rest[i+1]
			case "tx":
				tx = rest[i+1]
			case "autoneg":
				if rest[i+1] == "on" {
					r.unmapped(c.line, text, "pause autonegotiation on: fabricgen sets 802.3x pause on or off (link_pause), not negotiated")
				}
			}
		}
		switch {
		case rx == "" && tx == "":
		case rx == tx && (rx == "on" || rx == "off"):
			p := r.port(dev, c.line)
			r.set(p, "pause", c.line, text, true)
			on := rx == "on"
			p.pause = &on
		default:
			r.unmapped(c.line, text, "asymmetric or partial 802.3x pause (rx "+rx+", tx "+tx+"): fabricgen's link_pause sets rx and tx alike")
		}
	case "-G", "--set-ring":
		r.unmapped(c.line, text, "NIC ring sizes (ethtool -G): fabricgen renders no ring or buffer setting")
	case "--set-tunable":
		if len(rest) == 2 && rest[0] == "pfc-prevention-tout" {
			v, okV := atoiRange(rest[1], 0, 1_000_000)
			if !okV {
				r.unmapped(c.line, text, "pfc-prevention-tout "+rest[1]+": not a timeout in ms")
				return
			}
			p := r.port(dev, c.line)
			r.set(p, "pfc-prevention-tout", c.line, text, true)
			p.tout = int64(v)
			return
		}
		if strings.Contains(text, "pfc") || strings.Contains(text, "prio") {
			r.unmapped(c.line, text, "an ethtool tunable fabricgen does not render")
		}
	case "--set-priv-flags":
		for i := 0; i+1 < len(rest); i += 2 {
			switch {
			case rest[i] == "fw-lldp-agent" && rest[i+1] == "off" && r.fl.MLNX:
				r.unmapped(c.line, text, "ice's firmware LLDP agent off: nvidia_mlnx renders it for no NIC (a ConnectX has no such flag); import with --platform linux_dcb to keep it (driver ice)")
			case rest[i] == "fw-lldp-agent" && rest[i+1] == "off":
				p := r.port(dev, c.line)
				r.set(p, "fw-lldp-agent", c.line, text, false)
				p.lldpOff = true
				r.driverHint = "ice"
			case rest[i] == "fw-lldp-agent":
				r.unmapped(c.line, text, "ice's firmware LLDP agent on: the NIC takes DCB from the switch (DCBX), not from the host; fabricgen turns it off")
			default:
				r.unmapped(c.line, text, "NIC private flag "+rest[i]+": fabricgen renders no driver private flag but ice's fw-lldp-agent")
			}
		}
	case "-s", "--change":
		for i := 0; i+1 < len(rest); i++ {
			if rest[i] == "speed" {
				if v, okS := atoiRange(rest[i+1], 1, 10_000_000); okS {
					p := r.port(dev, c.line)
					p.speed = int64(v) * 1_000_000
				}
			}
		}
	}
}
