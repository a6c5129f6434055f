package emulator

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

func (j *junos) NewSession(t *cli.Term, user string) cli.Session {
	t.More = "---(more)---"
	j.logins++
	c := &junosCLI{j: j, t: t, user: user, tty: fmt.Sprintf("pts/%d", j.logins-1), pid: 4200 + j.logins, since: j.env.Now()}
	j.clis[c] = struct{}{}
	return c
}

// editors lists the other logins in configuration mode, as Junos names
// them: "USER terminal pts/N (pid P) on since DATE" and, on the next line,
// the mode and hierarchy ("[edit]", "exclusive [edit interfaces]").
func (c *junosCLI) editors() string {
	var others []*junosCLI
	for o := range c.j.clis {
		if o != c && o.cand != nil {
			others = append(others, o)
		}
	}
	sort.Slice(others, func(a, b int) bool { return others[a].pid < others[b].pid })
	var b strings.Builder
	for _, o := range others {
		where := "[edit]"
		if len(o.edit) > 0 {
			where = "[edit " + strings.Join(o.edit, " ") + "]"
		}
		if o.mode == "exclusive" || o.mode == "private" {
			where = o.mode + " " + where
		}
		fmt.Fprintf(&b, "  %s terminal %s (pid %d) on since %s\n      %s\n", o.user, o.tty, o.pid, o.since.UTC().Format("2006-01-02 15:04:05 MST"), where)
	}
	return b.String()
}

type junosCLI struct {
	j     *junos
	t     *cli.Term
	user  string
	cand  *cli.PathTree // nil in operational mode
	base  *cli.PathTree
	mode  string // private, exclusive or shared
	edit  []string
	load  bool // reading `load set terminal` input
	loadN int
	errs  int
	// tty, pid and since name the login to other users.
	tty   string
	pid   int
	since time.Time
}

func (c *junosCLI) Greeting() string {
	return "--- JUNOS 23.4R1.9 Kernel 64-bit  JNPR-12.1-20231207.2bd1e5b_buil\n"
}

func (c *junosCLI) Prompt() string {
	if c.load {
		return ""
	}
	p := c.user + "@" + c.j.env.Spec.Name
	if c.cand == nil {
		return p + "> "
	}
	edit := "[edit]"
	if len(c.edit) > 0 {
		edit = "[edit " + strings.Join(c.edit, " ") + "]"
	}
	return "\n" + edit + "\n" + p + "# "
}

// Disconnect discards a private or exclusive candidate and releases the
// lock, as Junos does when such a configuration session ends; changes to
// the shared candidate stay.
func (c *junosCLI) Disconnect() {
	c.leave()
	delete(c.j.clis, c)
}

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

func (c *junosCLI) Reject(line string) cli.Reply {
	if strings.HasPrefix(line, "commit") {
		return cli.Reply{Out: "error: configuration check-out failed\n", Status: 1, Config: true}
	}
	return cli.Reply{Out: c.caret(line, 1) + "syntax error.\n", Status: 1, Config: c.cand != nil}
}

func (c *junosCLI) caret(line string, tok int) string {
	col := len(c.user) + 1 + len(c.j.env.Spec.Name) + 2
	f := strings.Fields(line)
	for i := 0; i < tok && i < len(f); i++ {
		col += len(f[i]) + 1
	}
	return strings.Repeat(" ", col) + "^\n"
}

func (c *junosCLI) Handle(raw string) cli.Reply {
	if c.load {
		return c.loadLine(raw)
	}
	line := cli.Normalize(raw)
	if line == "" {
		return cli.Reply{}
	}
	if c.cand == nil {
		return c.op(line)
	}
	return c.config(line)
}

