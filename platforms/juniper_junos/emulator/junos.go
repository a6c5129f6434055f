package emulator

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// junos emulates Junos OS on a QFX switch: operational and configuration
// mode, private candidates merged into the active configuration on commit,
// `load set terminal`, `show | compare`, `commit confirmed N` with
// automatic rollback, `rollback N`, and `show configuration [| display
// set]` (Junos OS CLI User Guide: "Commit the Configuration", "Roll Back
// Configuration Changes", "load set"). The configuration has no schema:
// statements are token paths under known top-level hierarchies.
type junos struct {
	env    *cli.Env
	active *cli.PathTree
	// history[0] is the active configuration, history[n] rollback n.
	history []*junosCommit
	confirm *junosConfirm
	// shared is the shared candidate of plain `configure` sessions (nil:
	// none yet); its uncommitted changes outlive the sessions.
	shared *cli.PathTree
	// lock is the session holding `configure exclusive`, or nil.
	lock *junosCLI
	// clis are the logins connected now; logins numbers them.
	clis   map[*junosCLI]struct{}
	logins int
	// learned holds the top-level hierarchies (and class-of-service
	// children, as "class-of-service NAME") of the loaded configuration:
	// statements under them are accepted although the lab has no schema
	// for them.
	learned map[string]bool
}

type junosCommit struct {
	tree    *cli.PathTree
	when    time.Time
	user    string
	how     string
	comment string
}

type junosConfirm struct {
	cancel func()
	// entry is the commit waiting for confirmation, deadline when it rolls
	// back.
	entry    *junosCommit
	deadline time.Time
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
	"shaping-rate": true, "transmit-rate": true,
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

// New returns the emulator of a Juniper Junos switch (candidate
// configuration, commit confirmed), started from env.Spec.RunningConfig
// or, when that is empty, from a factory configuration.
func New(env *cli.Env) (cli.Emulator, error) {
	e, err := newJunos(env)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func newJunos(env *cli.Env) (*junos, error) {
	j := &junos{env: env, active: cli.NewPathTree(junosScalar), learned: map[string]bool{}, clis: map[*junosCLI]struct{}{}}
	if env.Spec.RunningConfig != "" {
		if err := j.LoadExisting(env.Spec.RunningConfig); err != nil {
			return nil, err
		}
		j.history = []*junosCommit{{tree: j.active.Clone(), when: env.Now(), user: "root", how: "cli"}}
		return j, nil
	}
	ports := env.Spec.Ports
	if len(ports) == 0 {
		for i := 0; i < 32; i++ {
			ports = append(ports, fmt.Sprintf("et-0/0/%d", i))
		}
	}
	factory := []string{
		"set system host-name " + env.Spec.Name,
		"set system time-zone UTC",
		"set system login user " + env.Spec.Username + " class super-user",
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
		fmt.Sprintf("set interfaces em0 unit 0 family inet address 192.0.2.%d/24", cli.MgmtOctet(env.Spec.Name)),
		"set routing-options static route 0.0.0.0/0 next-hop 192.0.2.1",
		"set protocols lldp interface all")
	for _, l := range factory {
		if err := j.Apply(j.active, l); err != nil {
			return nil, fmt.Errorf("factory config %q: %w", l, err)
		}
	}
	j.history = []*junosCommit{{tree: j.active.Clone(), when: env.Now(), user: "root", how: "cli"}}
	return j, nil
}

// Apply runs one `set`/`delete` statement against a tree.
func (j *junos) Apply(t *cli.PathTree, line string) error {
	toks, err := cli.ConfigTokens(line)
	if err != nil {
		return err
	}
	if len(toks) < 2 {
		return fmt.Errorf("syntax error")
	}
	verb, path := toks[0], toks[1:]
	switch verb {
	case "set":
		if !junosTop[path[0]] && !j.learned[path[0]] {
			return &cli.ErrUnknown{Token: 1}
		}
		if path[0] == "class-of-service" && (len(path) < 2 || !junosCoS[path[1]] && !j.learned["class-of-service "+path[1]]) {
			return &cli.ErrUnknown{Token: 2}
		}
		if len(path) < 2 {
			return &cli.ErrUnknown{Token: 2, Incomplete: true}
		}
		t.Set(path)
		return nil
	case "delete":
		if !t.Remove(path) {
			return errStatementNotFound
		}
		return nil
	case "deactivate", "activate":
		n := t.Find(path)
		if n == nil {
			return errStatementNotFound
		}
		n.Inactive = verb == "deactivate"
		return nil
	}
	return &cli.ErrUnknown{Token: 0}
}

// LoadExisting loads `show configuration | display set` output: set and
// deactivate statements, any hierarchy (the lab has no schema to refuse
// one); the version statement and comments are skipped.
func (j *junos) LoadExisting(text string) error {
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "set version ") {
			continue
		}
		toks, err := cli.ConfigTokens(line)
		if err != nil {
			return fmt.Errorf("line %d %q: %w", i+1, line, err)
		}
		if len(toks) < 2 || (toks[0] != "set" && toks[0] != "deactivate") {
			return fmt.Errorf("line %d %q: a Junos running config is `show configuration | display set` output: set or deactivate statements", i+1, line)
		}
		path := toks[1:]
		if toks[0] == "deactivate" {
			if n := j.active.Find(path); n != nil {
				n.Inactive = true
				continue
			}
			return fmt.Errorf("line %d %q: deactivates a statement no set line before it made", i+1, line)
		}
		j.active.Set(path)
		if !junosTop[path[0]] {
			j.learned[path[0]] = true
		}
		if path[0] == "class-of-service" && len(path) > 1 && !junosCoS[path[1]] {
			j.learned["class-of-service "+path[1]] = true
		}
	}
	return nil
}

