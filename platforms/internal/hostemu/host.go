package hostemu

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
)

// host emulates a Linux server with ConnectX NICs: the commands our NIC
// scripts run (mlnx_qos and cma_roce_tos from Mellanox/mlnx-tools, the
// MLNX_OFED ECN sysfs, iproute2 ip and dcb, ethtool pause, modprobe and
// the configfs mount) against one shared per-netdev DCB state, as the mlx5
// driver keeps it: no dcb apptrust, DSCP app entries only.
type host struct {
	env     *cli.Env
	nics    map[string]*nic
	order   []string
	dynamic bool // create netdevs on first use (no DeviceSpec.Ports)
	tools   bool // mlnx-tools present: mlnx_qos, cma_roce_tos, cma_roce_mode (nvidia_mlnx)
	ofed    bool // MLNX_OFED's mlx5_core: the ECN sysfs exists (nvidia_mlnx, not inbox)
	// driver is the NICs' kernel driver: mlx5_core, ice or bnxt_en.
	driver string
	// rdmaCM is true once the rdma_cm module is loaded (MLNX_OFED's
	// openibd loads it at boot; an upstream host loads it on demand).
	rdmaCM bool
	// configfs is true while configfs is mounted on /sys/kernel/config.
	configfs bool
	// lock is /run/lock (mode 1777, a tmpfs): the files and directories
	// programs make there to lock the host. It is not NIC state.
	lock *shell.MemFS
}

// runLock is the lock directory every user may write to.
const runLock = "/run/lock"

// underRunLock reports whether any argument of argv is a path under
// /run/lock.
func underRunLock(argv []string) bool {
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, runLock+"/") {
			return true
		}
	}
	return false
}

// nic is the DCB and RDMA state of one netdev.
type nic struct {
	name     string
	index    int
	rdma     string
	mtu      int
	trust    string
	pfc      [8]bool
	dscp     map[int]int // explicit DSCP -> priority (dcb app / dscp2prio)
	prioTC   [8]int
	tsa      [8]string
	tcbw     [8]int
	ecnNP    [8]bool
	ecnRP    [8]bool
	cnpDSCP  int
	cnpPrio  int
	tos      int
	cable    int
	pauseRX  bool
	pauseTX  bool
	rate     [8]string // per-TC rate limit ("" = unlimited)
	roceMode int       // rdma_cm RoCE mode (cma_roce_mode), 2 = RoCEv2
	pfcTout  int       // ethtool pfc-prevention-tout, ms
	cmDir    bool      // /sys/kernel/config/rdma_cm/<dev> exists
	fwLLDP   bool      // ice: the firmware LLDP agent runs (private flag fw-lldp-agent)
}

// hostIfaceRe is the netdev names a host without a port list creates on
// first use; a listed port may be any name the kernel takes (schema's
// linux_dcb port naming: dev_valid_name as a plain shell word).
var hostIfaceRe = regexp.MustCompile(`^[a-z][a-z0-9_]{1,14}$`)

// Tools is the NIC tool set of a host platform.
type Tools int

// Tool sets.
const (
	// InboxTools is a host with the distribution's tools only (iproute2
	// dcb, ethtool, ip, sysfs, configfs): linux_dcb.
	InboxTools Tools = iota
	// NvidiaTools adds Mellanox/mlnx-tools (mlnx_qos, cma_roce_tos,
	// cma_roce_mode) and, unless the device has the inbox driver,
	// MLNX_OFED's mlx5_core with its ECN sysfs: nvidia_mlnx.
	NvidiaTools
)

