package lab

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// junos emulates Junos OS on a QFX switch: operational and configuration
// mode, private candidates merged into the active configuration on commit,
// `load set terminal`, `show | compare`, `commit confirmed N` with
// automatic rollback, `rollback N`, and `show configuration [| display
// set]` (Junos OS CLI User Guide: "Commit the Configuration", "Roll Back
// Configuration Changes", "load set"). The configuration has no schema:
// statements are token paths under known top-level hierarchies.
type junos struct {
	env    *deviceEnv
	active *pathTree
	// history[0] is the active configuration, history[n] rollback n.
	history []*junosCommit
	confirm *junosConfirm
	// shared is the shared candidate of plain `configure` sessions (nil:
	// none yet); its uncommitted changes outlive the sessions.
	shared *pathTree
	// lock is the session holding `configure exclusive`, or nil.
	lock *junosCLI
}

type junosCommit struct {
	tree *pathTree
	when time.Time
	user string
	how  string
}

type junosConfirm struct {
	cancel func()
}

// junosTop lists the top-level hierarchies `set` accepts.
var junosTop = map[string]bool{
	"system": true, "interfaces": true, "class-of-service": true, "firewall": true, "protocols": true,
	"routing-options": true, "snmp": true, "policy-options": true, "chassis": true, "vlans": true,
	"forwarding-options": true, "routing-instances": true,
}

// junosCoS lists what `set class-of-service` accepts next.
var junosCoS = map[string]bool{
	"forwarding-classes": true, "classifiers": true, "congestion-notification-profile": true, "drop-profiles": true,
	"schedulers": true, "scheduler-maps": true, "interfaces": true, "forwarding-class-sets": true,
	"traffic-control-profiles": true, "rewrite-rules": true, "host-outbound-traffic": true, "shared-buffer": true,
}

// junosScalars are keywords that hold one value.
var junosScalars = map[string]bool{
	"mtu": true, "description": true, "host-name": true, "queue-num": true, "pfc-priority": true, "priority": true,
	"percent": true, "cable-length": true, "mru": true, "loss-priority": false, "scheduler": true, "scheduler-map": true,
	"congestion-notification-profile": false, "time-zone": true, "location": true, "contact": true,
}

func junosScalar(prefix []string) bool {
	last := prefix[len(prefix)-1]
	if last == "congestion-notification-profile" || last == "scheduler-map" {
		// Under an interface these bind one profile; at the top of
		// class-of-service they name profiles.
		return len(prefix) >= 3 && prefix[len(prefix)-3] == "interfaces"
	}
	return junosScalars[last]
}

func newJunos(env *deviceEnv) (*junos, error) {
	j := &junos{env: env, active: newPathTree(junosScalar)}
	ports := env.spec.Ports
	if len(ports) == 0 {
		for i := 0; i < 32; i++ {
			ports = append(ports, fmt.Sprintf("et-0/0/%d", i))
		}
	}
	factory := []string{
		"set system host-name " + env.spec.Name,
		"set system time-zone UTC",
		"set system login user " + env.spec.Username + " class super-user",
		"set system services ssh",
		"set system syslog host 192.0.2.10 any notice",
		"set system ntp server 192.0.2.123",
		"set snmp location lab-row1-rack4",
		"set snmp community fabricgen-ro authorization read-only",
	}
	for _, p := range ports {
		if !strings.Contains(p, "/") {
			return nil, fmt.Errorf("port %q is not a Junos interface name (e.g. et-0/0/0)", p)
		}
		factory = append(factory, "set interfaces "+p+" unit 0 family ethernet-switching")
	}
	factory = append(factory,
		fmt.Sprintf("set interfaces em0 unit 0 family inet address 192.0.2.%d/24", mgmtOctet(env.spec.Name)),
		"set routing-options static route 0.0.0.0/0 next-hop 192.0.2.1",
		"set protocols lldp interface all")
	for _, l := range factory {
		if err := j.apply(j.active, l); err != nil {
			return nil, fmt.Errorf("factory config %q: %w", l, err)
		}
	}
	j.history = []*junosCommit{{tree: j.active.clone(), when: env.now(), user: "root", how: "cli"}}
	return j, nil
}

