package lab

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// eos emulates Arista EOS: exec and config modes, config sessions with
// `show session-config diffs`, `commit timer` and `abort` (EOS User
// Manual, "Configuration Sessions"), and the running-config layout of
// `show running-config` (3-space indentation, '!' separators, `end`).
type eos struct {
	env *deviceEnv
	g   grammar
	cur *cfgTree
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
	tree  *cfgTree
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
	prev    *cfgTree
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

func newEOS(env *deviceEnv) (*eos, error) {
	e := &eos{env: env, g: eosGrammar(), sessions: map[string]*eosCfgSession{}, started: env.now(), clis: map[*eosCLI]struct{}{}}
	e.cur = newCfgTree(e.g)
	if env.spec.RunningConfig != "" {
		e.cur.loadExisting(env.spec.RunningConfig, loadOptions{block: eosBanner})
		return e, nil
	}
	if err := e.cur.load(eosFactory(env.spec)); err != nil {
		return nil, fmt.Errorf("factory config (check DeviceSpec.Ports): %w", err)
	}
	return e, nil
}

// eosBanner spans `banner login|motd` and its text up to the line EOF.
func eosBanner(lines []string, i int) int {
	f := strings.Fields(lines[i])
	if len(f) != 2 || f[0] != "banner" {
		return 0
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.TrimRight(lines[j], " \t\r") == "EOF" {
			return j - i + 1
		}
	}
	return 0
}

// export is `show running-config`, which loadExisting reads back.
func (e *eos) export() string { return e.running() }

func eosFactory(sp emuSpec) string {
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
`, mgmtOctet(sp.Name))
	return b.String()
}

func (e *eos) running() string { return e.render(e.cur, true) }

// render prints a tree as `show running-config` does.
func (e *eos) render(t *cfgTree, header bool) string {
	var b strings.Builder
	if header {
		b.WriteString("! Command: show running-config\n")
		fmt.Fprintf(&b, "! device: %s (cEOSLab, EOS-4.31.2F)\n!\n", e.env.spec.Name)
		b.WriteString("! boot system flash:/EOS-4.31.2F.swi\n!\n")
	}
	var prev *node
	for _, k := range t.root.sorted() {
		if prev != nil && eosSeparated(prev, k) {
			b.WriteString("!\n")
		}
		b.WriteString(k.text + "\n")
		if k.stanza() {
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
func eosSeparated(prev, k *node) bool {
	switch {
	case k.opaque:
		return k.gap
	case prev.opaque && k.src:
		return k.gap
	case prev.opaque:
		// After an opaque line, what followed it in its source.
		return prev.gapAfter || k.stanza() || prev.stanza()
	}
	po, _ := prev.rank()
	ko, _ := k.rank()
	if k.stanza() || prev.stanza() {
		return true
	}
	return po != ko && !(k.rule != nil && k.rule.joined)
}

func eosBody(b *strings.Builder, n *node, indent string) {
	for i, k := range n.sorted() {
		if i > 0 && ((k.opaque && k.gap) || (!k.opaque && k.stanza())) {
			b.WriteString(indent + "!\n")
		}
		b.WriteString(indent + k.text + "\n")
		if k.stanza() {
			eosBody(b, k, indent+"   ")
		}
	}
}

func (e *eos) outOfBand(lines []string) error {
	return e.cur.load(strings.Join(lines, "\n"))
}

func (e *eos) expireTimers() {
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

func (e *eos) newSession(t *term, user string) cliSession {
	t.more = " --More-- "
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
	t       *term
	user    string
	priv    bool
	enable  bool // reading the enable password
	stack   []frame
	session *eosCfgSession
	// tty and pid name the login in `show configuration sessions`.
	tty string
	pid int
	// banner collects the lines of `banner login|motd` until EOF.
	banner []string
}

func (c *eosCLI) greeting() string { return "\n" }

func (c *eosCLI) prompt() string {
	host := c.e.env.spec.Name
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
	if top := c.stack[len(c.stack)-1].tag; top != "" {
		tag += "-" + top
	}
	return host + "(" + tag + ")#"
}

// disconnect leaves the session (if any) as it is: an uncommitted EOS
// session survives its client and times out after 24 hours.
func (c *eosCLI) disconnect() {
	c.leaveConfig()
	delete(c.e.clis, c)
}

func (c *eosCLI) reject(line string) reply {
	return reply{out: "% Unavailable command (not supported on this hardware platform)\n", status: 1, config: c.stack != nil}
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
func (c *eosCLI) refuse(line string) (reply, bool) {
	if eosNoDropWDRe.MatchString(line) {
		return c.reject(line), true
	}
	m := eosMTULine.FindStringSubmatch(line)
	if m == nil {
		return reply{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= eosMaxMTU {
		return reply{}, false
	}
	for i := len(c.stack) - 1; i >= 0; i-- {
		if c.stack[i].mode != "if" {
			continue
		}
		name := c.stack[i].n.text
		if mm := eosIfFrameName.FindStringSubmatch(name); mm != nil {
			name = mm[1]
		}
		return reply{out: fmt.Sprintf("%% Max MTU for %s is %d\n", name, eosMaxMTU), status: 1, config: true}, true
	}
	return reply{}, false
}

func eosInvalid(line string, tok int) string {
	f := strings.Fields(line)
	bad := ""
	if tok < len(f) {
		bad = f[tok]
	}
	return fmt.Sprintf("%% Invalid input (at token %d: '%s')\n", tok, bad)
}

func (c *eosCLI) tree() *cfgTree {
	if c.session != nil {
		return c.session.tree
	}
	return c.e.cur
}

func (c *eosCLI) handle(raw string) reply {
	if c.enable {
		c.enable = false
		if raw == c.e.env.spec.Password {
			c.priv = true
			return reply{}
		}
		return reply{out: "% Access denied\n", status: 1}
	}
	if c.banner != nil {
		return c.bannerLine(raw)
	}
	line := normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") {
		return reply{}
	}
	if s := c.session; s != nil && (c.e.sessions[s.name] != s || s.state != "pending") {
		// Another login committed or aborted the session we were in.
		c.leaveConfig()
		return reply{out: fmt.Sprintf("%% Configuration session %s has been committed or aborted by another terminal\n", s.name), status: 1}
	}
	if strings.HasPrefix(line, "show ") || line == "show" {
		return c.show(line)
	}
	if c.stack != nil {
		return c.config(line)
	}
	return c.exec(line)
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

func (c *eosCLI) exec(line string) reply {
	f := strings.Fields(line)
	switch {
	case line == "exit" || line == "logout" || line == "quit":
		return reply{exit: true}
	case line == "enable":
		if c.priv {
			return reply{}
		}
		c.enable = true
		return reply{out: "Password: ", secret: true}
	case line == "disable":
		c.priv = false
		return reply{}
	case !c.priv:
		return reply{out: eosInvalid(line, 0), status: 1}
	case f[0] == "terminal" && len(f) == 3 && (f[1] == "length" || f[1] == "width"):
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 {
			return reply{out: eosInvalid(line, 2), status: 1}
		}
		if f[1] == "width" {
			c.t.width = n
			return reply{out: fmt.Sprintf("Width set to %d columns.\n", n)}
		}
		c.t.length = n
		if n == 0 {
			return reply{out: "Pagination disabled.\n"}
		}
		return reply{out: fmt.Sprintf("Pagination set to %d lines.\n", n)}
	case line == "configure" || line == "configure terminal" || line == "config" || line == "conf t":
		c.session = nil
		c.stack = []frame{{n: c.e.cur.root, mode: "config"}}
		return reply{}
	case f[0] == "configure" && len(f) >= 2 && f[1] == "session":
		return c.configureSession(f[2:])
	case len(f) == 4 && f[0] == "no" && f[1] == "configure" && f[2] == "session":
		s := c.e.sessions[f[3]]
		if s == nil {
			return reply{out: fmt.Sprintf("%% Session %s does not exist\n", f[3]), status: 1}
		}
		return c.abort(s)
	case line == "write" || line == "write memory" || line == "copy running-config startup-config":
		return reply{out: "Copy completed successfully.\n"}
	}
	return reply{out: eosInvalid(line, 0), status: 1}
}

// configureSession handles `configure session [NAME [commit [timer T] |
// abort]]`. Sessions are device-wide: the same name from two logins is
// the same session.
func (c *eosCLI) configureSession(args []string) reply {
	e := c.e
	name := ""
	if len(args) == 0 {
		e.anon++
		name = fmt.Sprintf("session%d%d", e.env.now().Unix()%100000, e.anon)
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
				return reply{out: "% Maximum number of pending sessions has been reached. Please commit or abort an existing session.\n", status: 1}
			}
			e.anon++
			s = &eosCfgSession{name: name, tree: e.cur.clone(), state: "pending", user: c.user, seq: e.anon}
			s.expire = e.env.afterFunc(eosSessionTimeout, func() {
				if e.sessions[name] == s && s.state == "pending" {
					delete(e.sessions, name)
				}
			})
			e.sessions[name] = s
		} else if s.state != "pending" {
			return reply{out: fmt.Sprintf("%% Cannot enter session %s (session already %s)\n", name, s.state), status: 1}
		}
		c.session = s
		c.stack = []frame{{n: s.tree.root, mode: "config"}}
		return reply{}
	}
	if s == nil {
		return reply{out: fmt.Sprintf("%% Session %s does not exist\n", name), status: 1}
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
			return reply{out: eosInvalid("configure session "+strings.Join(args, " "), 5), status: 1}
		}
		return c.commit(s, d, true)
	}
	return reply{out: eosInvalid("configure session "+strings.Join(args, " "), 3), status: 1}
}

// commit makes the session the running config. With a timer the commit is
// provisional: unless committed again before it expires, the previous
// configuration comes back.
func (c *eosCLI) commit(s *eosCfgSession, timer time.Duration, timed bool) reply {
	e := c.e
	switch s.state {
	case "pendingCommitTimer":
		if timed {
			return reply{out: "% Cannot commit: session is already pending a commit timer\n", status: 1}
		}
		if e.confirm != nil && e.confirm.session == s.name {
			e.confirm.cancel()
			e.confirm = nil
		}
		e.complete(s, c.user)
		c.leaveConfig()
		return reply{config: true}
	case "pending":
	default:
		return reply{out: fmt.Sprintf("%% Cannot commit: session %s is %s\n", s.name, s.state), status: 1}
	}
	if timed && e.confirm != nil {
		return reply{out: "% Cannot commit: another session is pending a commit timer\n", status: 1}
	}
	prev := e.cur
	e.cur = s.tree.clone()
	if s.expire != nil {
		s.expire()
		s.expire = nil
	}
	if timed {
		s.state = "pendingCommitTimer"
		s.commitUser = c.user
		e.confirm = &eosConfirm{session: s.name, prev: prev, deadline: e.env.now().Add(timer)}
		e.confirm.cancel = e.env.afterFunc(timer, func() {
			if e.confirm != nil && e.confirm.session == s.name {
				e.rollbackConfirm()
			}
		})
	} else {
		e.complete(s, c.user)
	}
	c.leaveConfig()
	return reply{config: true}
}

// complete marks a session committed; only the newest
// eosMaxSavedSessions completed sessions are kept.
func (e *eos) complete(s *eosCfgSession, user string) {
	s.state, s.commitUser, s.completed = "completed", user, e.env.now()
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
func (c *eosCLI) abort(s *eosCfgSession) reply {
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
		return reply{out: fmt.Sprintf("%% Cannot abort: session %s is %s\n", s.name, s.state), status: 1}
	}
	s.state = "aborted"
	c.leaveConfig()
	return reply{config: true}
}

func (c *eosCLI) leaveConfig() {
	c.stack = nil
	c.session = nil
}

// bannerLine takes one line of banner text; EOF on its own line ends it
// and stores the banner (an opaque block, where a loaded configuration had
// it, else before the management stanzas).
func (c *eosCLI) bannerLine(raw string) reply {
	text := strings.TrimRight(raw, "\r")
	if strings.TrimSpace(text) != "EOF" {
		c.banner = append(c.banner, text)
		return reply{config: true}
	}
	lines := append(c.banner, "EOF")
	c.banner = nil
	t := c.tree()
	head := lines[0]
	kept := t.root.kids[:0]
	for _, k := range t.root.kids {
		if !(k.opaque && strings.SplitN(k.text, "\n", 2)[0] == head) {
			kept = append(kept, k)
		}
	}
	t.root.setKids(kept)
	ll, ok := t.learned[pathKey(c.stack[:1], head)]
	if !ok {
		ll = learnedLine{anchor: -1, gap: true}
		for _, x := range t.g["config"] {
			if x.head == "management api http-commands" {
				ll.anchor = x.order - 1
			}
		}
		t.seq++
		ll.seq = t.seq
	}
	t.restoreOpaque(t.root, strings.Join(lines, "\n"), ll)
	return reply{config: true}
}

func (c *eosCLI) config(line string) reply {
	if f := strings.Fields(line); len(f) == 2 && f[0] == "banner" && (f[1] == "login" || f[1] == "motd") {
		c.banner = []string{line}
		c.stack = c.stack[:1]
		return reply{out: "Enter TEXT message. Type 'EOF' on its own line to end.\n", config: true}
	}
	if rest, ok := cutHead(line, "no banner"); ok && (rest == "login" || rest == "motd") {
		t := c.tree()
		kept := t.root.kids[:0]
		for _, k := range t.root.kids {
			if !(k.opaque && strings.SplitN(k.text, "\n", 2)[0] == "banner "+rest) {
				kept = append(kept, k)
			}
		}
		t.root.setKids(kept)
		c.stack = c.stack[:1]
		return reply{config: true}
	}
	switch line {
	case "end":
		c.leaveConfig()
		return reply{}
	case "exit":
		if len(c.stack) == 1 {
			c.leaveConfig()
		} else {
			c.stack = c.stack[:len(c.stack)-1]
		}
		return reply{}
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
				return reply{out: eosInvalid(line, 2), status: 1, config: true}
			}
			return c.commit(c.session, d, true)
		case line == "rollback clean-config":
			clean := newCfgTree(c.e.g)
			clean.learned = c.e.cur.learned
			c.session.tree = clean
			c.stack = []frame{{n: c.session.tree.root, mode: "config"}}
			return reply{config: true}
		}
	}
	if rest, ok := cutHead(line, "do"); ok && rest != "" {
		saved := c.stack
		c.stack = nil
		r := c.exec(rest)
		if c.stack == nil {
			c.stack = saved
		}
		return r
	}
	if r, ok := c.refuse(line); ok {
		return r
	}
	stack, err := c.tree().apply(c.stack, line)
	if err != nil {
		if u, ok := err.(*errUnknown); ok && u.incomplete {
			return reply{out: "% Incomplete command\n", status: 1, config: true}
		}
		tok := 0
		if u, ok := err.(*errUnknown); ok {
			tok = u.token
		}
		return reply{out: eosInvalid(line, tok), status: 1, config: true}
	}
	c.stack = stack
	return reply{config: true}
}

