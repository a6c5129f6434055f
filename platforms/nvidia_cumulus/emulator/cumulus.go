package emulator

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
)

// cumulus emulates NVIDIA Cumulus Linux 5.9 with NVUE: `nv set`/`nv
// unset` stage a pending revision, `nv config diff` shows it, `nv config
// apply [--confirm T] [-y]` applies it (with automatic rollback unless
// confirmed), `nv config apply <rev>` re-applies an old revision, and `nv
// config show -o commands` prints the applied configuration (NVUE
// reference, "Config Commands"). There is no NVUE schema: statements are
// token paths under the known top-level objects.
type cumulus struct {
	env       *cli.Env
	applied   *cli.PathTree
	pending   *cli.PathTree // nil when there is no pending revision
	revisions []*nvRevision
	// pendingRev is the revision the pending changes will become.
	pendingRev *nvRevision
	nextRev    int
	confirm    *nvConfirm
	fs         *shell.MemFS
	// learned holds the objects and interface names of the loaded
	// configuration ("interface NAME" or the root object): paths under
	// them are accepted although the lab's checks do not know them.
	learned map[string]bool
}

// nvRevision is one NVUE revision: the pending one (shared by every
// user, as NVUE's current pending revision is), applied ones, and those
// rolled back or detached. States as NVUE names them: pending,
// applied_and_saved (Cumulus Linux 5.9 saves on apply), confirm (applied
// with --confirm, waiting), confirm_fail (not confirmed in time),
// confirm_no (--confirm-no), detached.
type nvRevision struct {
	id      int
	tree    *cli.PathTree
	when    time.Time
	applied time.Time
	user    string
	note    string
	state   string
}

type nvConfirm struct {
	prev     *cli.PathTree
	rev      int
	cancel   func()
	deadline time.Time
}

var nvTop = map[string]bool{
	"interface": true, "qos": true, "acl": true, "system": true, "router": true, "vrf": true,
	"service": true, "bridge": true, "evpn": true, "nve": true, "mlag": true,
}

var nvIfaceRe = regexp.MustCompile(`^(swp\d+(s\d+)?|eth\d+|lo|bond\d+|vlan\d+|peerlink)(,(swp\d+(s\d+)?))*$|^swp\d+-\d+$`)

var nvScalars = map[string]bool{
	"mtu": true, "speed": true, "fec": true, "trust": true, "mode": true, "bw-percent": true, "min-threshold": true,
	"max-threshold": true, "probability": true, "ecn": true, "red": true, "tx": true, "rx": true, "cable-length": true,
	"port-buffer": true, "xoff-threshold": true, "xon-threshold": true, "memory-percent": true, "polling-interval": true,
	"robustness": true, "profile": true, "port-default-sp": true, "rewrite": true, "description": true,
	"hostname": true, "state": true, "type": true, "timezone": true, "role": true,
}

func nvScalar(prefix []string) bool {
	last := prefix[len(prefix)-1]
	in := func(word string) bool {
		for _, p := range prefix {
			if p == word {
				return true
			}
		}
		return false
	}
	switch last {
	case "switch-priority", "traffic-class":
		if in("egress-queue-mapping") {
			return last == "traffic-class"
		}
		return last == "switch-priority" && !in("egress-scheduler") && !in("congestion-control")
	case "dscp", "cos":
		return in("action")
	}
	return nvScalars[last]
}

