package emulator

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// nxos emulates Cisco NX-OS: exec and config modes with IOS-style parent
// fallback, `show running-config` (2-space indentation, blank line before
// interface-like stanzas), and configuration checkpoints with rollback
// (Cisco Nexus 9000 NX-OS System Management Configuration Guide,
// "Configuring Rollback"). Configuration lines apply immediately, so a
// dropped session leaves what it applied.
type nxos struct {
	env *cli.Env
	g   cli.Grammar
	cur *cli.Tree
	// checkpoints are device-wide and persist across logins.
	checkpoints map[string]*nxosCheckpoint
	lastChange  string
	// cpSeq numbers checkpoints in creation order.
	cpSeq int
	// acct is the accounting log (`show accounting log`): every command
	// that changed the configuration, from any login; logins numbers the
	// logins for their terminal (pts/N).
	acct   []nxosAcct
	logins int
}

// nxosAcct is one accounting-log record: its sequence number (from 1, for
// start-seqnum and last-index), time, session id (ADDRESS@pts/N), user and
// the command with the modes it was typed in ("configure terminal ;
// interface Ethernet1/1 ; mtu 1500").
type nxosAcct struct {
	seq  int
	when time.Time
	id   string
	user string
	cmd  string
}

// account records a command that changed the configuration.
func (n *nxos) account(id, user, cmd string) {
	n.acct = append(n.acct, nxosAcct{seq: len(n.acct) + 1, when: n.env.Now(), id: id, user: user, cmd: cmd})
	if len(n.acct) > 20000 {
		n.acct = n.acct[len(n.acct)-10000:]
	}
}

// lastIndex is the newest record's sequence number (0: none).
func (n *nxos) lastIndex() int {
	if len(n.acct) == 0 {
		return 0
	}
	return n.acct[len(n.acct)-1].seq
}

// accountingLog prints the records from sequence number from on, as
// `show accounting log` prints them: "Tue Mar 10 09:12:44
// 2026:type=update:id=192.0.2.10@pts/1:user=admin:cmd=configure terminal ;
// interface Ethernet1/1 ; mtu 1500 (SUCCESS)".
func (n *nxos) accountingLog(from int) string {
	var b strings.Builder
	for _, r := range n.acct {
		if r.seq >= from {
			fmt.Fprintf(&b, "%s:type=update:id=%s:user=%s:cmd=%s (SUCCESS)\n", r.when.UTC().Format("Mon Jan _2 15:04:05 2006"), r.id, r.user, r.cmd)
		}
	}
	return b.String()
}

// modePath is the configuration command of a line typed at stack, with
// the modes it was typed in.
func modePath(stack []cli.Frame, line string) string {
	parts := []string{"configure terminal"}
	for _, f := range stack[1:] {
		if f.N != nil {
			parts = append(parts, f.N.Text)
		}
	}
	return strings.Join(append(parts, line), " ; ")
}

type nxosCheckpoint struct {
	name        string
	tree        *cli.Tree
	created     time.Time
	user        string
	description string
	seq         int
}

// New returns the constructor of the emulator of a Cisco NX-OS switch
// (CLI, checkpoints and rollback), started from env.Spec.RunningConfig or,
// when that is empty, from a factory configuration. A saved configuration
// is parsed as push parses a running config, with the platform's dialect
// (config.ParseAsPrinted; its volatile lines include the version line,
// the device's own, printed anew).
func New(dialect func() *pushdialect.Dialect) func(env *cli.Env) (cli.Emulator, error) {
	return func(env *cli.Env) (cli.Emulator, error) {
		n, err := newNXOS(env, dialect)
		if err != nil {
			return nil, err
		}
		return n, nil
	}
}

func newNXOS(env *cli.Env, dialect func() *pushdialect.Dialect) (*nxos, error) {
	n := &nxos{env: env, g: nxosGrammar(), checkpoints: map[string]*nxosCheckpoint{}}
	n.cur = cli.NewTree(n.g)
	if env.Spec.RunningConfig != "" {
		n.cur.LoadExisting(config.ParseAsPrinted(env.Spec.RunningConfig, dialect()))
		n.lastChange = n.stamp()
		return n, nil
	}
	if err := n.cur.Load(nxosFactory(env.Spec)); err != nil {
		return nil, fmt.Errorf("factory config (check DeviceSpec.Ports): %w", err)
	}
	n.lastChange = n.stamp()
	return n, nil
}