// Export is `show configuration | display set`.
func (j *junos) Export() string { return j.displaySetOf() }

var errStatementNotFound = errors.New("statement not found")

func (j *junos) header() string {
	c := j.history[0]
	return fmt.Sprintf("## Last commit: %s by %s\nversion 23.4R1.9;\n", c.when.UTC().Format("2006-01-02 15:04:05 MST"), c.user)
}

func (j *junos) Running() string { return j.header() + junosText(j.active) }

func (j *junos) OutOfBand(lines []string) error {
	// Another administrator commits as a CLI user would: not while a
	// session holds the configuration exclusively ("configuration
	// database locked"), and their commit confirms a commit confirmed
	// still waiting (Junos CLI User Guide, "commit confirmed": any
	// commit confirms it).
	if j.lock != nil {
		return fmt.Errorf("error: configuration database locked by %s (exclusive)", j.lock.user)
	}
	if j.confirm != nil {
		j.confirm.cancel()
		j.confirm = nil
	}
	cand := j.active.Clone()
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if err := j.Apply(cand, l); err != nil {
			return fmt.Errorf("%q: %w", l, err)
		}
	}
	if err := checkForwardingClasses(cand); err != nil {
		return fmt.Errorf("error: %w", err)
	}
	j.commit(cand, "another-admin", "cli")
	return nil
}

// junosClass is a forwarding class's queue and packet drop attribute.
type junosClass struct {
	queue  string
	noLoss bool
}

// checkForwardingClasses is commit's check that every configured
// forwarding class mapped to one queue has the same packet drop attribute
// ("forwarding-classes", Traffic Management for QFX: all lossy or all
// lossless). The lab does not know the device's model, so QFX's default
// classes (fcoe and no-loss, lossless on queues 3 and 4) are not counted:
// the renders of an MX (no such defaults) are pushed to it too; the
// juniper_junos view tests count them. The wording of the error is the
// lab's: Juniper does not publish it.
func checkForwardingClasses(t *cli.PathTree) error {
	classes := map[string]junosClass{}
	if n := t.Find([]string{"class-of-service", "forwarding-classes", "class"}); n != nil && !n.Inactive {
		for _, c := range n.Kids {
			qn := junosKid(c, "queue-num")
			if c.Inactive || qn == nil || len(qn.Kids) == 0 {
				continue
			}
			q := qn.Kids[0]
			classes[c.Tok] = junosClass{queue: q.Tok, noLoss: junosKid(q, "no-loss") != nil}
		}
	}
	names := make([]string, 0, len(classes))
	for name := range classes {
		names = append(names, name)
	}
	sort.Strings(names)
	first := map[string]string{} // queue → its first class
	for _, name := range names {
		c := classes[name]
		f, ok := first[c.queue]
		if !ok {
			first[c.queue] = name
			continue
		}
		if classes[f].noLoss != c.noLoss {
			lossless, lossy := f, name
			if c.noLoss {
				lossless, lossy = name, f
			}
			return fmt.Errorf("forwarding classes %s (no-loss) and %s (lossy) are mapped to queue %s: the forwarding classes of a queue must have the same packet drop attribute", lossless, lossy, c.queue)
		}
	}
	return nil
}

// junosKid is n's child tok, or nil.
func junosKid(n *cli.PathNode, tok string) *cli.PathNode {
	for _, k := range n.Kids {
		if k.Tok == tok {
			return k
		}
	}
	return nil
}