// New returns the emulator of an NVIDIA Cumulus Linux switch (NVUE nv
// set/apply, revisions), started from env.Spec.RunningConfig or, when that
// is empty, from a factory configuration.
func New(env *cli.Env) (cli.Emulator, error) {
	e, err := newCumulus(env)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func newCumulus(env *cli.Env) (*cumulus, error) {
	c := &cumulus{env: env, applied: cli.NewPathTree(nvScalar), nextRev: 1, fs: shell.NewMemFS(env.Spec.Username), learned: map[string]bool{}}
	if env.Spec.RunningConfig != "" {
		if err := c.LoadExisting(env.Spec.RunningConfig); err != nil {
			return nil, err
		}
		c.record(c.applied, "root", "startup")
		return c, nil
	}
	ports := env.Spec.Ports
	if len(ports) == 0 {
		for i := 1; i <= 32; i++ {
			ports = append(ports, fmt.Sprintf("swp%d", i))
		}
	}
	factory := []string{
		"nv set system hostname " + env.Spec.Name,
		"nv set system timezone Etc/UTC",
		"nv set system aaa user " + env.Spec.Username + " role system-admin",
		"nv set service ntp mgmt server 192.0.2.123",
		"nv set service syslog mgmt server 192.0.2.10",
		"nv set service snmp-server readonly-community fabricgen-ro access any",
		fmt.Sprintf("nv set interface eth0 ip address 192.0.2.%d/24", cli.MgmtOctet(env.Spec.Name)),
		"nv set interface eth0 ip vrf mgmt",
	}
	for _, p := range ports {
		if !nvIfaceRe.MatchString(p) {
			return nil, fmt.Errorf("port %q is not a Cumulus interface name (swpN or swpNsM)", p)
		}
		factory = append(factory, "nv set interface "+p+" type swp")
	}
	for _, l := range factory {
		toks, _ := cli.ConfigTokens(l)
		if msg := nvValidate(toks[2:]); msg != "" {
			return nil, fmt.Errorf("factory config %q: %s", l, msg)
		}
		c.applied.Set(toks[2:])
	}
	c.record(c.applied, "root", "startup")
	return c, nil
}

// record adds an applied revision.
func (c *cumulus) record(t *cli.PathTree, user, note string) int {
	r := c.newRevision(user, note)
	r.tree, r.state, r.applied = t.Clone(), "applied_and_saved", c.env.Now()
	return r.id
}

func (c *cumulus) newRevision(user, note string) *nvRevision {
	r := &nvRevision{id: c.nextRev, when: c.env.Now(), user: user, note: note}
	c.nextRev++
	c.revisions = append(c.revisions, r)
	return r
}

func (c *cumulus) revision(id int) *nvRevision {
	for _, r := range c.revisions {
		if r.id == id {
			return r
		}
	}
	return nil
}

// nvValidate checks a path against the few rules the lab knows; it
// returns NVUE's error text or "".
func nvValidate(path []string) string {
	if len(path) == 0 {
		return "Error: Incomplete Command"
	}
	if !nvTop[path[0]] {
		return fmt.Sprintf("Error: Invalid Command: '%s' is not a valid object", path[0])
	}
	if path[0] == "interface" {
		if len(path) < 2 || !nvIfaceRe.MatchString(path[1]) {
			name := ""
			if len(path) > 1 {
				name = path[1]
			}
			return fmt.Sprintf("Error: Invalid value for interface: '%s' is not a valid interface name", name)
		}
	}
	for i := 0; i+1 < len(path); i++ {
		switch path[i] {
		case "mtu":
			if msg := nvRange("mtu", path[i+1], 552, 9216); msg != "" {
				return msg
			}
		case "bw-percent":
			if msg := nvRange("bw-percent", path[i+1], 1, 100); msg != "" {
				return msg
			}
		case "memory-percent":
			if msg := nvRange("memory-percent", path[i+1], 0, 100); msg != "" {
				return msg
			}
		}
	}
	if path[0] == "acl" {
		if msg := nvACLMatch(path); msg != "" {
			return msg
		}
	}
	if len(path) < 2 {
		return "Error: Incomplete Command"
	}
	return ""
}

// nvRange checks an integer value against its NVUE range.
func nvRange(name, v string, lo, hi int) string {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return fmt.Sprintf("Error: Invalid value for %s: '%s' is not in the range %d..%d", name, v, lo, hi)
	}
	return ""
}