func (c *eosCLI) show(line string) reply {
	cmd, filters := splitPipe(line)
	var out string
	switch {
	case cmd == "show running-config" || cmd == "show running-config all":
		out = c.e.running()
	case cmd == "show session-config diffs" && c.session != nil:
		out = c.sessionDiff(c.session)
	case cmd == "show session-config" && c.session != nil:
		out = c.e.render(c.session.tree, false)
	case strings.HasPrefix(cmd, "show session-config named "):
		f := strings.Fields(cmd)
		s := c.e.sessions[f[3]]
		if s == nil {
			return reply{out: fmt.Sprintf("%% Session %s does not exist\n", f[3]), status: 1}
		}
		switch {
		case len(f) == 4:
			out = c.e.render(s.tree, false)
		case len(f) == 5 && f[4] == "diffs":
			out = c.sessionDiff(s)
		default:
			return reply{out: eosInvalid(cmd, 4), status: 1}
		}
	case cmd == "show configuration sessions" || cmd == "show configuration sessions detail":
		if len(filters) > 0 && filters[0] == "json" {
			return reply{out: c.sessionsJSON(cmd != "show configuration sessions")}
		}
		out = c.sessionTable(cmd != "show configuration sessions")
	case cmd == "show version" && len(filters) > 0 && filters[0] == "json":
		return reply{out: sonicJSON(map[string]any{"hostname": c.e.env.spec.Name, "modelName": "cEOSLab", "version": "4.31.2F",
			"uptime": c.e.uptime(), "bootupTimestamp": float64(c.e.started.UnixNano()) / 1e9})}
	case cmd == "show version":
		out = fmt.Sprintf("Arista cEOSLab\nHardware version: \nSerial number: LAB%08d\nSystem MAC address: 001c.7300.%04x\n\nSoftware image version: 4.31.2F\nArchitecture: x86_64\n", mgmtOctet(c.e.env.spec.Name), mgmtOctet(c.e.env.spec.Name))
	case cmd == "show hostname":
		out = fmt.Sprintf("Hostname: %s\nFQDN:     %s.lab.example.net\n", c.e.env.spec.Name, c.e.env.spec.Name)
	case cmd == "show clock":
		out = c.e.env.now().UTC().Format("Mon Jan 2 15:04:05 2006") + "\nTimezone: UTC\nClock source: local\n"
	default:
		return reply{out: eosInvalid(cmd, 1), status: 1}
	}
	if len(filters) > 0 && filters[0] == "json" {
		return reply{out: "% This is an unconverted command\n", status: 1}
	}
	out, err := applyFilters(out, filters)
	if err != nil {
		return reply{out: "% Invalid input (" + err.Error() + ")\n", status: 1}
	}
	return reply{out: out}
}