// apply runs one `set`/`delete` statement against a tree.
func (j *junos) apply(t *pathTree, line string) error {
	toks, err := configTokens(line)
	if err != nil {
		return err
	}
	if len(toks) < 2 {
		return fmt.Errorf("syntax error")
	}
	verb, path := toks[0], toks[1:]
	switch verb {
	case "set":
		if !junosTop[path[0]] {
			return &errUnknown{token: 1}
		}
		if path[0] == "class-of-service" && (len(path) < 2 || !junosCoS[path[1]]) {
			return &errUnknown{token: 2}
		}
		if len(path) < 2 {
			return &errUnknown{token: 2, incomplete: true}
		}
		t.set(path)
		return nil
	case "delete":
		if !t.remove(path) {
			return errStatementNotFound
		}
		return nil
	}
	return &errUnknown{token: 0}
}

var errStatementNotFound = fmt.Errorf("statement not found")

func (j *junos) header() string {
	c := j.history[0]
	return fmt.Sprintf("## Last commit: %s by %s\nversion 23.4R1.9;\n", c.when.UTC().Format("2006-01-02 15:04:05 MST"), c.user)
}

func (j *junos) running() string { return j.header() + junosText(j.active) }

func (j *junos) outOfBand(lines []string) error {
	cand := j.active.clone()
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if err := j.apply(cand, l); err != nil {
			return fmt.Errorf("%q: %w", l, err)
		}
	}
	j.commit(cand, "another-admin", "cli")
	return nil
}

// commit makes tree the active configuration and records it.
func (j *junos) commit(tree *pathTree, user, how string) {
	j.active = tree
	j.history = append([]*junosCommit{{tree: tree.clone(), when: j.env.now(), user: user, how: how}}, j.history...)
	if len(j.history) > 50 {
		j.history = j.history[:50]
	}
}

func (j *junos) expireTimers() {
	if j.confirm != nil {
		j.rollbackConfirm()
	}
}

// rollbackConfirm restores rollback 1 after an unconfirmed commit.
func (j *junos) rollbackConfirm() {
	j.confirm.cancel()
	j.confirm = nil
	if len(j.history) > 1 {
		j.commit(j.history[1].tree.clone(), "root", "confirmed rollback")
	}
}

// junosNamed keywords print with their name on the same line
// ("class NO-LOSS {").
var junosNamed = map[string]bool{
	"class": true, "dscp": true, "ieee-802.1": true, "forwarding-class": true, "code-point": true,
	"filter": true, "term": true, "unit": true, "family": true, "user": true, "host": true, "server": true,
	"community": true, "route": true, "interface": true,
}

// junosLine is one line of the curly-brace form and its hierarchy.
type junosLine struct {
	text string
	ctx  []string
}