// nvACLMatch checks "acl NAME rule N match ..." against the NVUE ACL tree of
// Cumulus Linux 5.7 and later: match ip|mac (IPv6 rules use match ip too),
// and L4 ports under the protocol, match ip udp|tcp source-port|dest-port.
func nvACLMatch(path []string) string {
	m := -1
	for i, t := range path {
		if t == "match" && i >= 4 && path[i-2] == "rule" {
			m = i
			break
		}
	}
	if m < 0 || m+1 >= len(path) {
		return ""
	}
	switch path[m+1] {
	case "ip", "mac", "inner-ip":
	default:
		return fmt.Sprintf("Error: Invalid Command: '%s' is not a valid match type (use ip, mac or inner-ip)", path[m+1])
	}
	if path[m+1] != "ip" || m+2 >= len(path) {
		return ""
	}
	switch kw := path[m+2]; kw {
	case "source-port", "dest-port":
		return fmt.Sprintf("Error: Invalid Command: '%s' is not valid under match ip; match L4 ports under the protocol: match ip udp %s or match ip tcp %s", kw, kw, kw)
	case "udp", "tcp":
		if m+3 >= len(path) || (path[m+3] != "source-port" && path[m+3] != "dest-port") {
			return fmt.Sprintf("Error: Incomplete Command: match ip %s takes source-port or dest-port", kw)
		}
		if m+4 < len(path) {
			if _, err := strconv.Atoi(path[m+4]); err == nil {
				return nvRange(path[m+3], path[m+4], 0, 65535)
			}
		}
	}
	return ""
}

func nvCommands(t *cli.PathTree) string {
	var b strings.Builder
	for _, s := range t.Statements() {
		b.WriteString("nv set " + strings.Join(s, " ") + "\n")
	}
	return b.String()
}

func (c *cumulus) Running() string { return nvCommands(c.applied) }

// Export is `nv config show -o commands`.
func (c *cumulus) Export() string { return c.Running() }

// LoadExisting loads `nv config show -o commands` output: nv set lines on
// any object (the lab has no NVUE schema to refuse one).
func (c *cumulus) LoadExisting(text string) error {
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		toks, err := cli.ConfigTokens(line)
		if err != nil {
			return fmt.Errorf("line %d %q: %w", i+1, line, err)
		}
		if len(toks) < 3 || toks[0] != "nv" || toks[1] != "set" {
			return fmt.Errorf("line %d %q: a Cumulus running config is `nv config show -o commands` output: nv set commands", i+1, line)
		}
		path := toks[2:]
		c.applied.Set(path)
		c.learned[path[0]] = true
		if path[0] == "interface" && len(path) > 1 {
			c.learned["interface "+path[1]] = true
		}
	}
	return nil
}

// validate is nvValidate, except that objects and interfaces the loaded
// configuration has are accepted.
func (c *cumulus) validate(path []string) string {
	if len(path) >= 1 && !nvTop[path[0]] && c.learned[path[0]] {
		return ""
	}
	if len(path) >= 2 && path[0] == "interface" && c.learned["interface "+path[1]] {
		rest := append([]string{"interface", "swp1"}, path[2:]...)
		return nvValidate(rest)
	}
	return nvValidate(path)
}

func (c *cumulus) OutOfBand(lines []string) error {
	sh := c.shell("another-admin")
	for _, l := range lines {
		out := sh.Exec(l)
		if sh.Status != 0 {
			return fmt.Errorf("%q: %s", l, strings.TrimSpace(out))
		}
	}
	if c.pending != nil {
		sh.Exec("nv config apply -y")
		if sh.Status != 0 {
			return fmt.Errorf("nv config apply failed")
		}
	}
	return nil
}

func (c *cumulus) ExpireTimers() {
	if c.confirm != nil {
		c.rollbackConfirm("confirm_fail")
	}
}

// rollbackConfirm restores the configuration from before an apply that
// was not confirmed; state is what the unconfirmed revision becomes.
func (c *cumulus) rollbackConfirm(state string) {
	cf := c.confirm
	c.confirm = nil
	cf.cancel()
	c.applied = cf.prev
	if r := c.revision(cf.rev); r != nil {
		r.state = state
	}
	c.record(c.applied, "root", fmt.Sprintf("automatic rollback of unconfirmed revision %d", cf.rev))
}

func (c *cumulus) NewSession(t *cli.Term, user string) cli.Session {
	return &shell.LinuxCLI{Host: c.env.Spec.Name, User: user, Sh: c.shell(user), Vrf: "mgmt", IsChange: nvChanges, Writes: shell.NoFiles}
}

