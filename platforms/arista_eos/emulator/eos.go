package emulator

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// eos emulates Arista EOS: exec and config modes, config sessions with
// `show session-config diffs`, `commit timer` and `abort` (EOS User
// Manual, "Configuration Sessions"), and the running-config layout of
// `show running-config` (3-space indentation, '!' separators, `end`).
type eos struct {
	env *cli.Env
	g   cli.Grammar
	cur *cli.Tree
	// sessions are the device's configuration sessions, shared by every
	// login: an uncommitted one outlives its client's connection.
	sessions map[string]*eosCfgSession
	// confirm is the pending `commit timer` rollback, or nil.
	confirm *eosConfirm
	// started is when the device booted (uptime for show version and the
	// commit timer's commitBy).
	started time.Time
	// logins numbers the CLI logins (terminal vtyN, pid).
	logins int
	// anon numbers the sessions made without a name.
	anon int
	// clis are the logins connected now.
	clis map[*eosCLI]struct{}
}

// eosCfgSession is one configuration session (EOS User Manual,
// "Configuration Sessions"): pending until committed or aborted,
// pendingCommitTimer after `commit timer` until confirmed, aborted or
// expired, completed after a commit.
type eosCfgSession struct {
	name  string
	tree  *cli.Tree
	state string
	// user is who made the session, commitUser who committed it.
	user, commitUser string
	completed        time.Time
	// expire cancels the 24-hour timeout of an uncommitted session.
	expire func()
	seq    int
}

type eosConfirm struct {
	session string
	prev    *cli.Tree
	cancel  func()
	// deadline is when the commit timer expires.
	deadline time.Time
}

// EOS session limits, as `show configuration sessions` reports them.
const (
	eosMaxOpenSessions  = 5
	eosMaxSavedSessions = 1
	// eosSessionTimeout: "An uncommitted configuration session will be
	// discarded if the switch reboots and will time out after 24 hours."
	eosSessionTimeout = 24 * time.Hour
)