func junosText(t *pathTree) string {
	var b strings.Builder
	for _, l := range junosLines(t) {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

func junosLines(t *pathTree) []junosLine {
	var out []junosLine
	var render func(n *pnode, ctx []string)
	emit := func(ctx []string, s string) {
		out = append(out, junosLine{text: strings.Repeat("    ", len(ctx)) + s, ctx: ctx})
	}
	block := func(ctx []string, head string, n *pnode) {
		if chain := compress(n); chain != nil && junosLeaf(head, chain) {
			emit(ctx, strings.TrimSpace(head+" "+strings.Join(chain, " "))+";")
			return
		}
		h := strings.TrimSpace(head + " " + n.tok)
		emit(ctx, h+" {")
		render(n, append(append([]string(nil), ctx...), h))
		emit(ctx, "}")
	}
	render = func(n *pnode, ctx []string) {
		for _, c := range n.kids {
			if chain := compress(c); junosNamed[c.tok] && len(c.kids) > 0 && (chain == nil || !junosLeaf("", chain)) {
				for _, g := range c.kids {
					block(ctx, c.tok, g)
				}
				continue
			}
			block(ctx, "", c)
		}
	}
	render(t.root, nil)
	return out
}

// junosMulti are statements that take several keyword/value tokens on
// one line (e.g. "queue-num 3 no-loss;", "route 0.0.0.0/0 next-hop X;").
var junosMulti = map[string]bool{
	"class": true, "queue-num": true, "loss-priority": true, "drop-profile-map": true, "transmit-rate": true,
	"route": true, "fill-level": true, "drop-probability": true, "flow-control-queue": true,
	"forwarding-class": true, "address": true, "destination-port": true, "source-port": true,
}

// junosLeaf reports whether a single chain prints as one statement.
func junosLeaf(head string, chain []string) bool {
	first := head
	n := len(chain)
	if head == "" {
		first = chain[0]
	} else {
		n++
	}
	return n <= 2 || junosMulti[first]
}

// compress returns the tokens of a single-chain subtree ending in a leaf,
// or nil.
func compress(n *pnode) []string {
	var chain []string
	for {
		chain = append(chain, n.tok)
		if len(n.kids) == 0 {
			return chain
		}
		if len(n.kids) > 1 || n.end {
			return nil
		}
		n = n.kids[0]
	}
}

// junosCompare prints `show | compare`: the changes from a to b under
// "[edit ...]" headers.
func junosCompare(a, b *pathTree) string {
	la, lb := junosLines(a), junosLines(b)
	ta, tb := make([]string, len(la)), make([]string, len(lb))
	for i, l := range la {
		ta[i] = l.text
	}
	for i, l := range lb {
		tb[i] = l.text
	}
	ops := lineOps(ta, tb)
	var out strings.Builder
	var hdr []string
	inRun := false
	ia, ib := 0, 0
	for _, op := range ops {
		var l junosLine
		switch op {
		case ' ':
			ia++
			ib++
			inRun = false
			continue
		case '-':
			l = la[ia]
			ia++
		case '+':
			l = lb[ib]
			ib++
		}
		if !inRun || !hasPrefix(l.ctx, hdr) {
			hdr = l.ctx
			if len(hdr) == 0 {
				out.WriteString("[edit]\n")
			} else {
				out.WriteString("[edit " + strings.Join(hdr, " ") + "]\n")
			}
		}
		inRun = true
		rel := len(l.ctx) - len(hdr) + 1
		out.WriteString(string(op) + strings.Repeat(" ", rel*4-1) + strings.TrimLeft(l.text, " ") + "\n")
	}
	return out.String()
}

func hasPrefix(s, prefix []string) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}

func (j *junos) newSession(t *term, user string) cliSession {
	t.more = "---(more)---"
	return &junosCLI{j: j, t: t, user: user}
}

type junosCLI struct {
	j     *junos
	t     *term
	user  string
	cand  *pathTree // nil in operational mode
	base  *pathTree
	mode  string // private, exclusive or shared
	edit  []string
	load  bool // reading `load set terminal` input
	loadN int
	errs  int
}

func (c *junosCLI) greeting() string {
	return "--- JUNOS 23.4R1.9 Kernel 64-bit  JNPR-12.1-20231207.2bd1e5b_buil\n"
}

func (c *junosCLI) prompt() string {
	if c.load {
		return ""
	}
	p := c.user + "@" + c.j.env.spec.Name
	if c.cand == nil {
		return p + "> "
	}
	edit := "[edit]"
	if len(c.edit) > 0 {
		edit = "[edit " + strings.Join(c.edit, " ") + "]"
	}
	return "\n" + edit + "\n" + p + "# "
}

// disconnect discards a private or exclusive candidate and releases the
// lock, as Junos does when such a configuration session ends; changes to
// the shared candidate stay.
func (c *junosCLI) disconnect() { c.leave() }

func (c *junosCLI) leave() {
	if c.j.lock == c {
		c.j.lock = nil
	}
	c.cand, c.base, c.mode, c.edit = nil, nil, "", nil
}

// sharedModified reports whether the shared candidate holds uncommitted
// changes.
func (j *junos) sharedModified() bool {
	return j.shared != nil && junosText(j.shared) != junosText(j.active)
}

func (c *junosCLI) reject(line string) reply {
	if strings.HasPrefix(line, "commit") {
		return reply{out: "error: configuration check-out failed\n", status: 1, config: true}
	}
	return reply{out: c.caret(line, 1) + "syntax error.\n", status: 1, config: c.cand != nil}
}

func (c *junosCLI) caret(line string, tok int) string {
	col := len(c.user) + 1 + len(c.j.env.spec.Name) + 2
	f := strings.Fields(line)
	for i := 0; i < tok && i < len(f); i++ {
		col += len(f[i]) + 1
	}
	return strings.Repeat(" ", col) + "^\n"
}

func (c *junosCLI) handle(raw string) reply {
	if c.load {
		return c.loadLine(raw)
	}
	line := normalize(raw)
	if line == "" {
		return reply{}
	}
	if c.cand == nil {
		return c.op(line)
	}
	return c.config(line)
}

func (c *junosCLI) op(line string) reply {
	cmd, filters := splitPipe(line)
	f := strings.Fields(cmd)
	j := c.j
	switch {
	case cmd == "exit" || cmd == "quit":
		return reply{exit: true}
	case len(f) == 4 && f[0] == "set" && f[1] == "cli" && (f[2] == "screen-width" || f[2] == "screen-length"):
		n, err := strconv.Atoi(f[3])
		if err != nil {
			return reply{out: c.caret(cmd, 3) + "syntax error, expecting <number>.\n", status: 1}
		}
		if f[2] == "screen-length" {
			c.t.length = n
			return reply{out: fmt.Sprintf("Screen length set to %d\n", n)}
		}
		c.t.width = n
		return reply{out: fmt.Sprintf("Screen width set to %d\n", n)}
	case cmd == "set cli complete-on-space off":
		return reply{out: "Disabling complete-on-space\n"}
	case cmd == "configure":
		if j.shared == nil {
			j.shared = j.active.clone()
		}
		c.cand, c.base, c.mode, c.edit = j.shared, nil, "shared", nil
		out := "Entering configuration mode\n"
		if j.lock != nil {
			out += "Users currently editing the configuration:\n  " + j.lock.user + " (exclusive)\n"
		}
		if j.sharedModified() {
			out += "The configuration has been changed but not committed\n"
		}
		return reply{out: out}
	case cmd == "configure private" || cmd == "configure exclusive":
		if j.lock != nil {
			return reply{out: "error: configuration database locked by:\n  " + j.lock.user + " terminal pts/0 (pid 4242) on since " +
				j.history[0].when.UTC().Format("2006-01-02 15:04:05 MST") + "\n      exclusive [edit]\n", status: 1}
		}
		if j.sharedModified() {
			return reply{out: "error: shared configuration database modified\nProblem in configuration: uncommitted changes in the shared candidate; commit or roll them back first\n", status: 1}
		}
		c.cand, c.base, c.edit = j.active.clone(), j.active.clone(), nil
		c.mode = strings.TrimPrefix(cmd, "configure ")
		if c.mode == "exclusive" {
			j.lock = c
		}
		return reply{out: "warning: uncommitted changes will be discarded on exit\nEntering configuration mode\n"}
	case cmd == "show configuration":
		return c.filter(j.running(), filters)
	case len(f) > 2 && f[0] == "show" && f[1] == "configuration":
		sub := j.active.subtree(f[2:])
		saved := c.j.active
		c.j.active = sub
		r := c.filter(junosText(sub), filters)
		c.j.active = saved
		return r
	case cmd == "show system commit":
		var b strings.Builder
		for i, h := range j.history {
			fmt.Fprintf(&b, "%d   %s by %s via %s\n", i, h.when.UTC().Format("2006-01-02 15:04:05 MST"), h.user, h.how)
		}
		return reply{out: b.String()}
	case cmd == "show version":
		return reply{out: fmt.Sprintf("Hostname: %s\nModel: qfx5220-32cd\nJunos: 23.4R1.9\n", j.env.spec.Name)}
	}
	return reply{out: c.caret(cmd, 0) + "unknown command.\n", status: 1}
}

// filter applies Junos pipes: display set, no-more, match, except, compare.
func (c *junosCLI) filter(out string, filters []string) reply {
	for _, f := range filters {
		switch {
		case f == "display set":
			out = c.displaySet(out)
		case f == "no-more":
		case strings.HasPrefix(f, "match "):
			o, err := applyFilters(out, []string{"include " + strings.TrimPrefix(f, "match ")})
			if err != nil {
				return reply{out: "error: " + err.Error() + "\n", status: 1}
			}
			out = o
		case strings.HasPrefix(f, "except "):
			o, err := applyFilters(out, []string{"exclude " + strings.TrimPrefix(f, "except ")})
			if err != nil {
				return reply{out: "error: " + err.Error() + "\n", status: 1}
			}
			out = o
		default:
			return reply{out: "syntax error, expecting <command>: " + f + "\n", status: 1}
		}
	}
	return reply{out: out}
}

// displaySetOf prints the active configuration in set form.
func (j *junos) displaySetOf() string { return setForm(j.active) }

func setForm(t *pathTree) string {
	var b strings.Builder
	b.WriteString("set version 23.4R1.9\n")
	for _, s := range t.statements() {
		b.WriteString("set " + strings.Join(s, " ") + "\n")
	}
	return b.String()
}

// displaySet converts what was shown to set form: the active
// configuration in operational mode, the candidate in configuration mode.
func (c *junosCLI) displaySet(string) string {
	if c.cand != nil {
		return setForm(c.cand)
	}
	return setForm(c.j.active)
}

func (c *junosCLI) config(line string) reply {
	j := c.j
	cmd, filters := splitPipe(line)
	f := strings.Fields(cmd)
	switch {
	case cmd == "exit" || cmd == "quit" || cmd == "exit configuration-mode":
		if len(c.edit) > 0 && cmd != "exit configuration-mode" {
			c.edit = c.edit[:len(c.edit)-1]
			return reply{}
		}
		out := "Exiting configuration mode\n"
		if c.mode != "shared" && junosText(c.cand) != junosText(c.base) {
			out = "warning: uncommitted changes will be discarded on exit\n" + out
		}
		c.leave()
		return reply{out: out}
	case cmd == "top":
		c.edit = nil
		return reply{}
	case cmd == "up":
		if len(c.edit) > 0 {
			c.edit = c.edit[:len(c.edit)-1]
		}
		return reply{}
	case f[0] == "edit" && len(f) > 1:
		c.edit = append(c.edit, f[1:]...)
		return reply{}
	case cmd == "update" && c.mode == "private":
		fresh := j.active.clone()
		fresh.mergeChanges(c.base, c.cand)
		c.cand, c.base = fresh, j.active.clone()
		return reply{}
	case cmd == "show" && len(filters) == 1 && filters[0] == "compare":
		return reply{out: junosCompare(j.active, c.cand)}
	case cmd == "show":
		return c.filter(junosText(c.cand), filters)
	case cmd == "commit check":
		// commit check also confirms a pending commit confirmed.
		if j.confirm != nil {
			j.confirm.cancel()
			j.confirm = nil
		}
		return reply{out: "configuration check succeeds\n"}
	case cmd == "commit" || cmd == "commit and-quit" || strings.HasPrefix(cmd, "commit comment "):
		return c.commitCmd(0, cmd == "commit and-quit")
	case (cmd == "commit confirmed" || (len(f) == 3 && f[0] == "commit" && f[1] == "confirmed")) && c.mode == "private":
		// Junos OS CLI User Guide, "Using the configure private Command":
		// commit confirmed cannot be issued in configure private mode.
		return reply{out: "error: 'commit confirmed' is not supported in configure private mode; use configure exclusive\n", status: 1, config: true}
	case len(f) == 3 && f[0] == "commit" && f[1] == "confirmed":
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 1 || n > 65535 {
			return reply{out: c.caret(cmd, 2) + "syntax error, expecting <number>.\n", status: 1}
		}
		return c.commitCmd(n, false)
	case cmd == "commit confirmed":
		return c.commitCmd(10, false)
	case cmd == "rollback" || (len(f) == 2 && f[0] == "rollback"):
		n := 0
		if len(f) == 2 {
			v, err := strconv.Atoi(f[1])
			if err != nil || v < 0 || v > 49 {
				return reply{out: c.caret(cmd, 1) + "syntax error, expecting <number>.\n", status: 1}
			}
			n = v
		}
		if n >= len(j.history) {
			return reply{out: fmt.Sprintf("error: Cannot find rollback file: rollback %d\n", n), status: 1}
		}
		rolled := j.history[n].tree.clone()
		if c.mode == "shared" {
			j.shared = rolled
		}
		c.cand = rolled
		return reply{out: "load complete\n", config: true}
	case cmd == "load set terminal":
		c.load, c.loadN, c.errs = true, 0, 0
		return reply{out: "[Type ^D at a new line to end input]\n"}
	case f[0] == "set" || f[0] == "delete":
		full := cmd
		if len(c.edit) > 0 {
			full = f[0] + " " + strings.Join(c.edit, " ") + " " + strings.Join(f[1:], " ")
		}
		err := j.apply(c.cand, full)
		switch e := err.(type) {
		case nil:
			return reply{config: true}
		case *errUnknown:
			return reply{out: c.caret(cmd, e.token) + "syntax error.\n", status: 1, config: true}
		default:
			if err == errStatementNotFound {
				return reply{out: "warning: statement not found\n", config: true}
			}
			return reply{out: "syntax error: " + err.Error() + "\n", status: 1, config: true}
		}
	case strings.HasPrefix(cmd, "run "):
		saved := c.cand
		c.cand = nil
		r := c.op(strings.TrimPrefix(line, "run "))
		if c.cand == nil {
			c.cand = saved
		}
		return r
	}
	return reply{out: c.caret(cmd, 0) + "syntax error.\n", status: 1}
}

// loadLine reads one line of `load set terminal` input; ^D ends it.
func (c *junosCLI) loadLine(raw string) reply {
	if raw == "\x04" {
		c.load = false
		if c.errs > 0 {
			return reply{out: fmt.Sprintf("load complete (%d errors)\n", c.errs), status: 1, config: true}
		}
		return reply{out: "load complete\n", config: true}
	}
	c.loadN++
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return reply{}
	}
	if err := c.j.apply(c.cand, line); err != nil && err != errStatementNotFound {
		c.errs++
		return reply{out: fmt.Sprintf("terminal:%d:(0) syntax error: %s\n", c.loadN, line), config: true}
	}
	return reply{config: true}
}