func (c *cumulus) shell(user string) *shell.Shell {
	which := func(name string) (string, bool) {
		switch name {
		case "nv":
			return "/usr/bin/nv", true
		case "cat", "tee", "rm", "ls", "hostname", "printf", "sudo", "mktemp", "mkdir":
			return "/usr/bin/" + name, true
		}
		return "", false
	}
	run := func(argv []string, stdin string) (string, string, int) {
		// Counters, optics and queues come from the lab's data plane.
		if o, e, st, ok := c.env.DataPlane.Exec(c.env.Spec.Platform, argv); ok {
			return o, e, st
		}
		if argv[0] == "nv" {
			return c.nv(argv[1:], user)
		}
		if o, e, st, ok := c.fs.Common(c.env.Spec.Name, argv, stdin); ok {
			return o, e, st
		}
		return "", "-bash: " + argv[0] + ": command not found\n", 127
	}
	sh := shell.NewShell(run, c.fs.Write, which)
	sh.Record = c.env.Executed
	return sh
}

// nvChanges: nv set/unset/action, and nv config apply, detach, replace,
// patch, save, delete, attach and confirm change the switch; nv show, nv
// config show/diff/history/revision/find and nv config apply
// --confirm-status only read. Scratch files are not configuration.
func nvChanges(argv []string) bool {
	if argv[0] != "nv" {
		return false
	}
	var args []string
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") {
			args = append(args, a)
		}
	}
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "set", "unset", "action":
		return true
	case "config":
		if len(args) < 2 {
			return false
		}
		switch args[1] {
		case "apply":
			return !shell.HasOpt(argv[1:], "--confirm-status")
		case "detach", "replace", "patch", "save", "delete", "attach", "confirm":
			return true
		}
	}
	return false
}

// nv runs one NVUE command.
func (c *cumulus) nv(args []string, user string) (string, string, int) {
	if len(args) == 0 {
		return "", "Usage: nv [options] <command> [<args>]...\n", 2
	}
	switch args[0] {
	case "set", "unset":
		path := args[1:]
		if msg := c.validate(path); msg != "" && (args[0] != "unset" || len(path) != 1 || !nvTop[path[0]]) {
			return "", msg + "\n", 1
		}
		if c.pending == nil {
			c.pending = c.applied.Clone()
			c.pendingRev = c.newRevision(user, "Config update by "+user)
			c.pendingRev.state = "pending"
		}
		if args[0] == "set" {
			c.pending.Set(path)
		} else {
			c.pending.Remove(path)
		}
		return "", "", 0
	case "config":
		return c.nvConfig(args[1:], user)
	case "show":
		if len(args) >= 2 && args[1] == "system" {
			return fmt.Sprintf("hostname  %s\nbuild     Cumulus Linux 5.9.1\n", c.env.Spec.Name), "", 0
		}
	}
	return "", fmt.Sprintf("Error: Invalid Command: nv %s\n", strings.Join(args, " ")), 2
}

func (c *cumulus) nvConfig(args []string, user string) (string, string, int) {
	if len(args) == 0 {
		return "", "Usage: nv config <command>\n", 2
	}
	switch args[0] {
	case "diff":
		if c.pending == nil {
			return "", "", 0
		}
		return nvDiff(c.applied, c.pending), "", 0
	case "detach":
		if c.pendingRev != nil {
			c.pendingRev.state = "detached"
			c.pendingRev.tree = c.pending
		}
		c.pending, c.pendingRev = nil, nil
		return "", "", 0
	case "save":
		return "saved\n", "", 0
	case "confirm":
		return c.confirmNow()
	case "revision":
		return c.revisionList(args[1:])
	case "history":
		var b strings.Builder
		for i := len(c.revisions) - 1; i >= 0; i-- {
			r := c.revisions[i]
			fmt.Fprintf(&b, "- rev_id: %d\n  date: %s\n  user: %s\n  message: %s\n", r.id, r.when.UTC().Format("2006-01-02 15:04:05"), r.user, r.note)
		}
		return b.String(), "", 0
	case "show":
		rest := args[1:]
		if len(rest) == 2 && rest[0] == "-o" && rest[1] == "commands" {
			return nvCommands(c.applied), "", 0
		}
		if len(rest) == 0 || (len(rest) == 2 && rest[0] == "-o" && rest[1] == "yaml") {
			return nvYAML(c.applied), "", 0
		}
		return "", "Error: Invalid value for '-o': use commands or yaml\n", 2
	case "apply":
		return c.Apply(args[1:], user)
	}
	return "", fmt.Sprintf("Error: Invalid Command: nv config %s\n", strings.Join(args, " ")), 2
}