func (c *junosCLI) op(line string) cli.Reply {
	cmd, filters := cli.SplitPipe(line)
	f := strings.Fields(cmd)
	j := c.j
	switch {
	case cmd == "exit" || cmd == "quit":
		return cli.Reply{Exit: true}
	case len(f) == 4 && f[0] == "set" && f[1] == "cli" && (f[2] == "screen-width" || f[2] == "screen-length"):
		n, err := strconv.Atoi(f[3])
		if err != nil {
			return cli.Reply{Out: c.caret(cmd, 3) + "syntax error, expecting <number>.\n", Status: 1}
		}
		if f[2] == "screen-length" {
			c.t.Length = n
			return cli.Reply{Out: fmt.Sprintf("Screen length set to %d\n", n)}
		}
		c.t.Width = n
		return cli.Reply{Out: fmt.Sprintf("Screen width set to %d\n", n)}
	case cmd == "set cli complete-on-space off":
		return cli.Reply{Out: "Disabling complete-on-space\n"}
	case cmd == "configure":
		if j.shared == nil {
			j.shared = j.active.Clone()
		}
		out := "Entering configuration mode\n"
		if ed := c.editors(); ed != "" {
			out += "Users currently editing the configuration:\n" + ed
		}
		if j.sharedModified() {
			out += "The configuration has been changed but not committed\n"
		}
		c.cand, c.base, c.mode, c.edit = j.shared, nil, "shared", nil
		return cli.Reply{Out: out}
	case cmd == "configure private" || cmd == "configure exclusive":
		// Junos CLI User Guide, "Forms of the configure Command": an
		// exclusive lock, or uncommitted changes in the shared candidate
		// (anyone's), keep the user in operational mode.
		if j.lock != nil {
			return cli.Reply{Out: "error: configuration database locked by:\n" + j.lock.lockLine(), Status: 1}
		}
		if j.sharedModified() {
			out := ""
			if ed := c.editors(); ed != "" {
				out = "Users currently editing the configuration:\n" + ed
			}
			if cmd == "configure private" {
				return cli.Reply{Out: out + "error: shared configuration database modified\n", Status: 1}
			}
			return cli.Reply{Out: out + "error: configuration database modified\n", Status: 1}
		}
		out := "warning: uncommitted changes will be discarded on exit\n"
		if ed := c.editors(); ed != "" {
			out = "Users currently editing the configuration:\n" + ed + out
		}
		c.cand, c.base, c.edit = j.active.Clone(), j.active.Clone(), nil
		c.mode = strings.TrimPrefix(cmd, "configure ")
		if c.mode == "exclusive" {
			j.lock = c
		}
		return cli.Reply{Out: out + "Entering configuration mode\n"}
	case cmd == "show configuration":
		return c.filter(j.Running(), filters)
	case len(f) > 2 && f[0] == "show" && f[1] == "configuration":
		sub := j.active.Subtree(f[2:])
		saved := c.j.active
		c.j.active = sub
		r := c.filter(junosText(sub), filters)
		c.j.active = saved
		return r
	case cmd == "show system commit":
		return c.filter(j.commitHistory(), filters)
	case cmd == "show version":
		return cli.Reply{Out: fmt.Sprintf("Hostname: %s\nModel: qfx5220-32cd\nJunos: 23.4R1.9\n", j.env.Spec.Name)}
	}
	// Counters, optics and queues come from the lab's data plane.
	if o, st, ok := j.env.DataPlane.Show(j.env.Spec.Platform, line); ok {
		return cli.Reply{Out: o, Status: st}
	}
	return cli.Reply{Out: c.caret(cmd, 0) + "unknown command.\n", Status: 1}
}

// filter applies Junos pipes: display set, no-more, match, except, compare.
func (c *junosCLI) filter(out string, filters []string) cli.Reply {
	for _, f := range filters {
		switch {
		case f == "display set":
			out = c.displaySet(out)
		case f == "no-more":
		case strings.HasPrefix(f, "match "):
			o, err := cli.ApplyFilters(out, []string{"include " + strings.TrimPrefix(f, "match ")})
			if err != nil {
				return cli.Reply{Out: "error: " + err.Error() + "\n", Status: 1}
			}
			out = o
		case strings.HasPrefix(f, "except "):
			o, err := cli.ApplyFilters(out, []string{"exclude " + strings.TrimPrefix(f, "except ")})
			if err != nil {
				return cli.Reply{Out: "error: " + err.Error() + "\n", Status: 1}
			}
			out = o
		default:
			return cli.Reply{Out: "syntax error, expecting <command>: " + f + "\n", Status: 1}
		}
	}
	return cli.Reply{Out: out}
}

// displaySetOf prints the active configuration in set form.
func (j *junos) displaySetOf() string { return setForm(j.active) }