// New returns the constructor of a Linux RoCE host emulator with the
// given tools (mlnx_qos, dcb, ethtool, ip, sysfs and configfs), started
// from env.Spec.RunningConfig or, when that is empty, from a factory
// configuration.
func New(tools Tools) func(env *cli.Env) (cli.Emulator, error) {
	return func(env *cli.Env) (cli.Emulator, error) {
		e, err := newHost(env, tools)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
}

func newHost(env *cli.Env, set Tools) (*host, error) {
	tools := set == NvidiaTools
	ofed := tools && !env.Spec.InboxDriver
	driver := env.Spec.Driver
	switch driver {
	case "":
		driver = hostspec.DefaultDriver
	case "mlx5_core", "ice", "bnxt_en":
	default:
		return nil, fmt.Errorf("driver %q: the lab emulates mlx5_core, ice and bnxt_en NICs", driver)
	}
	if tools && driver != hostspec.DefaultDriver {
		return nil, fmt.Errorf("driver %q: an nvidia_mlnx host has ConnectX (mlx5_core) NICs", driver)
	}
	h := &host{env: env, nics: map[string]*nic{}, tools: tools, ofed: ofed, driver: driver, rdmaCM: ofed, configfs: true, lock: shell.NewMemFS(env.Spec.Username)}
	h.lock.AddRoot(runLock)
	ports := env.Spec.Ports
	if len(ports) == 0 {
		h.dynamic = true
		ports = []string{"ens1f0np0", "ens1f1np1"}
	}
	naming := schema.HostPorts()
	for _, p := range ports {
		if !naming.Check(p) {
			return nil, fmt.Errorf("port %q is not a Linux interface name (%s)", p, naming.Form)
		}
		h.add(p)
	}
	if env.Spec.RunningConfig != "" {
		if err := h.replay(env.Spec.RunningConfig); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// replay runs a host script line by line through the host's own shell
// and tools (a line ending in a backslash continues on the next); the
// first command that fails stops it.
func (h *host) replay(script string) error {
	sh := h.shell()
	lines := strings.Split(script, "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimRight(lines[i], " \t\r")
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + strings.TrimRight(lines[i], " \t\r")
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		out := sh.Exec(trimmed)
		if sh.Status != 0 || sh.Exited {
			if sh.Exited && sh.Status == 0 {
				return nil
			}
			return fmt.Errorf("line %d %q exited with status %d: %s", start, trimmed, sh.Status, strings.TrimSpace(out))
		}
	}
	return nil
}

// Export prints the host's NIC state as the commands that give a factory
// host the same state, one setting a line, in a fixed order: netdevs in
// creation order with their MTU, then DCB (dcb pfc/ets/app/maxrate; on
// nvidia_mlnx the mlnx_qos trust and cable length), pause and PFC storm
// prevention (ethtool), the rdma_cm module, configfs and default_roce_tos,
// and on nvidia_mlnx the ECN sysfs and the RoCE mode.
func (h *host) Export() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fabricgen lab: NIC state of %s (%s); replayed on a factory host it gives this state\n", h.env.Spec.Name, h.env.Spec.Platform)
	if h.rdmaCM && !h.ofed {
		b.WriteString("modprobe rdma_cm\n")
	}
	factory := &nic{}
	for _, name := range h.order {
		n := h.nics[name]
		*factory = *h.fresh(name)
		fmt.Fprintf(&b, "ip link set dev %s mtu %d\n", n.name, n.mtu)
		if n.pfc != factory.pfc {
			fmt.Fprintf(&b, "dcb pfc set dev %s prio-pfc", n.name)
			for i, on := range n.pfc {
				fmt.Fprintf(&b, " %d:%s", i, onOff(on))
			}
			b.WriteString("\n")
		}
		if n.prioTC != factory.prioTC || n.tsa != factory.tsa || n.tcbw != factory.tcbw {
			fmt.Fprintf(&b, "dcb ets set dev %s prio-tc", n.name)
			for i, v := range n.prioTC {
				fmt.Fprintf(&b, " %d:%d", i, v)
			}
			b.WriteString(" tc-tsa")
			for i, v := range n.tsa {
				fmt.Fprintf(&b, " %d:%s", i, v)
			}
			b.WriteString(" tc-bw")
			for i, v := range n.tcbw {
				fmt.Fprintf(&b, " %d:%d", i, v)
			}
			b.WriteString("\n")
		}
		if len(n.dscp) > 0 {
			fmt.Fprintf(&b, "dcb app add dev %s dscp-prio", n.name)
			for _, d := range sortedInts(n.dscp) {
				fmt.Fprintf(&b, " %d:%d", d, n.dscp[d])
			}
			b.WriteString("\n")
		}
		if h.tools && (n.trust != "dscp") != (len(n.dscp) == 0) {
			fmt.Fprintf(&b, "mlnx_qos -i %s --trust %s\n", n.name, n.trust)
		}
		if n.rate != factory.rate {
			fmt.Fprintf(&b, "dcb maxrate set dev %s tc-maxrate", n.name)
			for i, r := range n.rate {
				if r != "" {
					fmt.Fprintf(&b, " %d:%s", i, r)
				}
			}
			b.WriteString("\n")
		}
		if h.tools && n.cable != factory.cable {
			fmt.Fprintf(&b, "mlnx_qos -i %s --cable_len %d\n", n.name, n.cable)
		}
		if n.pauseRX != factory.pauseRX || n.pauseTX != factory.pauseTX {
			fmt.Fprintf(&b, "ethtool -A %s rx %s tx %s\n", n.name, onOff(n.pauseRX), onOff(n.pauseTX))
		}
		if n.pfcTout != factory.pfcTout {
			fmt.Fprintf(&b, "ethtool --set-tunable %s pfc-prevention-tout %d\n", n.name, n.pfcTout)
		}
		if n.fwLLDP != factory.fwLLDP {
			fmt.Fprintf(&b, "ethtool --set-priv-flags %s fw-lldp-agent %s\n", n.name, onOff(n.fwLLDP))
		}
		if n.cmDir || n.tos != factory.tos {
			cm := "/sys/kernel/config/rdma_cm/" + n.rdma
			fmt.Fprintf(&b, "mkdir -p %s\n", cm)
			if n.tos != factory.tos {
				fmt.Fprintf(&b, "echo %d > %s/ports/1/default_roce_tos\n", n.tos, cm)
			}
		}
		if h.tools && n.roceMode != factory.roceMode {
			fmt.Fprintf(&b, "cma_roce_mode -d %s -p 1 -m %d\n", n.rdma, n.roceMode)
		}
		if !h.ofed {
			continue
		}
		for p := 0; p < 8; p++ {
			if n.ecnNP[p] != factory.ecnNP[p] {
				fmt.Fprintf(&b, "echo %d > /sys/class/net/%s/ecn/roce_np/enable/%d\n", b2i(n.ecnNP[p]), n.name, p)
			}
			if n.ecnRP[p] != factory.ecnRP[p] {
				fmt.Fprintf(&b, "echo %d > /sys/class/net/%s/ecn/roce_rp/enable/%d\n", b2i(n.ecnRP[p]), n.name, p)
			}
		}
		if n.cnpDSCP != factory.cnpDSCP {
			fmt.Fprintf(&b, "echo %d > /sys/class/net/%s/ecn/roce_np/cnp_dscp\n", n.cnpDSCP, n.name)
		}
		if n.cnpPrio != factory.cnpPrio {
			fmt.Fprintf(&b, "echo %d > /sys/class/net/%s/ecn/roce_np/cnp_802p_prio\n", n.cnpPrio, n.name)
		}
	}
	return b.String()
}

// fresh returns a factory netdev of that name (not added to the host).
func (h *host) fresh(name string) *nic {
	saved, order := h.nics, h.order
	h.nics, h.order = map[string]*nic{}, nil
	n := h.add(name)
	h.nics, h.order = saved, order
	return n
}

func sortedInts(m map[int]int) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func (h *host) add(name string) *nic {
	n := &nic{name: name, index: len(h.order), mtu: 1500, trust: "pcp", dscp: map[int]int{},
		roceMode: 2, pfcTout: 100, fwLLDP: h.driver == "ice",
		prioTC: [8]int{1, 0, 2, 3, 4, 5, 6, 7}, cnpDSCP: 48, cnpPrio: 6, cable: 7, pauseRX: true, pauseTX: true}
	n.rdma = fmt.Sprintf("%s%d", map[string]string{"mlx5_core": "mlx5_", "ice": "irdma", "bnxt_en": "bnxt_re"}[h.driver], n.index)
	for i := range n.tsa {
		n.tsa[i] = "vendor"
		n.ecnNP[i], n.ecnRP[i] = true, true
	}
	h.nics[name] = n
	h.order = append(h.order, name)
	return n
}

// lookup returns the netdev, creating it when the host is dynamic.
func (h *host) lookup(name string) *nic {
	if n := h.nics[name]; n != nil {
		return n
	}
	if h.dynamic && hostIfaceRe.MatchString(name) {
		return h.add(name)
	}
	return nil
}

func (h *host) byRDMA(dev string) *nic {
	for _, name := range h.order {
		if h.nics[name].rdma == dev {
			return h.nics[name]
		}
	}
	return nil
}

// prioOf returns the priority a DSCP value maps to under DSCP trust.
func (n *nic) prioOf(d int) int {
	if p, ok := n.dscp[d]; ok {
		return p
	}
	return d >> 3
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func bits(a [8]bool) string {
	s := make([]string, 8)
	for i, b := range a {
		s[i] = "0"
		if b {
			s[i] = "1"
		}
	}
	return strings.Join(s, ",")
}

func ints(a [8]int) string {
	s := make([]string, 8)
	for i, v := range a {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

// Running dumps the NIC state in a fixed order.
func (h *host) Running() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fabricgen lab host %s (%s)\n", h.env.Spec.Name, h.env.Spec.Platform)
	fmt.Fprintf(&b, "module rdma_cm %s\n", map[bool]string{true: "loaded", false: "not loaded"}[h.rdmaCM])
	fmt.Fprintf(&b, "configfs %s\n", map[bool]string{true: "mounted", false: "not mounted"}[h.configfs])
	for _, name := range h.order {
		n := h.nics[name]
		fmt.Fprintf(&b, "netdev %s\n", n.name)
		fmt.Fprintf(&b, "  rdma-device %s\n", n.rdma)
		fmt.Fprintf(&b, "  mtu %d\n", n.mtu)
		fmt.Fprintf(&b, "  trust %s\n", n.trust)
		fmt.Fprintf(&b, "  pfc %s\n", bits(n.pfc))
		fmt.Fprintf(&b, "  dscp-prio %s\n", n.dscpApp())
		fmt.Fprintf(&b, "  prio-tc %s\n", ints(n.prioTC))
		fmt.Fprintf(&b, "  tsa %s\n", strings.Join(n.tsa[:], ","))
		fmt.Fprintf(&b, "  tc-bw %s\n", ints(n.tcbw))
		fmt.Fprintf(&b, "  pause rx %s tx %s\n", onOff(n.pauseRX), onOff(n.pauseTX))
		if h.driver == hostspec.DefaultDriver {
			fmt.Fprintf(&b, "  pfc-prevention-tout %d\n", n.pfcTout)
		}
		if h.driver == "ice" {
			fmt.Fprintf(&b, "  fw-lldp-agent %s\n", onOff(n.fwLLDP))
		}
		fmt.Fprintf(&b, "  tc-maxrate %s\n", n.rates())
		fmt.Fprintf(&b, "  default_roce_tos %d\n", n.tos)
		if h.ofed {
			fmt.Fprintf(&b, "  ecn roce_np enable %s\n", bits(n.ecnNP))
			fmt.Fprintf(&b, "  ecn roce_rp enable %s\n", bits(n.ecnRP))
			fmt.Fprintf(&b, "  ecn roce_np cnp_dscp %d\n", n.cnpDSCP)
			fmt.Fprintf(&b, "  ecn roce_np cnp_802p_prio %d\n", n.cnpPrio)
			fmt.Fprintf(&b, "  cable-len %d\n", n.cable)
			fmt.Fprintf(&b, "  roce-mode %d\n", n.roceMode)
		}
	}
	return b.String()
}

func (n *nic) dscpApp() string { return mapPairs(n.dscp) }

func (n *nic) rates() string {
	parts := make([]string, 8)
	for i, r := range n.rate {
		if r == "" {
			r = "unlimited"
		}
		parts[i] = fmt.Sprintf("%d:%s", i, r)
	}
	return strings.Join(parts, " ")
}

func mapPairs(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d:%d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

func (h *host) OutOfBand(lines []string) error {
	sh := h.shell()
	for _, l := range lines {
		out := sh.Exec(l)
		if sh.Status != 0 {
			return fmt.Errorf("%q exited %d: %s", l, sh.Status, strings.TrimSpace(out))
		}
	}
	return nil
}

func (h *host) shell() *shell.Shell {
	sh := shell.NewShell(h.runner(), h.writeFile, h.which)
	sh.Record = h.env.Executed
	sh.Stat = h.stat
	return sh
}

// stat answers the shell's file tests: what exists in the emulated sysfs
// and configfs, and whether it is a directory.
func (h *host) stat(path string) (exists, dir bool) {
	p := strings.Split(strings.Trim(path, "/"), "/")
	if len(p) == 6 && p[0] == "sys" && p[1] == "class" && p[2] == "net" && p[4] == "device" && p[5] == "infiniband" {
		return h.lookup(p[3]) != nil, true
	}
	if len(p) == 3 && p[0] == "sys" && p[1] == "module" && p[2] == "rdma_cm" {
		// A loaded module has its directory under /sys/module.
		return h.rdmaCM, true
	}
	if ref, _ := h.resolve(path); ref != nil {
		return true, false
	}
	return false, false
}

// grep is `grep [-q] PATTERN` on standard input (an extended regular
// expression, as Go's regexp reads it).
func grep(args []string, stdin string) (string, string, int) {
	quiet := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] != "-q" && args[0] != "-E" {
			return "", "grep: invalid option -- '" + strings.TrimPrefix(args[0], "-") + "'\n", 2
		}
		quiet = quiet || args[0] == "-q"
		args = args[1:]
	}
	if len(args) != 1 {
		return "", "Usage: grep [OPTION]... PATTERNS [FILE]...\n", 2
	}
	re, err := regexp.Compile(args[0])
	if err != nil {
		return "", "grep: " + err.Error() + "\n", 2
	}
	var out strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(stdin, "\n"), "\n") {
		if re.MatchString(l) {
			if quiet {
				return "", "", 0
			}
			out.WriteString(l + "\n")
		}
	}
	if out.Len() == 0 {
		return "", "", 1
	}
	return out.String(), "", 0
}

func (h *host) ExpireTimers() {}

func (h *host) NewSession(t *cli.Term, user string) cli.Session {
	return &hostCLI{h: h, user: user, sh: h.shell()}
}

type hostCLI struct {
	h    *host
	user string
	sh   *shell.Shell
}

func (c *hostCLI) Greeting() string {
	return "Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)\n\n"
}

func (c *hostCLI) Prompt() string {
	if c.user == "root" {
		return "root@" + c.h.env.Spec.Name + ":~# "
	}
	return c.user + "@" + c.h.env.Spec.Name + ":~$ "
}

func (c *hostCLI) Disconnect() {}

func (c *hostCLI) Reject(line string) cli.Reply {
	f := strings.Fields(line)
	c.sh.Status = 1
	return cli.Reply{Out: fmt.Sprintf("bash: %s: Operation not permitted\n", f[0]), Status: 1, Config: true}
}

func (c *hostCLI) Handle(raw string) cli.Reply {
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Reply{Status: c.sh.Status}
	}
	if line == "logout" {
		return cli.Reply{Out: "logout\n", Exit: true, Status: c.sh.Status}
	}
	// One parse of the line decides and runs it.
	pl := c.sh.Prepare(line)
	changes := pl.Changes(hostChanges, hostWrites)
	if !changes {
		// A line with no command that changes the host (the decision
		// Reject uses too) leaves its state as it was: no need to print
		// the state twice to compare it.
		out := c.sh.Run(pl)
		r := cli.Reply{Out: out, Status: c.sh.Status}
		if c.sh.Exited {
			r.Exit = true
			r.Out += "logout\n"
		}
		return r
	}
	before := c.h.Running()
	out := c.sh.Run(pl)
	r := cli.Reply{Out: out, Status: c.sh.Status, Config: c.h.Running() != before || changes}
	if c.sh.Exited {
		r.Exit = true
		r.Out += "logout\n"
	}
	return r
}

// Changes reports whether the line sets NIC or kernel state: a write into
// /sys, or a tool run with options that set something.
func (c *hostCLI) Changes(line string) bool {
	return shell.Changes(line, hostChanges, hostWrites)
}

// hostWrites is true for a redirect into /sys (or a path known only when
// the line runs): a write of NIC or kernel state.
func hostWrites(p string) bool {
	return strings.HasPrefix(p, "/sys/") || strings.HasPrefix(p, shell.Dynamic)
}

// hostChanges decides for one command of a host: mlnx_qos with any
// setting (the bare `mlnx_qos -i IF` and `-a` only report), cma_roce_tos
// with -t, cma_roce_mode with -m, ip link set, ethtool's setters, dcb's
// set/add/del/replace/flush, tee into /sys, modprobe, mount and mkdir.
// Everything else the host knows only reads, and what it does not know is
// not found.
func hostChanges(argv []string) bool {
	switch argv[0] {
	case "mlnx_qos":
		for _, a := range argv[1:] {
			k, _, _ := strings.Cut(a, "=")
			switch k {
			case "-i", "--interface", "-a", "--all":
			default:
				if strings.HasPrefix(k, "-") {
					return true
				}
			}
		}
		return false
	case "cma_roce_tos":
		return shell.HasOpt(argv[1:], "-t")
	case "cma_roce_mode":
		return shell.HasOpt(argv[1:], "-m")
	case "tee":
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "/sys/") {
				return true
			}
		}
		return false
	case "mkdir":
		// A lock under /run/lock is no NIC setting.
		return !underRunLock(argv)
	case "modprobe", "mount", "umount", "rmdir", "sysctl", "devlink", "tc":
		return true
	case "rdma":
		return !rdmaReads(argv[1:])
	case "dmesg":
		return shell.HasOpt(argv[1:], "-c") || shell.HasOpt(argv[1:], "-C") || shell.HasOpt(argv[1:], "--clear") || shell.HasOpt(argv[1:], "--read-clear")
	}
	return !shell.LinuxReadOnly(argv) && hostKnows(argv[0])
}