// Apply handles `nv config apply [REV] [-y|--assume-yes] [--confirm [T]]
// [--confirm-yes|--confirm-no|--confirm-status]`.
func (c *cumulus) Apply(args []string, user string) (string, string, int) {
	confirm := time.Duration(0)
	rev := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-y" || a == "--y" || a == "--assume-yes":
		case a == "--confirm-yes":
			return c.confirmNow()
		case a == "--confirm-no":
			if c.confirm == nil {
				return "", "Error: There is no pending confirmation\n", 1
			}
			c.rollbackConfirm("confirm_no")
			return "rolled back\n", "", 0
		case a == "--confirm-status":
			if c.confirm == nil {
				return "No pending confirmation\n", "", 0
			}
			left := c.confirm.deadline.Sub(c.env.Now()).Round(time.Second)
			if left < 0 {
				left = 0
			}
			return fmt.Sprintf("Revision %d is waiting for confirmation: %s left before the automatic rollback\n", c.confirm.rev, left), "", 0
		case a == "--confirm" || strings.HasPrefix(a, "--confirm="):
			val := strings.TrimPrefix(a, "--confirm=")
			if a == "--confirm" {
				val = "10m"
				if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					val = args[i+1]
					i++
				}
			}
			d, ok := nvDuration(val)
			if !ok {
				return "", fmt.Sprintf("Error: Invalid value for '--confirm': '%s' (use N, Ns, Nm or Nh)\n", val), 2
			}
			confirm = d
		default:
			n, err := strconv.Atoi(a)
			if err != nil {
				return "", fmt.Sprintf("Error: No such option: %s\n", a), 2
			}
			rev = n
		}
	}
	if c.confirm != nil {
		return "", fmt.Sprintf("Error: revision %d is waiting for confirmation; confirm it or let it roll back first\n", c.confirm.rev), 1
	}
	target, rec := c.pending, c.pendingRev
	if rev >= 0 {
		target, rec = nil, nil
		if r := c.revision(rev); r != nil && r.tree != nil {
			target = r.tree.Clone()
		}
		if target == nil {
			return "", fmt.Sprintf("Error: Revision %d does not exist\n", rev), 1
		}
		rec = c.newRevision(user, fmt.Sprintf("Config update by %s (revision %d)", user, rev))
	}
	if target == nil {
		return "", "Warning: There are no configuration changes to apply.\n", 0
	}
	prev := c.applied
	c.applied = target
	if rev < 0 {
		c.pending, c.pendingRev = nil, nil
	}
	rec.tree, rec.state, rec.applied = target.Clone(), "applied_and_saved", c.env.Now()
	id := rec.id
	out := fmt.Sprintf("applied [rev_id: %d]\n", id)
	if confirm > 0 {
		rec.state = "confirm"
		c.confirm = &nvConfirm{prev: prev, rev: id, deadline: c.env.Now().Add(confirm)}
		c.confirm.cancel = c.env.AfterFunc(confirm, func() {
			if c.confirm != nil && c.confirm.rev == id {
				c.rollbackConfirm("confirm_fail")
			}
		})
		out = fmt.Sprintf("applied [rev_id: %d]\nConfirm the applied configuration within %s or it rolls back.\n", id, confirm)
	}
	return out, "", 0
}

func (c *cumulus) confirmNow() (string, string, int) {
	if c.confirm == nil {
		return "", "Error: There is no pending confirmation\n", 1
	}
	c.confirm.cancel()
	if r := c.revision(c.confirm.rev); r != nil {
		r.state = "applied_and_saved"
	}
	c.confirm = nil
	return "confirmed\n", "", 0
}