// Export is `show running-config`, which loadExisting reads back (its
// header and version line are skipped).
func (n *nxos) Export() string { return n.Running() }

func (n *nxos) stamp() string { return n.env.Now().UTC().Format("Mon Jan 2 15:04:05 2006") }

func nxosFactory(sp cli.Spec) string {
	ports := sp.Ports
	if len(ports) == 0 {
		for i := 1; i <= 32; i++ {
			ports = append(ports, fmt.Sprintf("Ethernet1/%d", i))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `hostname %s
feature lldp
username %s role network-admin
no ip domain-lookup
copp profile strict
snmp-server location lab-row1-rack4
snmp-server community fabricgen-ro group network-operator
ntp server 192.0.2.123 use-vrf management
logging server 192.0.2.10 5 use-vrf management
vrf context management
  ip route 0.0.0.0/0 192.0.2.1
`, sp.Name, sp.Username)
	for _, p := range ports {
		if strings.HasPrefix(nxosIfaceName(p), "mgmt") {
			continue
		}
		fmt.Fprintf(&b, "interface %s\n", nxosIfaceName(p))
	}
	fmt.Fprintf(&b, `interface mgmt0
  vrf member management
  ip address 192.0.2.%d/24
line console
line vty
`, cli.MgmtOctet(sp.Name))
	return b.String()
}

func (n *nxos) Running() string {
	var b strings.Builder
	b.WriteString("!Command: show running-config\n")
	fmt.Fprintf(&b, "!Running configuration last done at: %s\n", n.lastChange)
	fmt.Fprintf(&b, "!Time: %s\n\n", n.stamp())
	b.WriteString("version 10.3(4a) Bios:version 05.47\n")
	b.WriteString(n.body(n.cur))
	return b.String()
}

func (n *nxos) body(t *cli.Tree) string {
	var b strings.Builder
	for _, k := range t.Root.Sorted() {
		if (k.Rule != nil && k.Rule.Spaced) || (k.Opaque && k.Gap) {
			b.WriteString("\n")
		}
		for _, l := range cli.Subtree(k, "", "  ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func (n *nxos) OutOfBand(lines []string) error {
	if err := n.cur.Load(strings.Join(lines, "\n")); err != nil {
		return err
	}
	// Another administrator's login: each line with the modes its
	// indentation puts it in.
	var path []string
	var indents []int
	for _, raw := range lines {
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "!") {
			continue
		}
		in := len(raw) - len(strings.TrimLeft(raw, " "))
		for len(indents) > 0 && indents[len(indents)-1] >= in {
			path, indents = path[:len(path)-1], indents[:len(indents)-1]
		}
		n.account("192.0.2.99@pts/9", "netadmin", strings.Join(append(append([]string{"configure terminal"}, path...), t), " ; "))
		path, indents = append(path, t), append(indents, in)
	}
	n.lastChange = n.stamp()
	return nil
}

func (n *nxos) ExpireTimers() {}

func (n *nxos) NewSession(t *cli.Term, user string) cli.Session {
	t.More = "--More--"
	n.logins++
	return &nxosCLI{n: n, t: t, user: user, id: fmt.Sprintf("192.0.2.10@pts/%d", n.logins)}
}

type nxosCLI struct {
	n     *nxos
	t     *cli.Term
	user  string
	stack []cli.Frame
	// id names the login in the accounting log.
	id string
}

func (c *nxosCLI) Greeting() string {
	return "Cisco Nexus Operating System (NX-OS) Software\nTAC support: http://www.cisco.com/tac\n"
}

func (c *nxosCLI) Prompt() string {
	host := c.n.env.Spec.Name
	if c.stack == nil {
		return host + "# "
	}
	tag := "config"
	if top := c.stack[len(c.stack)-1].Tag; top != "" {
		tag += "-" + top
	}
	return host + "(" + tag + ")# "
}

func (c *nxosCLI) Disconnect() {}

func (c *nxosCLI) Reject(line string) cli.Reply {
	return cli.Reply{Out: "ERROR: " + line + ": hardware resources exhausted; command not applied\n", Status: 1, Config: c.stack != nil}
}

// invalid prints NX-OS's caret error under the offending token.
func (c *nxosCLI) invalid(line string, tok int, incomplete bool) string {
	col := len(c.Prompt())
	f := strings.Fields(line)
	for i := 0; i < tok && i < len(f); i++ {
		col += len(f[i]) + 1
	}
	what := "Invalid command"
	if incomplete {
		what = "Incomplete command"
		col = len(c.Prompt()) + len(line) + 1
	}
	return strings.Repeat(" ", col) + "^\n% " + what + " at '^' marker.\n"
}

func (c *nxosCLI) Handle(raw string) cli.Reply {
	line := cli.Normalize(raw)
	if line == "" || strings.HasPrefix(line, "!") {
		return cli.Reply{}
	}
	if strings.Contains(line, ";") {
		return c.sequence(line)
	}
	if line == "show" || strings.HasPrefix(line, "show ") {
		return c.show(line)
	}
	if c.stack != nil {
		return c.config(line)
	}
	return c.Exec(line)
}

// sequence runs the commands of a line separated by ";" one after the
// other, as NX-OS does ("conf t ; interface Ethernet1/1 ; description x"
// is three commands), stopping at the first that fails.
func (c *nxosCLI) sequence(line string) cli.Reply {
	var out cli.Reply
	for _, part := range strings.Split(line, ";") {
		r := c.Handle(part)
		out.Out += r.Out
		out.Config = out.Config || r.Config
		out.Status, out.Exit = r.Status, r.Exit
		if r.Status != 0 || r.Exit {
			break
		}
	}
	return out
}

func (c *nxosCLI) Exec(line string) cli.Reply {
	f := strings.Fields(line)
	n := c.n
	switch {
	case line == "exit" || line == "logout" || line == "quit":
		return cli.Reply{Exit: true}
	case line == "enable":
		return cli.Reply{}
	case f[0] == "terminal" && len(f) == 3 && (f[1] == "length" || f[1] == "width"):
		v, err := strconv.Atoi(f[2])
		if err != nil || v < 0 {
			return cli.Reply{Out: c.invalid(line, 2, false), Status: 1}
		}
		if f[1] == "length" {
			c.t.Length = v
		} else {
			c.t.Width = v
		}
		return cli.Reply{}
	case line == "terminal dont-ask" || line == "terminal no dont-ask":
		return cli.Reply{}
	case line == "configure" || line == "configure terminal" || line == "config t" || line == "conf t":
		c.stack = []cli.Frame{{N: n.cur.Root, Mode: "config"}}
		return cli.Reply{Out: "Enter configuration commands, one per line. End with CNTL/Z.\n"}
	case line == "copy running-config startup-config" || line == "copy run start":
		return cli.Reply{Out: "[########################################] 100%\nCopy complete, now saving to disk (please wait)...\nCopy complete.\n"}
	case f[0] == "checkpoint" && len(f) >= 2:
		return c.checkpoint(f[1:])
	case f[0] == "checkpoint" && len(f) == 1:
		return c.checkpoint(nil)
	case f[0] == "no" && len(f) == 3 && f[1] == "checkpoint":
		if n.checkpoints[f[2]] == nil {
			return cli.Reply{Out: fmt.Sprintf("ERROR: Checkpoint %s does not exist\n", f[2]), Status: 1}
		}
		delete(n.checkpoints, f[2])
		n.account(c.id, c.user, line)
		return cli.Reply{Config: true}
	case line == "clear checkpoint database":
		n.checkpoints = map[string]*nxosCheckpoint{}
		return cli.Reply{Config: true}
	case len(f) >= 4 && f[0] == "rollback" && f[1] == "running-config" && f[2] == "checkpoint":
		return c.rollback(f[3:])
	}
	return cli.Reply{Out: c.invalid(line, 0, false), Status: 1}
}

// checkpoint handles `checkpoint [NAME] [description TEXT]` (Cisco NX-OS
// System Management Configuration Guide, "Configuring the Rollback
// Feature"): without a name NX-OS names it user-checkpoint-N; a name in
// use is refused ("Checkpoint names must be unique. You cannot overwrite
// previously saved checkpoints with the same name.").
func (c *nxosCLI) checkpoint(args []string) cli.Reply {
	n := c.n
	name := ""
	if len(args) > 0 && args[0] != "description" {
		name, args = args[0], args[1:]
	}
	desc := ""
	if len(args) > 0 {
		if args[0] != "description" || len(args) == 1 {
			return cli.Reply{Out: c.invalid("checkpoint "+name+" "+strings.Join(args, " "), 2, len(args) == 1), Status: 1}
		}
		desc = strings.Join(args[1:], " ")
		if len(desc) > 80 {
			return cli.Reply{Out: "ERROR: Description can be at most 80 characters\n", Status: 1}
		}
	}
	if name == "" {
		for i := 1; ; i++ {
			if cand := fmt.Sprintf("user-checkpoint-%d", i); n.checkpoints[cand] == nil {
				name = cand
				break
			}
		}
	}
	if name == "file" || name == "summary" {
		return cli.Reply{Out: c.invalid("checkpoint "+name, 1, false), Status: 1}
	}
	if len(name) > 80 {
		return cli.Reply{Out: "ERROR: Checkpoint name can be at most 80 characters\n", Status: 1}
	}
	if n.checkpoints[name] != nil {
		return cli.Reply{Out: fmt.Sprintf("ERROR: Checkpoint name '%s' is already in use\n", name), Status: 1}
	}
	n.cpSeq++
	n.checkpoints[name] = &nxosCheckpoint{name: name, tree: n.cur.Clone(), created: n.env.Now(), user: c.user, description: desc, seq: n.cpSeq}
	n.account(c.id, c.user, strings.TrimSpace("checkpoint "+name+" "+strings.Join(args, " ")))
	return cli.Reply{Out: "...........Done\n", Config: true}
}

// rollback restores a checkpoint. Options atomic (the default),
// best-effort and stop-at-first-failure all succeed in the lab, since the
// lab can always apply its own configuration.
func (c *nxosCLI) rollback(args []string) cli.Reply {
	cp := c.n.checkpoints[args[0]]
	if cp == nil {
		return cli.Reply{Out: fmt.Sprintf("ERROR: Checkpoint %s does not exist\n", args[0]), Status: 1}
	}
	if len(args) > 2 || (len(args) == 2 && args[1] != "atomic" && args[1] != "best-effort" && args[1] != "stop-at-first-failure" && args[1] != "verbose") {
		return cli.Reply{Out: c.invalid("rollback running-config checkpoint "+strings.Join(args, " "), 4, false), Status: 1}
	}
	c.n.cur = cp.tree.Clone()
	c.n.lastChange = c.n.stamp()
	c.n.account(c.id, c.user, "rollback running-config checkpoint "+strings.Join(args, " "))
	return cli.Reply{Out: "Note: Applying config parallelly may fail Rollback verification\n" +
		"Collecting Running-Config\n#Generating Rollback Patch\nExecuting Rollback Patch\n" +
		"Generating Running-config for verification\nGenerating Patch for verification\n" +
		"Verification is Successful.\n\nRollback completed successfully.\n", Config: true}
}

func (c *nxosCLI) config(line string) cli.Reply {
	switch line {
	case "end":
		c.stack = nil
		return cli.Reply{}
	case "exit":
		if len(c.stack) == 1 {
			c.stack = nil
		} else {
			c.stack = c.stack[:len(c.stack)-1]
		}
		return cli.Reply{}
	}
	cmd := modePath(c.stack, line)
	stack, err := c.n.cur.Apply(c.stack, line)
	if err == nil {
		c.n.account(c.id, c.user, cmd)
	}
	if err != nil {
		var u *cli.ErrUnknown
		if !errors.As(err, &u) {
			u = &cli.ErrUnknown{}
		}
		return cli.Reply{Out: c.invalid(line, u.Token, u.Incomplete), Status: 1, Config: true}
	}
	c.stack = stack
	c.n.lastChange = c.n.stamp()
	return cli.Reply{Config: true}
}

func (c *nxosCLI) show(line string) cli.Reply {
	cmd, filters := cli.SplitPipe(line)
	n := c.n
	var out string
	f := strings.Fields(cmd)
	switch {
	case cmd == "show running-config" || cmd == "show running-config all":
		out = n.Running()
	case cmd == "show running-config ipqos":
		out = n.Running()
		filters = append([]string{"section ^(class-map|policy-map|system qos|priority-flow-control)"}, filters...)
	case cmd == "show checkpoint summary":
		out = c.checkpointSummary()
	case cmd == "show accounting log last-index":
		out = fmt.Sprintf("accounting-log last-index : %d\n", n.lastIndex())
	case cmd == "show accounting log":
		out = n.accountingLog(1)
	case len(f) == 5 && f[1] == "accounting" && f[2] == "log" && f[3] == "start-seqnum":
		from, err := strconv.Atoi(f[4])
		if err != nil || from < 1 {
			return cli.Reply{Out: c.invalid(cmd, 4, false), Status: 1}
		}
		out = n.accountingLog(from)
	case len(f) == 6 && f[1] == "diff" && f[2] == "rollback-patch" && f[3] == "checkpoint" && f[5] == "running-config":
		cp := n.checkpoints[f[4]]
		if cp == nil {
			return cli.Reply{Out: fmt.Sprintf("ERROR: Checkpoint %s does not exist\n", f[4]), Status: 1}
		}
		out = "#Generating Rollback Patch\n"
		lines := cli.Patch(cp.tree.Root, n.cur.Root, "", "  ")
		if len(lines) == 0 {
			out += "Rollback Patch is Empty\n"
		} else {
			out += "!!\n" + strings.Join(lines, "\n") + "\n"
		}
	case len(f) == 6 && f[1] == "diff" && f[2] == "rollback-patch" && f[3] == "running-config" && f[4] == "checkpoint":
		cp := n.checkpoints[f[5]]
		if cp == nil {
			return cli.Reply{Out: fmt.Sprintf("ERROR: Checkpoint %s does not exist\n", f[5]), Status: 1}
		}
		out = "#Generating Rollback Patch\n"
		lines := cli.Patch(n.cur.Root, cp.tree.Root, "", "  ")
		if len(lines) == 0 {
			out += "Rollback Patch is Empty\n"
		} else {
			out += "!!\n" + strings.Join(lines, "\n") + "\n"
		}
	case cmd == "show version":
		out = "Cisco Nexus Operating System (NX-OS) Software\nSoftware\n  NXOS: version 10.3(4a) [Maintenance Release]\nHardware\n  cisco Nexus9000 C9332D-GX2B Chassis\n"
	case cmd == "show hostname":
		out = n.env.Spec.Name + "\n"
	default:
		// Counters, optics and queues come from the lab's data plane.
		if o, st, ok := n.env.DataPlane.Show(n.env.Spec.Platform, line); ok {
			return cli.Reply{Out: o, Status: st}
		}
		return cli.Reply{Out: c.invalid(cmd, 1, false), Status: 1}
	}
	out, err := cli.ApplyFilters(out, filters)
	if err != nil {
		return cli.Reply{Out: "% Invalid command at '^' marker. (" + err.Error() + ")\n", Status: 1}
	}
	return cli.Reply{Out: out}
}

// checkpointSummary prints `show checkpoint summary` as NX-OS lays it
// out: the user checkpoints in creation order, each "N) NAME:", "Created by
// USER", "Created at Wed, 12:56:56 31 May 2017", "Size is 26,154 bytes"
// and "Description: TEXT" (None when there is none).
func (c *nxosCLI) checkpointSummary() string {
	cps := make([]*nxosCheckpoint, 0, len(c.n.checkpoints))
	for _, cp := range c.n.checkpoints {
		cps = append(cps, cp)
	}
	sort.Slice(cps, func(i, j int) bool { return cps[i].seq < cps[j].seq })
	var b strings.Builder
	b.WriteString("User Checkpoint Summary\n--------------------------------------------------------------------------------\n")
	for i, cp := range cps {
		desc := cp.description
		if desc == "" {
			desc = "None"
		}
		fmt.Fprintf(&b, "%d) %s:\nCreated by %s\nCreated at %s\nSize is %s bytes\nDescription: %s\n\n",
			i+1, cp.name, cp.user, cp.created.UTC().Format("Mon, 15:04:05 02 Jan 2006"), thousands(len(c.n.body(cp.tree))), desc)
	}
	return b.String()
}

// thousands prints n with comma separators, as NX-OS prints sizes.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// changes: in configuration mode every line but navigation and show
// changes the running config; in exec mode checkpoints, rollbacks and
// saves do.
func (c *nxosCLI) Changes(raw string) bool {
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
			return nxosExecChanges(rest)
		}
		return true
	}
	return nxosExecChanges(line)
}

func nxosExecChanges(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "checkpoint", "rollback", "copy", "write", "reload", "delete":
		return true
	case "no":
		return len(f) >= 2 && f[1] == "checkpoint"
	case "clear":
		return len(f) >= 2 && f[1] == "checkpoint"
	}
	return false
}
