package lab

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

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
	for _, l := range t.setLines() {
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
	case f[0] == "set" || f[0] == "delete" || f[0] == "deactivate" || f[0] == "activate":
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

// changes: in configuration mode the statements and the commands that
// load, commit or roll back change the candidate or the configuration;
// show, edit, top, up, status and exit do not. In operational mode only
// requests and clears do.
func (c *junosCLI) changes(raw string) bool {
	if c.load {
		return true
	}
	line := normalize(raw)
	if line == "" {
		return false
	}
	cmd, _ := splitPipe(line)
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