// commitCmd commits the candidate: the changes made since the candidate
// was taken are merged into the active configuration (a private
// candidate's semantics). minutes > 0 makes it a `commit confirmed`.
func (c *junosCLI) commitCmd(minutes int, quit bool) reply {
	j := c.j
	if j.lock != nil && j.lock != c {
		return reply{out: "error: configuration database locked by:\n  " + j.lock.user + " (exclusive)\nerror: configuration check-out failed\n", status: 1, config: true}
	}
	if c.mode == "private" && j.sharedModified() {
		return reply{out: "error: shared configuration database modified\nerror: configuration check-out failed\n", status: 1, config: true}
	}
	if j.confirm != nil {
		// Any commit confirms a pending commit confirmed.
		j.confirm.cancel()
		j.confirm = nil
	}
	merged := c.cand.clone()
	if c.mode == "private" {
		// A private candidate's changes are merged into the configuration
		// committed meanwhile.
		merged = j.active.clone()
		merged.mergeChanges(c.base, c.cand)
	}
	changed := junosText(merged) != junosText(j.active)
	if changed || minutes > 0 {
		how := "cli"
		if minutes > 0 {
			how = "cli commit confirmed, rollback in " + strconv.Itoa(minutes) + "mins"
		}
		j.commit(merged, c.user, how)
	}
	c.cand, c.base = merged.clone(), merged.clone()
	if c.mode == "shared" {
		j.shared = c.cand
	}
	out := "commit complete\n"
	if minutes > 0 {
		out = fmt.Sprintf("configuration check succeeds\ncommit confirmed will be automatically rolled back in %d minutes unless confirmed\ncommit complete\n\n# commit confirmed will be rolled back in %d minutes\n", minutes, minutes)
		j.confirm = &junosConfirm{}
		j.confirm.cancel = j.env.afterFunc(time.Duration(minutes)*time.Minute, func() {
			if j.confirm != nil {
				j.rollbackConfirm()
			}
		})
	}
	if quit {
		c.leave()
		out += "Exiting configuration mode\n"
	}
	return reply{out: out, config: true}
}