// New returns the constructor of the emulator of an Arista EOS switch
// (CLI, configure sessions, commit timers), started from
// env.Spec.RunningConfig or, when that is empty, from a factory
// configuration. A saved configuration is parsed as push parses a
// running config, with the platform's dialect (config.ParseAsPrinted): one
// parser of EOS running-config text.
func New(dialect func() *pushdialect.Dialect) func(env *cli.Env) (cli.Emulator, error) {
	return func(env *cli.Env) (cli.Emulator, error) {
		e, err := newEOS(env, dialect)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
}

func newEOS(env *cli.Env, dialect func() *pushdialect.Dialect) (*eos, error) {
	e := &eos{env: env, g: eosGrammar(), sessions: map[string]*eosCfgSession{}, started: env.Now(), clis: map[*eosCLI]struct{}{}}
	e.cur = cli.NewTree(e.g)
	if env.Spec.RunningConfig != "" {
		e.cur.LoadExisting(config.ParseAsPrinted(env.Spec.RunningConfig, dialect()))
		return e, nil
	}
	if err := e.cur.Load(eosFactory(env.Spec)); err != nil {
		return nil, fmt.Errorf("factory config (check DeviceSpec.Ports): %w", err)
	}
	return e, nil
}

// Export is `show running-config`, which loadExisting reads back.
func (e *eos) Export() string { return e.Running() }

func eosFactory(sp cli.Spec) string {
	ports := sp.Ports
	if len(ports) == 0 {
		for i := 1; i <= 32; i++ {
			ports = append(ports, fmt.Sprintf("Ethernet%d", i))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `service routing protocols model multi-agent
logging buffered 10000 informational
logging host 192.0.2.10
hostname %s
ip name-server vrf MGMT 192.0.2.53
dns domain lab.example.net
ntp server vrf MGMT 192.0.2.123 iburst
snmp-server location lab-row1-rack4
snmp-server community fabricgen-ro ro
spanning-tree mode mstp
no aaa root
username %s privilege 15 role network-admin nopassword
clock timezone UTC
vrf instance MGMT
`, sp.Name, sp.Username)
	for _, p := range ports {
		if strings.HasPrefix(eosIfaceName(p), "Management") {
			continue
		}
		fmt.Fprintf(&b, "interface %s\n", eosIfaceName(p))
	}
	fmt.Fprintf(&b, `interface Management1
   vrf MGMT
   ip address 192.0.2.%d/24
ip routing
no ip routing vrf MGMT
ip route vrf MGMT 0.0.0.0/0 192.0.2.1
management api http-commands
   no shutdown
`, cli.MgmtOctet(sp.Name))
	return b.String()
}

func (e *eos) Running() string { return e.render(e.cur, true) }

// render prints a tree as `show running-config` does.
func (e *eos) render(t *cli.Tree, header bool) string {
	var b strings.Builder
	if header {
		b.WriteString("! Command: show running-config\n")
		fmt.Fprintf(&b, "! device: %s (cEOSLab, EOS-4.31.2F)\n!\n", e.env.Spec.Name)
		b.WriteString("! boot system flash:/EOS-4.31.2F.swi\n!\n")
	}
	var prev *cli.Node
	for _, k := range t.Root.Sorted() {
		if prev != nil && eosSeparated(prev, k) {
			b.WriteString("!\n")
		}
		b.WriteString(k.Text + "\n")
		if k.Stanza() {
			eosBody(&b, k, "   ")
		}
		prev = k
	}
	b.WriteString("!\nend\n")
	return b.String()
}

// eosSeparated reports whether a '!' line separates two top-level lines:
// before a stanza, after one, and between features (rule orders); around
// opaque lines, where their source had one.
func eosSeparated(prev, k *cli.Node) bool {
	switch {
	case k.Opaque:
		return k.Gap
	case prev.Opaque && k.Src:
		return k.Gap
	case prev.Opaque:
		// After an opaque line, what followed it in its source.
		return prev.GapAfter || k.Stanza() || prev.Stanza()
	}
	po, _ := prev.Rank()
	ko, _ := k.Rank()
	if k.Stanza() || prev.Stanza() {
		return true
	}
	return po != ko && (k.Rule == nil || !k.Rule.Joined)
}

func eosBody(b *strings.Builder, n *cli.Node, indent string) {
	for i, k := range n.Sorted() {
		if i > 0 && ((k.Opaque && k.Gap) || (!k.Opaque && k.Stanza())) {
			b.WriteString(indent + "!\n")
		}
		b.WriteString(indent + k.Text + "\n")
		if k.Stanza() {
			eosBody(b, k, indent+"   ")
		}
	}
}

func (e *eos) OutOfBand(lines []string) error {
	return e.cur.Load(strings.Join(lines, "\n"))
}

func (e *eos) ExpireTimers() {
	if e.confirm != nil {
		e.rollbackConfirm()
	}
}

// rollbackConfirm restores the configuration from before `commit timer`;
// the session is gone (aborted).
func (e *eos) rollbackConfirm() {
	c := e.confirm
	e.confirm = nil
	c.cancel()
	e.cur = c.prev
	delete(e.sessions, c.session)
}

func (e *eos) NewSession(t *cli.Term, user string) cli.Session {
	t.More = " --More-- "
	e.logins++
	c := &eosCLI{e: e, t: t, user: user, priv: true, tty: fmt.Sprintf("vty%d", e.logins+2), pid: 4000 + e.logins}
	e.clis[c] = struct{}{}
	return c
}

// inSession returns the logins in a session now, by pid.
func (e *eos) inSession(s *eosCfgSession) []*eosCLI {
	var out []*eosCLI
	for c := range e.clis {
		if c.session == s {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// eosCLI is one login.
type eosCLI struct {
	e       *eos
	t       *cli.Term
	user    string
	priv    bool
	enable  bool // reading the enable password
	stack   []cli.Frame
	session *eosCfgSession
	// tty and pid name the login in `show configuration sessions`.
	tty string
	pid int
	// banner collects the lines of `banner login|motd` until EOF.
	banner []string
}

func (c *eosCLI) Greeting() string { return "\n" }

func (c *eosCLI) Prompt() string {
	host := c.e.env.Spec.Name
	if c.stack == nil {
		if c.priv {
			return host + "#"
		}
		return host + ">"
	}
	tag := "config"
	if c.session != nil {
		n := c.session.name
		if len(n) > 6 {
			n = n[:6]
		}
		tag += "-s-" + n
	}
	if top := c.stack[len(c.stack)-1].Tag; top != "" {
		tag += "-" + top
	}
	return host + "(" + tag + ")#"
}

// Disconnect leaves the session (if any) as it is: an uncommitted EOS
// session survives its client and times out after 24 hours.
func (c *eosCLI) Disconnect() {
	c.leaveConfig()
	delete(c.e.clis, c)
}

func (c *eosCLI) Reject(line string) cli.Reply {
	return cli.Reply{Out: "% Unavailable command (not supported on this hardware platform)\n", Status: 1, Config: c.stack != nil}
}

var (
	eosMTULine     = regexp.MustCompile(`^mtu (\d+)$`)
	eosNoDropWDRe  = regexp.MustCompile(`^priority-flow-control pause watchdog (?:override |port )?action no-drop$`)
	eosIfFrameName = regexp.MustCompile(`^interface (\S+)$`)
)

// refuse answers the lines the EOS parser takes but the platform refuses:
// an interface mtu above 9214 ("% Max MTU for Ethernet4 is 9194", as cEOS
// answers in ipspace/netlab issue #1890, with the hardware limit), and the
// watchdog action no-drop (aristanetworks/avd issue #6399).
func (c *eosCLI) refuse(line string) (cli.Reply, bool) {
	if eosNoDropWDRe.MatchString(line) {
		return c.Reject(line), true
	}
	m := eosMTULine.FindStringSubmatch(line)
	if m == nil {
		return cli.Reply{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= eosMaxMTU {
		return cli.Reply{}, false
	}
	for i := len(c.stack) - 1; i >= 0; i-- {
		if c.stack[i].Mode != "if" {
			continue
		}
		name := c.stack[i].N.Text
		if mm := eosIfFrameName.FindStringSubmatch(name); mm != nil {
			name = mm[1]
		}
		return cli.Reply{Out: fmt.Sprintf("%% Max MTU for %s is %d\n", name, eosMaxMTU), Status: 1, Config: true}, true
	}
	return cli.Reply{}, false
}

func eosInvalid(line string, tok int) string {
	f := strings.Fields(line)
	bad := ""
	if tok < len(f) {
		bad = f[tok]
	}
	return fmt.Sprintf("%% Invalid input (at token %d: '%s')\n", tok, bad)
}

func (c *eosCLI) tree() *cli.Tree {
	if c.session != nil {
		return c.session.tree
	}
	return c.e.cur
}

func (c *eosCLI) Handle(raw string) cli.Reply {
	if c.enable {
		c.enable = false
		if raw == c.e.env.Spec.Password {
			c.priv = true
			return cli.Reply{}
		}
		return cli.Reply{Out: "% Access denied\n", Status: 1}
	}
	if c.banner != nil {
		return c.bannerLine(raw)
	}
	line := cli.Normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") {
		return cli.Reply{}
	}
	if s := c.session; s != nil && (c.e.sessions[s.name] != s || s.state != "pending") {
		// Another login committed or aborted the session we were in.
		c.leaveConfig()
		return cli.Reply{Out: fmt.Sprintf("%% Configuration session %s has been committed or aborted by another terminal\n", s.name), Status: 1}
	}
	if strings.HasPrefix(line, "show ") || line == "show" {
		return c.show(line)
	}
	if c.stack != nil {
		return c.config(line)
	}
	return c.Exec(line)
}

var eosTimerRe = regexp.MustCompile(`^(\d{1,2}):(\d{2}):(\d{2})$`)

func parseHMS(s string) (time.Duration, bool) {
	m := eosTimerRe.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	se, _ := strconv.Atoi(m[3])
	if mi > 59 || se > 59 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(se)*time.Second, true
}

func (c *eosCLI) Exec(line string) cli.Reply {
	f := strings.Fields(line)
	switch {
	case line == "exit" || line == "logout" || line == "quit":
		return cli.Reply{Exit: true}
	case line == "enable":
		if c.priv {
			return cli.Reply{}
		}
		c.enable = true
		return cli.Reply{Out: "Password: ", Secret: true}
	case line == "disable":
		c.priv = false
		return cli.Reply{}
	case !c.priv:
		return cli.Reply{Out: eosInvalid(line, 0), Status: 1}
	case f[0] == "terminal" && len(f) == 3 && (f[1] == "length" || f[1] == "width"):
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 {
			return cli.Reply{Out: eosInvalid(line, 2), Status: 1}
		}
		if f[1] == "width" {
			c.t.Width = n
			return cli.Reply{Out: fmt.Sprintf("Width set to %d columns.\n", n)}
		}
		c.t.Length = n
		if n == 0 {
			return cli.Reply{Out: "Pagination disabled.\n"}
		}
		return cli.Reply{Out: fmt.Sprintf("Pagination set to %d lines.\n", n)}
	case line == "configure" || line == "configure terminal" || line == "config" || line == "conf t":
		c.session = nil
		c.stack = []cli.Frame{{N: c.e.cur.Root, Mode: "config"}}
		return cli.Reply{}
	case f[0] == "configure" && len(f) >= 2 && f[1] == "session":
		return c.configureSession(f[2:])
	case len(f) == 4 && f[0] == "no" && f[1] == "configure" && f[2] == "session":
		s := c.e.sessions[f[3]]
		if s == nil {
			return cli.Reply{Out: fmt.Sprintf("%% Session %s does not exist\n", f[3]), Status: 1}
		}
		return c.abort(s)
	case line == "write" || line == "write memory" || line == "copy running-config startup-config":
		return cli.Reply{Out: "Copy completed successfully.\n"}
	}
	return cli.Reply{Out: eosInvalid(line, 0), Status: 1}
}

// configureSession handles `configure session [NAME [commit [timer T] |
// abort]]`. Sessions are device-wide: the same name from two logins is
// the same session.
func (c *eosCLI) configureSession(args []string) cli.Reply {
	e := c.e
	name := ""
	if len(args) == 0 {
		e.anon++
		name = fmt.Sprintf("session%d%d", e.env.Now().Unix()%100000, e.anon)
	} else {
		name = args[0]
	}
	s := e.sessions[name]
	if len(args) <= 1 {
		if s == nil {
			pending := 0
			for _, o := range e.sessions {
				if o.state == "pending" {
					pending++
				}
			}
			if pending >= eosMaxOpenSessions {
				return cli.Reply{Out: "% Maximum number of pending sessions has been reached. Please commit or abort an existing session.\n", Status: 1}
			}
			e.anon++
			s = &eosCfgSession{name: name, tree: e.cur.Clone(), state: "pending", user: c.user, seq: e.anon}
			s.expire = e.env.AfterFunc(eosSessionTimeout, func() {
				if e.sessions[name] == s && s.state == "pending" {
					delete(e.sessions, name)
				}
			})
			e.sessions[name] = s
		} else if s.state != "pending" {
			return cli.Reply{Out: fmt.Sprintf("%% Cannot enter session %s (session already %s)\n", name, s.state), Status: 1}
		}
		c.session = s
		c.stack = []cli.Frame{{N: s.tree.Root, Mode: "config"}}
		return cli.Reply{}
	}
	if s == nil {
		return cli.Reply{Out: fmt.Sprintf("%% Session %s does not exist\n", name), Status: 1}
	}
	switch strings.Join(args[1:], " ") {
	case "commit":
		return c.commit(s, 0, false)
	case "abort":
		return c.abort(s)
	}
	if len(args) == 4 && args[1] == "commit" && args[2] == "timer" {
		d, ok := parseHMS(args[3])
		if !ok {
			return cli.Reply{Out: eosInvalid("configure session "+strings.Join(args, " "), 5), Status: 1}
		}
		return c.commit(s, d, true)
	}
	return cli.Reply{Out: eosInvalid("configure session "+strings.Join(args, " "), 3), Status: 1}
}

// commit makes the session the running config. With a timer the commit is
// provisional: unless committed again before it expires, the previous
// configuration comes back.
func (c *eosCLI) commit(s *eosCfgSession, timer time.Duration, timed bool) cli.Reply {
	e := c.e
	switch s.state {
	case "pendingCommitTimer":
		if timed {
			return cli.Reply{Out: "% Cannot commit: session is already pending a commit timer\n", Status: 1}
		}
		if e.confirm != nil && e.confirm.session == s.name {
			e.confirm.cancel()
			e.confirm = nil
		}
		e.complete(s, c.user)
		c.leaveConfig()
		return cli.Reply{Config: true}
	case "pending":
	default:
		return cli.Reply{Out: fmt.Sprintf("%% Cannot commit: session %s is %s\n", s.name, s.state), Status: 1}
	}
	if timed && e.confirm != nil {
		return cli.Reply{Out: "% Cannot commit: another session is pending a commit timer\n", Status: 1}
	}
	prev := e.cur
	e.cur = s.tree.Clone()
	if s.expire != nil {
		s.expire()
		s.expire = nil
	}
	if timed {
		s.state = "pendingCommitTimer"
		s.commitUser = c.user
		e.confirm = &eosConfirm{session: s.name, prev: prev, deadline: e.env.Now().Add(timer)}
		e.confirm.cancel = e.env.AfterFunc(timer, func() {
			if e.confirm != nil && e.confirm.session == s.name {
				e.rollbackConfirm()
			}
		})
	} else {
		e.complete(s, c.user)
	}
	c.leaveConfig()
	return cli.Reply{Config: true}
}

// complete marks a session committed; only the newest
// eosMaxSavedSessions completed sessions are kept.
func (e *eos) complete(s *eosCfgSession, user string) {
	s.state, s.commitUser, s.completed = "completed", user, e.env.Now()
	var done []*eosCfgSession
	for _, o := range e.sessions {
		if o.state == "completed" {
			done = append(done, o)
		}
	}
	sort.Slice(done, func(i, j int) bool { return done[i].seq > done[j].seq })
	for _, o := range done[min(len(done), eosMaxSavedSessions):] {
		delete(e.sessions, o.name)
	}
}

// abort discards a pending session, or rolls back one pending a commit
// timer.
func (c *eosCLI) abort(s *eosCfgSession) cli.Reply {
	e := c.e
	switch s.state {
	case "pending":
		if s.expire != nil {
			s.expire()
		}
		delete(e.sessions, s.name)
	case "pendingCommitTimer":
		if e.confirm != nil && e.confirm.session == s.name {
			e.rollbackConfirm()
		}
		delete(e.sessions, s.name)
	default:
		return cli.Reply{Out: fmt.Sprintf("%% Cannot abort: session %s is %s\n", s.name, s.state), Status: 1}
	}
	s.state = "aborted"
	c.leaveConfig()
	return cli.Reply{Config: true}
}

func (c *eosCLI) leaveConfig() {
	c.stack = nil
	c.session = nil
}

// bannerLine takes one line of banner text; EOF on its own line ends it
// and stores the banner (an opaque block, where a loaded configuration had
// it, else before the management stanzas).
func (c *eosCLI) bannerLine(raw string) cli.Reply {
	text := strings.TrimRight(raw, "\r")
	if strings.TrimSpace(text) != "EOF" {
		c.banner = append(c.banner, text)
		return cli.Reply{Config: true}
	}
	lines := append(c.banner, "EOF")
	c.banner = nil
	t := c.tree()
	head := lines[0]
	kept := t.Root.Kids[:0]
	for _, k := range t.Root.Kids {
		if !k.Opaque || strings.SplitN(k.Text, "\n", 2)[0] != head {
			kept = append(kept, k)
		}
	}
	t.Root.SetKids(kept)
	ll, ok := t.Learned[cli.PathKey(c.stack[:1], head)]
	if !ok {
		ll = cli.LearnedLine{Anchor: -1, Gap: true}
		for _, x := range t.G["config"] {
			if x.Head == "management api http-commands" {
				ll.Anchor = x.Order - 1
			}
		}
		t.Seq++
		ll.Seq = t.Seq
	}
	t.RestoreOpaque(t.Root, strings.Join(lines, "\n"), ll)
	return cli.Reply{Config: true}
}

func (c *eosCLI) config(line string) cli.Reply {
	if f := strings.Fields(line); len(f) == 2 && f[0] == "banner" && (f[1] == "login" || f[1] == "motd") {
		c.banner = []string{line}
		c.stack = c.stack[:1]
		return cli.Reply{Out: "Enter TEXT message. Type 'EOF' on its own line to end.\n", Config: true}
	}
	if rest, ok := cli.CutHead(line, "no banner"); ok && (rest == "login" || rest == "motd") {
		t := c.tree()
		kept := t.Root.Kids[:0]
		for _, k := range t.Root.Kids {
			if !k.Opaque || strings.SplitN(k.Text, "\n", 2)[0] != "banner "+rest {
				kept = append(kept, k)
			}
		}
		t.Root.SetKids(kept)
		c.stack = c.stack[:1]
		return cli.Reply{Config: true}
	}
	switch line {
	case "end":
		c.leaveConfig()
		return cli.Reply{}
	case "exit":
		if len(c.stack) == 1 {
			c.leaveConfig()
		} else {
			c.stack = c.stack[:len(c.stack)-1]
		}
		return cli.Reply{}
	}
	if c.session != nil {
		switch {
		case line == "commit":
			return c.commit(c.session, 0, false)
		case line == "abort":
			return c.abort(c.session)
		case strings.HasPrefix(line, "commit timer "):
			d, ok := parseHMS(strings.TrimPrefix(line, "commit timer "))
			if !ok {
				return cli.Reply{Out: eosInvalid(line, 2), Status: 1, Config: true}
			}
			return c.commit(c.session, d, true)
		case line == "rollback clean-config":
			clean := cli.NewTree(c.e.g)
			clean.Learned = c.e.cur.Learned
			c.session.tree = clean
			c.stack = []cli.Frame{{N: c.session.tree.Root, Mode: "config"}}
			return cli.Reply{Config: true}
		}
	}
	if rest, ok := cli.CutHead(line, "do"); ok && rest != "" {
		saved := c.stack
		c.stack = nil
		r := c.Exec(rest)
		if c.stack == nil {
			c.stack = saved
		}
		return r
	}
	if r, ok := c.refuse(line); ok {
		return r
	}
	stack, err := c.tree().Apply(c.stack, line)
	if err != nil {
		var u *cli.ErrUnknown
		if errors.As(err, &u) && u.Incomplete {
			return cli.Reply{Out: "% Incomplete command\n", Status: 1, Config: true}
		}
		tok := 0
		if u != nil {
			tok = u.Token
		}
		return cli.Reply{Out: eosInvalid(line, tok), Status: 1, Config: true}
	}
	c.stack = stack
	return cli.Reply{Config: true}
}

func (c *eosCLI) show(line string) cli.Reply {
	cmd, filters := cli.SplitPipe(line)
	var out string
	switch {
	case cmd == "show running-config" || cmd == "show running-config all":
		out = c.e.Running()
	case cmd == "show session-config diffs" && c.session != nil:
		out = c.sessionDiff(c.session)
	case cmd == "show session-config" && c.session != nil:
		out = c.e.render(c.session.tree, false)
	case strings.HasPrefix(cmd, "show session-config named "):
		f := strings.Fields(cmd)
		s := c.e.sessions[f[3]]
		if s == nil {
			return cli.Reply{Out: fmt.Sprintf("%% Session %s does not exist\n", f[3]), Status: 1}
		}
		switch {
		case len(f) == 4:
			out = c.e.render(s.tree, false)
		case len(f) == 5 && f[4] == "diffs":
			out = c.sessionDiff(s)
		default:
			return cli.Reply{Out: eosInvalid(cmd, 4), Status: 1}
		}
	case cmd == "show configuration sessions" || cmd == "show configuration sessions detail":
		if len(filters) > 0 && filters[0] == "json" {
			return cli.Reply{Out: c.sessionsJSON(cmd != "show configuration sessions")}
		}
		out = c.sessionTable(cmd != "show configuration sessions")
	case cmd == "show version" && len(filters) > 0 && filters[0] == "json":
		return cli.Reply{Out: cli.JSON(map[string]any{"hostname": c.e.env.Spec.Name, "modelName": "cEOSLab", "version": "4.31.2F",
			"uptime": c.e.uptime(), "bootupTimestamp": float64(c.e.started.UnixNano()) / 1e9})}
	case cmd == "show version":
		out = fmt.Sprintf("Arista cEOSLab\nHardware version: \nSerial number: LAB%08d\nSystem MAC address: 001c.7300.%04x\n\nSoftware image version: 4.31.2F\nArchitecture: x86_64\n", cli.MgmtOctet(c.e.env.Spec.Name), cli.MgmtOctet(c.e.env.Spec.Name))
	case cmd == "show hostname":
		out = fmt.Sprintf("Hostname: %s\nFQDN:     %s.lab.example.net\n", c.e.env.Spec.Name, c.e.env.Spec.Name)
	case cmd == "show clock":
		out = c.e.env.Now().UTC().Format("Mon Jan 2 15:04:05 2006") + "\nTimezone: UTC\nClock source: local\n"
	default:
		// Counters, optics and queues come from the lab's data plane.
		if o, st, ok := c.e.env.DataPlane.Show(c.e.env.Spec.Platform, line); ok {
			return cli.Reply{Out: o, Status: st}
		}
		return cli.Reply{Out: eosInvalid(cmd, 1), Status: 1}
	}
	if len(filters) > 0 && filters[0] == "json" {
		return cli.Reply{Out: "% This is an unconverted command\n", Status: 1}
	}
	out, err := cli.ApplyFilters(out, filters)
	if err != nil {
		return cli.Reply{Out: "% Invalid input (" + err.Error() + ")\n", Status: 1}
	}
	return cli.Reply{Out: out}
}

func (c *eosCLI) sessionDiff(s *eosCfgSession) string {
	return cli.UnifiedDiff("system:/running-config", "session:/"+s.name+"-session-config",
		c.e.render(c.e.cur, false), c.e.render(s.tree, false))
}

// uptime is seconds since the device started.
func (e *eos) uptime() float64 { return e.env.Now().Sub(e.started).Seconds() }

// sessionNames lists the sessions, oldest first.
func (e *eos) sessionNames() []string {
	names := make([]string, 0, len(e.sessions))
	for n := range e.sessions {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return e.sessions[names[i]].seq < e.sessions[names[j]].seq })
	return names
}

// instances are the logins currently in a session.
func (c *eosCLI) instances(s *eosCfgSession) map[string]any {
	out := map[string]any{}
	for _, o := range c.e.inSession(s) {
		out[strconv.Itoa(o.pid)] = map[string]any{"user": o.user, "terminal": o.tty, "currentTerminal": o == c}
	}
	return out
}

// sessionsJSON prints `show configuration sessions [detail] | json`, in
// the shape eAPI returns: sessions by name with state (pending,
// pendingCommitTimer, completed), commitUser, description, instances and
// completedTime; with a commit timer pending, the session has commitBy
// and (detail) the top level commitTimerSessionName and
// commitTimerExpireTime, both in seconds of uptime, as EOS 4.32 does.
func (c *eosCLI) sessionsJSON(detail bool) string {
	e := c.e
	sessions := map[string]any{}
	for _, n := range e.sessionNames() {
		s := e.sessions[n]
		m := map[string]any{"state": s.state, "commitUser": s.commitUser, "description": "", "instances": c.instances(s)}
		if s.state == "completed" {
			m["completedTime"] = float64(s.completed.UnixNano()) / 1e9
		}
		if s.state == "pendingCommitTimer" && e.confirm != nil && e.confirm.session == n {
			m["commitBy"] = e.confirm.deadline.Sub(e.started).Seconds()
		}
		sessions[n] = m
	}
	out := map[string]any{"sessions": sessions, "maxSavedSessions": eosMaxSavedSessions, "maxOpenSessions": eosMaxOpenSessions,
		"mergeOnCommit": false, "saveToStartupConfigOnCommit": false}
	if detail && e.confirm != nil {
		out["commitTimerSessionName"] = e.confirm.session
		out["commitTimerExpireTime"] = e.confirm.deadline.Sub(e.started).Seconds()
	}
	return cli.JSON(out)
}

// sessionTable prints `show configuration sessions [detail]`.
func (c *eosCLI) sessionTable(detail bool) string {
	e := c.e
	var b strings.Builder
	fmt.Fprintf(&b, "Maximum number of completed sessions: %d\nMaximum number of pending sessions: %d\n", eosMaxSavedSessions, eosMaxOpenSessions)
	b.WriteString("Merge on commit is disabled\nAutosave to startup-config on commit is disabled\n\n")
	if e.confirm != nil {
		left := e.confirm.deadline.Sub(e.env.Now()).Round(time.Second)
		fmt.Fprintf(&b, "Session with pending commit timer: %s\nTime left until commit timer expiry: in %s\n\n", e.confirm.session, fmtHMS(left))
	}
	if detail {
		b.WriteString("  Name                   State                User       Terminal PID    Committed By\n")
		b.WriteString("- ---------------------- -------------------- ---------- -------- ------ ------------\n")
	} else {
		b.WriteString("  Name                   State                User       Terminal\n")
		b.WriteString("- ---------------------- -------------------- ---------- --------\n")
	}
	for _, n := range e.sessionNames() {
		s := e.sessions[n]
		ins := e.inSession(s)
		marker := " "
		if c.session == s {
			marker = "*"
		}
		user, tty, pid := s.user, "", ""
		if len(ins) > 0 {
			user, tty, pid = ins[0].user, ins[0].tty, strconv.Itoa(ins[0].pid)
		}
		if detail {
			fmt.Fprintf(&b, "%s %-22s %-20s %-10s %-8s %-6s %s\n", marker, n, s.state, user, tty, pid, s.commitUser)
		} else {
			fmt.Fprintf(&b, "%s %-22s %-20s %-10s %s\n", marker, n, s.state, user, tty)
		}
	}
	return b.String()
}

// fmtHMS prints a duration as h:mm:ss.
func fmtHMS(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Seconds())
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// changes: in configuration mode every line but navigation and show
// changes the session or the running config; in exec mode only what
// commits, aborts or saves a configuration does.
func (c *eosCLI) Changes(raw string) bool {
	if c.enable {
		return false
	}
	if c.banner != nil {
		return true
	}
	line := cli.Normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") || line == "show" || strings.HasPrefix(line, "show ") {
		return false
	}
	if c.stack != nil {
		switch line {
		case "end", "exit":
			return false
		}
		if rest, ok := cli.CutHead(line, "do"); ok {
			return eosExecChanges(rest)
		}
		return true
	}
	return eosExecChanges(line)
}

// eosExecChanges classifies an exec-mode command.
func eosExecChanges(line string) bool {
	f := strings.Fields(line)
	switch {
	case len(f) == 0 || f[0] == "show":
		return false
	case f[0] == "configure" && len(f) >= 4 && f[1] == "session":
		return f[3] == "commit" || f[3] == "abort"
	case f[0] == "no" && len(f) >= 3 && f[1] == "configure" && f[2] == "session":
		return true
	case f[0] == "write", f[0] == "copy", f[0] == "rollback", f[0] == "reload", f[0] == "delete":
		return true
	}
	return false
}

// PendingConfirm reports whether a commit waits for its confirm timer.
func (e *eos) PendingConfirm() bool { return e.confirm != nil }