// revisionList prints `nv config revision [-o json]`: a table with the
// columns of the NVUE command reference (Rev ID, State, Apply ID, Apply
// Date, Type, User, Reason, Message), or JSON keyed by revision ID whose
// objects hold the same fields (state, apply-id, apply-date, type, user,
// reason, message).
func (c *cumulus) revisionList(args []string) (string, string, int) {
	asJSON := false
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-o" && i+1 < len(args):
			switch args[i+1] {
			case "json":
				asJSON = true
			case "table", "auto":
			default:
				return "", "Error: Invalid value for '-o': use json or table\n", 2
			}
			i++
		case args[i] == "--output=json":
			asJSON = true
		default:
			return "", "Error: No such option: " + args[i] + "\n", 2
		}
	}
	type row struct {
		State     string `json:"state"`
		ApplyID   string `json:"apply-id,omitempty"`
		ApplyDate string `json:"apply-date,omitempty"`
		Type      string `json:"type"`
		User      string `json:"user"`
		Reason    string `json:"reason"`
		Message   string `json:"message"`
	}
	rows := map[string]row{}
	var b strings.Builder
	b.WriteString("Rev ID  State              Apply ID        Apply Date           Type  User      Reason         Message\n")
	b.WriteString("------  -----------------  --------------  -------------------  ----  --------  -------------  -------------------------------\n")
	for _, r := range c.revisions {
		rw := row{State: r.state, Type: "CLI", User: r.user, Reason: "Config update", Message: r.note}
		if !r.applied.IsZero() {
			rw.ApplyID = fmt.Sprintf("rev_%d_apply_1", r.id)
			rw.ApplyDate = r.applied.UTC().Format("2006-01-02 15:04:05")
		}
		rows[strconv.Itoa(r.id)] = rw
		fmt.Fprintf(&b, "%-6d  %-17s  %-14s  %-19s  %-4s  %-8s  %-13s  %s\n", r.id, rw.State, rw.ApplyID, rw.ApplyDate, rw.Type, rw.User, rw.Reason, rw.Message)
	}
	if asJSON {
		out, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return "", "Error: " + err.Error() + "\n", 1
		}
		return string(out) + "\n", "", 0
	}
	return b.String(), "", 0
}

// nvDuration parses a confirm time: bare minutes, or s/m/h suffixed.
func nvDuration(s string) (time.Duration, bool) {
	unit := time.Minute
	switch {
	case strings.HasSuffix(s, "s"):
		unit, s = time.Second, strings.TrimSuffix(s, "s")
	case strings.HasSuffix(s, "m"):
		s = strings.TrimSuffix(s, "m")
	case strings.HasSuffix(s, "h"):
		unit, s = time.Hour, strings.TrimSuffix(s, "h")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// nvDiff lists the pending changes as commands: unsets first, then sets.
func nvDiff(applied, pending *cli.PathTree) string {
	a, p := applied.StatementSet(), pending.StatementSet()
	var unset, set []string
	for k := range a {
		if _, ok := p[k]; !ok {
			unset = append(unset, "nv unset "+k)
		}
	}
	for _, s := range pending.Statements() {
		k := strings.Join(s, " ")
		if _, ok := a[k]; !ok {
			set = append(set, "nv set "+k)
		}
	}
	sort.Strings(unset)
	var b strings.Builder
	for _, l := range append(unset, set...) {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// nvYAML prints the tree as NVUE's YAML: a leaf value sits on its key.
func nvYAML(t *cli.PathTree) string {
	var b strings.Builder
	b.WriteString("- set:\n")
	var walk func(n *cli.PathNode, indent string)
	walk = func(n *cli.PathNode, indent string) {
		for _, k := range n.Kids {
			if len(k.Kids) == 1 && len(k.Kids[0].Kids) == 0 {
				fmt.Fprintf(&b, "%s%s: %s\n", indent, k.Tok, k.Kids[0].Tok)
				continue
			}
			if len(k.Kids) == 0 {
				fmt.Fprintf(&b, "%s%s: {}\n", indent, k.Tok)
				continue
			}
			fmt.Fprintf(&b, "%s%s:\n", indent, k.Tok)
			walk(k, indent+"  ")
		}
	}
	walk(t.Root, "    ")
	return b.String()
}

// PendingConfirm reports whether a commit waits for its confirm timer.
func (c *cumulus) PendingConfirm() bool { return c.confirm != nil }