func setForm(t *cli.PathTree) string {
	var b strings.Builder
	b.WriteString("set version 23.4R1.9\n")
	for _, l := range t.SetLines() {
		b.WriteString(l + "\n")
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

// lockLine names the holder of the exclusive lock, as Junos does.
func (c *junosCLI) lockLine() string {
	where := "[edit]"
	if len(c.edit) > 0 {
		where = "[edit " + strings.Join(c.edit, " ") + "]"
	}
	return fmt.Sprintf("  %s terminal %s (pid %d) on since %s\n      exclusive %s\n", c.user, c.tty, c.pid, c.since.UTC().Format("2006-01-02 15:04:05 MST"), where)
}

// commitHistory prints `show system commit`: one line per commit, newest
// first ("0   2026-03-10 09:12:44 UTC by admin via cli"), a `commit
// confirmed` one ending in "commit confirmed, rollback in Nmins", the
// comment on the next line, and "rollback pending" under the commit that
// still waits for its confirmation.
func (j *junos) commitHistory() string {
	var b strings.Builder
	for i, h := range j.history {
		fmt.Fprintf(&b, "%-4d%s by %s via %s\n", i, h.when.UTC().Format("2006-01-02 15:04:05 MST"), h.user, h.how)
		if h.comment != "" {
			fmt.Fprintf(&b, "    %s\n", h.comment)
		}
		if j.confirm != nil && j.confirm.entry == h {
			b.WriteString("    rollback pending\n")
		}
	}
	return b.String()
}

func (c *junosCLI) config(line string) cli.Reply {
	j := c.j
	cmd, filters := cli.SplitPipe(line)
	f := strings.Fields(cmd)
	if r, ok := c.navigate(cmd, f); ok {
		return r
	}
	switch {
	case cmd == "show" && len(filters) == 1 && filters[0] == "compare":
		return cli.Reply{Out: junosCompare(j.active, c.cand)}
	case cmd == "show":
		return c.filter(junosText(c.cand), filters)
	case cmd == "commit check":
		// commit check also confirms a pending commit confirmed.
		if j.confirm != nil {
			j.confirm.cancel()
			j.confirm = nil
		}
		return cli.Reply{Out: "configuration check succeeds\n"}
	case f[0] == "commit":
		return c.commit(cmd)
	case junosEdits[f[0]] && c.mode == "shared" && j.lock != nil && j.lock != c:
		// "Other users can enter and exit configuration mode, but they
		// cannot change the configuration" (configure exclusive).
		return cli.Reply{Out: "error: configuration database locked by:\n" + j.lock.lockLine(), Status: 1, Config: true}
	case cmd == "rollback" || (len(f) == 2 && f[0] == "rollback"):
		return c.rollback(cmd, f)
	case cmd == "load set terminal":
		c.load, c.loadN, c.errs = true, 0, 0
		return cli.Reply{Out: "[Type ^D at a new line to end input]\n"}
	case f[0] == "set" || f[0] == "delete" || f[0] == "deactivate" || f[0] == "activate":
		return c.statement(cmd, f)
	case strings.HasPrefix(cmd, "run "):
		saved := c.cand
		c.cand = nil
		r := c.op(strings.TrimPrefix(line, "run "))
		if c.cand == nil {
			c.cand = saved
		}
		return r
	}
	return cli.Reply{Out: c.caret(cmd, 0) + "syntax error.\n", Status: 1}
}

// junosEdits are the configuration-mode commands that change the
// candidate, refused to other users under configure exclusive.
var junosEdits = map[string]bool{"set": true, "delete": true, "deactivate": true, "activate": true, "load": true, "rollback": true}

// navigate handles the configuration-mode commands that move around or
// report: exit, quit, status, top, up, edit and update.
func (c *junosCLI) navigate(cmd string, f []string) (cli.Reply, bool) {
	switch {
	case cmd == "exit" || cmd == "quit" || cmd == "exit configuration-mode":
		if len(c.edit) > 0 && cmd != "exit configuration-mode" {
			c.edit = c.edit[:len(c.edit)-1]
			return cli.Reply{}, true
		}
		out := "Exiting configuration mode\n"
		if c.mode != "shared" && junosText(c.cand) != junosText(c.base) {
			out = "warning: uncommitted changes will be discarded on exit\n" + out
		}
		c.leave()
		return cli.Reply{Out: out}, true
	case cmd == "status":
		ed := c.editors()
		return cli.Reply{Out: "Users currently editing the configuration:\n" + fmt.Sprintf("  %s terminal %s (pid %d) on since %s\n      [edit]\n", c.user, c.tty, c.pid, c.since.UTC().Format("2006-01-02 15:04:05 MST")) + ed}, true
	case cmd == "top":
		c.edit = nil
		return cli.Reply{}, true
	case cmd == "up":
		if len(c.edit) > 0 {
			c.edit = c.edit[:len(c.edit)-1]
		}
		return cli.Reply{}, true
	case f[0] == "edit" && len(f) > 1:
		c.edit = append(c.edit, f[1:]...)
		return cli.Reply{}, true
	case cmd == "update" && c.mode == "private":
		fresh := c.j.active.Clone()
		fresh.MergeChanges(c.base, c.cand)
		c.cand, c.base = fresh, c.j.active.Clone()
		return cli.Reply{}, true
	}
	return cli.Reply{}, false
}

// commit handles `commit [confirmed N] [comment ...] [and-quit]`.
func (c *junosCLI) commit(cmd string) cli.Reply {
	opts, err := parseJunosCommit(cmd)
	if err != nil {
		return cli.Reply{Out: c.caret(cmd, err.token) + err.msg + "\n", Status: 1}
	}
	if opts.minutes > 0 && c.mode == "private" {
		// Junos OS CLI User Guide, "Using the configure private
		// Command": commit confirmed cannot be issued in configure
		// private mode.
		return cli.Reply{Out: "error: 'commit confirmed' is not supported in configure private mode; use configure exclusive\n", Status: 1, Config: true}
	}
	return c.commitCmd(opts)
}

// rollback handles `rollback [N]`: the candidate becomes commit N.
func (c *junosCLI) rollback(cmd string, f []string) cli.Reply {
	j := c.j
	n := 0
	if len(f) == 2 {
		v, err := strconv.Atoi(f[1])
		if err != nil || v < 0 || v > 49 {
			return cli.Reply{Out: c.caret(cmd, 1) + "syntax error, expecting <number>.\n", Status: 1}
		}
		n = v
	}
	if n >= len(j.history) {
		return cli.Reply{Out: fmt.Sprintf("error: Cannot find rollback file: rollback %d\n", n), Status: 1}
	}
	rolled := j.history[n].tree.Clone()
	if c.mode == "shared" {
		j.shared = rolled
	}
	c.cand = rolled
	return cli.Reply{Out: "load complete\n", Config: true}
}

// statement applies set, delete, deactivate or activate, relative to the
// edit level.
func (c *junosCLI) statement(cmd string, f []string) cli.Reply {
	full := cmd
	if len(c.edit) > 0 {
		full = f[0] + " " + strings.Join(c.edit, " ") + " " + strings.Join(f[1:], " ")
	}
	err := c.j.Apply(c.cand, full)
	var unknown *cli.ErrUnknown
	switch {
	case err == nil:
		return cli.Reply{Config: true}
	case errors.As(err, &unknown):
		return cli.Reply{Out: c.caret(cmd, unknown.Token) + "syntax error.\n", Status: 1, Config: true}
	case errors.Is(err, errStatementNotFound):
		return cli.Reply{Out: "warning: statement not found\n", Config: true}
	}
	return cli.Reply{Out: "syntax error: " + err.Error() + "\n", Status: 1, Config: true}
}

// loadLine reads one line of `load set terminal` input; ^D ends it.
func (c *junosCLI) loadLine(raw string) cli.Reply {
	if raw == "\x04" {
		c.load = false
		if c.errs > 0 {
			return cli.Reply{Out: fmt.Sprintf("load complete (%d errors)\n", c.errs), Status: 1, Config: true}
		}
		return cli.Reply{Out: "load complete\n", Config: true}
	}
	c.loadN++
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Reply{}
	}
	if err := c.j.Apply(c.cand, line); err != nil && !errors.Is(err, errStatementNotFound) {
		c.errs++
		return cli.Reply{Out: fmt.Sprintf("terminal:%d:(0) syntax error: %s\n", c.loadN, line), Config: true}
	}
	return cli.Reply{Config: true}
}

// junosCommitOpts are the options of one commit command.
type junosCommitOpts struct {
	minutes int
	comment string
	quit    bool
}

// junosSyntax is a commit syntax error at a token.
type junosSyntax struct {
	token int
	msg   string
}

// parseJunosCommit reads `commit [confirmed [N]] [comment "TEXT"]
// [and-quit] [synchronize]` (options in any order).
func parseJunosCommit(cmd string) (junosCommitOpts, *junosSyntax) {
	var o junosCommitOpts
	toks, err := cli.ConfigTokens(cmd)
	if err != nil {
		return o, &junosSyntax{0, "syntax error: " + err.Error()}
	}
	for i := 1; i < len(toks); i++ {
		switch toks[i] {
		case "confirmed":
			o.minutes = 10
			if i+1 < len(toks) {
				if n, err := strconv.Atoi(toks[i+1]); err == nil {
					if n < 1 || n > 65535 {
						return o, &junosSyntax{i + 1, "syntax error, expecting <number>."}
					}
					o.minutes = n
					i++
				}
			}
		case "comment":
			if i+1 >= len(toks) {
				return o, &junosSyntax{i, "syntax error, expecting <data>."}
			}
			o.comment = strings.Trim(toks[i+1], `"`)
			i++
		case "and-quit":
			o.quit = true
		case "synchronize", "no-synchronize":
		default:
			return o, &junosSyntax{i, "syntax error."}
		}
	}
	return o, nil
}

// commitCmd commits the candidate: the changes made since the candidate
// was taken are merged into the active configuration (a private
// candidate's semantics). A `commit confirmed` rolls back unless another
// commit (or commit check) confirms it in time. Every commit is recorded,
// even one without changes, as on Junos.
func (c *junosCLI) commitCmd(o junosCommitOpts) cli.Reply {
	minutes, quit := o.minutes, o.quit
	j := c.j
	if j.lock != nil && j.lock != c {
		return cli.Reply{Out: "error: configuration database locked by:\n  " + j.lock.user + " (exclusive)\nerror: configuration check-out failed\n", Status: 1, Config: true}
	}
	if c.mode == "private" && j.sharedModified() {
		return cli.Reply{Out: "error: shared configuration database modified\nerror: configuration check-out failed\n", Status: 1, Config: true}
	}
	merged := c.cand.Clone()
	if c.mode == "private" {
		// A private candidate's changes are merged into the configuration
		// committed meanwhile.
		merged = j.active.Clone()
		merged.MergeChanges(c.base, c.cand)
	}
	if err := checkForwardingClasses(merged); err != nil {
		return cli.Reply{Out: "error: " + err.Error() + "\nerror: configuration check-out failed\n", Status: 1, Config: true}
	}
	if j.confirm != nil {
		// Any commit confirms a pending commit confirmed.
		j.confirm.cancel()
		j.confirm = nil
	}
	how := "cli"
	if minutes > 0 {
		how = "cli commit confirmed, rollback in " + strconv.Itoa(minutes) + "mins"
	}
	entry := j.commit(merged, c.user, how)
	entry.comment = o.comment
	c.cand, c.base = merged.Clone(), merged.Clone()
	if c.mode == "shared" {
		j.shared = c.cand
	}
	out := "commit complete\n"
	if minutes > 0 {
		out = fmt.Sprintf("configuration check succeeds\ncommit confirmed will be automatically rolled back in %d minutes unless confirmed\ncommit complete\n\n# commit confirmed will be rolled back in %d minutes\n", minutes, minutes)
		j.confirm = &junosConfirm{entry: entry, deadline: j.env.Now().Add(time.Duration(minutes) * time.Minute)}
		j.confirm.cancel = j.env.AfterFunc(time.Duration(minutes)*time.Minute, func() {
			if j.confirm != nil {
				j.rollbackConfirm()
			}
		})
	}
	if quit {
		c.leave()
		out += "Exiting configuration mode\n"
	}
	return cli.Reply{Out: out, Config: true}
}

// changes: in configuration mode the statements and the commands that
// load, commit or roll back change the candidate or the configuration;
// show, edit, top, up, status and exit do not. In operational mode only
// requests and clears do.
func (c *junosCLI) Changes(raw string) bool {
	if c.load {
		return true
	}
	line := cli.Normalize(raw)
	if line == "" {
		return false
	}
	cmd, _ := cli.SplitPipe(line)
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return false
	}
	if c.cand == nil {
		return junosOpChanges(f)
	}
	switch f[0] {
	case "show", "edit", "top", "up", "exit", "quit", "status", "help", "wildcard":
		return false
	case "run":
		return junosOpChanges(f[1:])
	}
	return true
}

func junosOpChanges(f []string) bool {
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "request", "clear", "restart", "file", "start":
		return true
	}
	return false
}