// rdmaReads reports whether rdma's arguments only show something:
// options, then an object (link, dev, resource, statistic, system) and
// show (or no command), never set/mode/bind.
func rdmaReads(args []string) bool {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "link", "dev", "resource", "res", "statistic", "stat", "system", "sys":
	default:
		return false
	}
	return len(args) == 1 || args[1] == "show" || args[1] == "list" || args[1] == "help"
}

// hostKnows reports whether the host has the command at all.
func hostKnows(name string) bool {
	switch name {
	case "ip", "dcb", "ethtool":
		return true
	}
	return false
}

func (h *host) runner() shell.Runner {
	return func(argv []string, stdin string) (string, string, int) {
		name := argv[0]
		if (name == "cat" || name == "mkdir" || name == "rm") && underRunLock(argv) || name == "printf" {
			out, errOut, st, _ := h.lock.Common(h.env.Spec.Name, argv, stdin)
			return out, errOut, st
		}
		// Counters, optics, RDMA state and read-backs come from the lab's
		// data plane.
		if o, e, st, ok := h.env.DataPlane.Exec(h.env.Spec.Platform, argv); ok {
			return o, e, st
		}
		switch name {
		case "cat":
			return h.cat(argv[1:], stdin)
		case "tee":
			args := argv[1:]
			app := false
			if len(args) > 0 && args[0] == "-a" {
				args, app = args[1:], true
			}
			for _, p := range args {
				if msg := h.writeFile(p, stdin, app); msg != "" {
					return stdin, "tee: " + p + ": " + msg + "\n", 1
				}
			}
			return stdin, "", 0
		case "hostname":
			return h.env.Spec.Name + "\n", "", 0
		case "uname":
			return "Linux\n", "", 0
		case "which":
			if len(argv) == 2 {
				if path, ok := h.which(argv[1]); ok {
					return path + "\n", "", 0
				}
			}
			return "", "", 1
		case "find":
			return h.Find(argv[1:])
		case "mkdir":
			return h.mkdir(argv[1:])
		case "rmdir":
			return h.rmdir(argv[1:])
		case "modprobe":
			return h.modprobe(argv[1:])
		case "mountpoint":
			return h.mountpoint(argv[1:])
		case "mount":
			return h.mount(argv[1:])
		case "ip":
			return h.ip(argv[1:])
		case "dcb":
			return h.dcb(argv[1:])
		case "ethtool":
			return h.ethtool(argv[1:])
		case "grep":
			return grep(argv[1:], stdin)
		case "mlnx_qos":
			if h.tools {
				return h.mlnxQoS(argv[1:])
			}
		case "cma_roce_tos":
			if h.tools {
				return h.cmaRoceTos(argv[1:])
			}
		case "cma_roce_mode":
			if h.tools {
				return h.cmaRoceMode(argv[1:])
			}
		}
		return "", "bash: " + name + ": command not found\n", 127
	}
}

func (h *host) which(name string) (string, bool) {
	switch name {
	case "cat", "tee", "true", "false", "hostname", "uname", "sh", "bash", "sudo", "which", "find", "mkdir", "rmdir", "mountpoint", "mount", "grep", "rm", "printf":
		return "/usr/bin/" + name, true
	case "ip", "dcb", "ethtool", "modprobe", "rdma", "lldpctl":
		return "/usr/sbin/" + name, true
	case "dmesg":
		return "/usr/bin/dmesg", true
	case "mlnx_qos", "cma_roce_tos", "cma_roce_mode":
		if h.tools {
			return "/usr/sbin/" + name, true
		}
	}
	return "", false
}

// RunningConfigForm is what a host's saved configuration holds, for help
// texts: lab show prints it and lab up --running-config replays it.
const RunningConfigForm = "the commands that give a factory host its NIC state"