func (c *eosCLI) sessionDiff(s *eosCfgSession) string {
	return unifiedDiff("system:/running-config", "session:/"+s.name+"-session-config",
		c.e.render(c.e.cur, false), c.e.render(s.tree, false))
}

// uptime is seconds since the device started.
func (e *eos) uptime() float64 { return e.env.now().Sub(e.started).Seconds() }

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
	return sonicJSON(out)
}

// sessionTable prints `show configuration sessions [detail]`.
func (c *eosCLI) sessionTable(detail bool) string {
	e := c.e
	var b strings.Builder
	fmt.Fprintf(&b, "Maximum number of completed sessions: %d\nMaximum number of pending sessions: %d\n", eosMaxSavedSessions, eosMaxOpenSessions)
	b.WriteString("Merge on commit is disabled\nAutosave to startup-config on commit is disabled\n\n")
	if e.confirm != nil {
		left := e.confirm.deadline.Sub(e.env.now()).Round(time.Second)
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
func (c *eosCLI) changes(raw string) bool {
	if c.enable {
		return false
	}
	if c.banner != nil {
		return true
	}
	line := normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") || line == "show" || strings.HasPrefix(line, "show ") {
		return false
	}
	if c.stack != nil {
		switch line {
		case "end", "exit":
			return false
		}
		if rest, ok := cutHead(line, "do"); ok {
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