// commit makes tree the active configuration and records it.
func (j *junos) commit(tree *cli.PathTree, user, how string) *junosCommit {
	j.active = tree
	c := &junosCommit{tree: tree.Clone(), when: j.env.Now(), user: user, how: how}
	j.history = append([]*junosCommit{c}, j.history...)
	if len(j.history) > 50 {
		j.history = j.history[:50]
	}
	return c
}

func (j *junos) ExpireTimers() {
	if j.confirm != nil {
		j.rollbackConfirm()
	}
}

// rollbackConfirm restores the configuration from before an unconfirmed
// commit (rollback 1 then), committed by the system ("by root via
// other").
func (j *junos) rollbackConfirm() {
	c := j.confirm
	j.confirm = nil
	c.cancel()
	for i, h := range j.history {
		if h == c.entry && i+1 < len(j.history) {
			j.commit(j.history[i+1].tree.Clone(), "root", "other")
			// The system's rollback goes through the candidate
			// database: an exclusive session holding it now edits
			// the rolled-back configuration, so its next commit
			// commits that (guess: docs/lab.md).
			if l := j.lock; l != nil && l.cand != nil {
				l.cand, l.base = j.active.Clone(), j.active.Clone()
			}
			return
		}
	}
}

// junosNamed keywords print with their name on the same line
// ("class NO-LOSS {").
var junosNamed = map[string]bool{
	"class": true, "dscp": true, "ieee-802.1": true, "forwarding-class": true, "code-point": true,
	"filter": true, "term": true, "unit": true, "family": true, "user": true, "host": true, "server": true,
	"community": true, "route": true, "interface": true, "file": true, "group": true, "neighbor": true,
	"policy-statement": true, "prefix-list": true, "trap-group": true,
}

// junosLine is one line of the curly-brace form and its hierarchy.
type junosLine struct {
	text string
	ctx  []string
}

func junosText(t *cli.PathTree) string {
	var b strings.Builder
	for _, l := range junosLines(t) {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

func junosLines(t *cli.PathTree) []junosLine {
	var out []junosLine
	var render func(n *cli.PathNode, ctx []string)
	emit := func(ctx []string, s string) {
		out = append(out, junosLine{text: strings.Repeat("    ", len(ctx)) + s, ctx: ctx})
	}
	block := func(ctx []string, head string, n *cli.PathNode) {
		mark := ""
		if n.Inactive {
			mark = "inactive: "
		}
		if chain := compress(n); chain != nil && junosLeaf(head, chain) {
			emit(ctx, mark+strings.TrimSpace(head+" "+strings.Join(chain, " "))+";")
			return
		}
		h := strings.TrimSpace(head + " " + n.Tok)
		emit(ctx, mark+h+" {")
		render(n, append(append([]string(nil), ctx...), h))
		emit(ctx, "}")
	}
	render = func(n *cli.PathNode, ctx []string) {
		for _, c := range n.Kids {
			if chain := compress(c); junosNamed[c.Tok] && len(c.Kids) > 0 && (chain == nil || !junosLeaf("", chain)) {
				for _, g := range c.Kids {
					block(ctx, c.Tok, g)
				}
				continue
			}
			block(ctx, "", c)
		}
	}
	render(t.Root, nil)
	return out
}

// junosMulti are statements that take several keyword/value tokens on
// one line (e.g. "queue-num 3 no-loss;", "route 0.0.0.0/0 next-hop X;").
var junosMulti = map[string]bool{
	"class": true, "queue-num": true, "loss-priority": true, "drop-profile-map": true, "transmit-rate": true, "shaping-rate": true,
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
func compress(n *cli.PathNode) []string {
	var chain []string
	for {
		chain = append(chain, n.Tok)
		if len(n.Kids) == 0 {
			return chain
		}
		if len(n.Kids) > 1 || n.End || n.Kids[0].Inactive {
			return nil
		}
		n = n.Kids[0]
	}
}

// junosCompare prints `show | compare`: the changes from a to b under
// "[edit ...]" headers.
func junosCompare(a, b *cli.PathTree) string {
	la, lb := junosLines(a), junosLines(b)
	ta, tb := make([]string, len(la)), make([]string, len(lb))
	for i, l := range la {
		ta[i] = l.text
	}
	for i, l := range lb {
		tb[i] = l.text
	}
	ops := cli.LineOps(ta, tb)
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
		if !inRun || !cli.HasPrefix(l.ctx, hdr) {
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

// PendingConfirm reports whether a commit waits for its confirm timer.
func (j *junos) PendingConfirm() bool { return j.confirm != nil }
