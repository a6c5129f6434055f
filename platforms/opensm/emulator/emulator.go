// Package emulator is the lab's OpenSM subnet-manager host: a Debian host
// running opensm 3.3.23 as root, master of its subnet, with one HCA port
// (ib0, port 1) cabled to port 1 of a 36-port leaf switch whose other
// ports are all cabled and active. Its state is the files under
// /etc/opensm (plus the scratch and lock directories the push flow uses),
// /var/log/opensm.log, and the tables the daemon programmed from them:
// SL-to-VL and VL arbitration on the CA port and on every switch port,
// and the CA port's P_Key table.
//
// It speaks the commands push sends to a subnet-manager host, one per SSH
// command, as coreutils, procps, opensm and infiniband-diags print them on
// Debian: base64, mktemp, printf, cat, cp, mv, rm, test, stat, tail,
// `opensm -F CONF -c DUMP`, `pkill -HUP -x opensm` (the daemon re-reads
// its files, logs what OpenSM logs, reprograms the tables), pidof and
// `smpquery -D` (sl2vl, vlarb, pkeys) in the shapes of the real tools,
// measured against opensm 3.3.23 under ibsim. The files are parsed with
// platforms/opensm/osmconf, as push's pre-check parses them.
package emulator

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
	"github.com/fabricgen/fabricgen/platforms/opensm/osmconf"
)

// Paths of the emulated host.
const (
	confDir  = "/etc/opensm"
	confFile = confDir + "/opensm.conf"
	logFile  = "/var/log/opensm.log"
	// staging is the prefix of the push flow's mktemp directories, which
	// are no configuration.
	staging = confDir + "/.fabricgen."
)

// maxLog bounds /var/log/opensm.log: past it the older half is dropped,
// as a rotated log would lose it.
const maxLog = 1 << 20

// switchPorts is the number of ports of the leaf switch.
const switchPorts = 36

// sm is the state of one subnet-manager host.
type sm struct {
	env *cli.Env
	fs  *fileSystem
	// pf runs printf (the shell's printf of the Linux-based devices).
	pf *shell.MemFS
	// running is true while the opensm daemon runs; pid is its pid.
	running bool
	pid     int
	// guid is the HCA port's GUID (derived from the host name).
	guid uint64
	// ca is the CA port's tables; sw the switch's, by port (0..36; port
	// 0 is a base switch port 0 and is never programmed).
	ca    portTables
	sw    [switchPorts + 1]portTables
	pkeys []uint16
	// parts are the partitions of the last sweep (nil: the default
	// configuration), against which the policy's IPoIB rules are checked.
	parts []osmconf.Partition
	// opts are the options of the last sweep.
	opts *osmconf.Options
	// policyLoaded is set once the daemon opened a QoS policy file (it
	// says "Loading QoS policy file" that first time only).
	policyLoaded bool
	// seq numbers mktemp's names, which are deterministic per host.
	seq uint64
}

// arbEntry is one programmed VL arbitration entry.
type arbEntry struct{ vl, weight int }

// portTables is what the SM programs on one port.
type portTables struct {
	sl2vl     [16]int
	low, high [8]arbEntry
}

// factoryTables are a port's tables before any SM programs it, as ibsim
// (and a fresh HCA) reports them: SLn to VLn with SL15 to VL7, VL0 alone
// in the high table with weight 4, VL1-7 weight 4 in the low table.
func factoryTables() portTables {
	var t portTables
	for i := range t.sl2vl {
		t.sl2vl[i] = i
	}
	t.sl2vl[15] = 7
	for i := range 8 {
		t.low[i] = arbEntry{vl: i, weight: 4}
		t.high[i] = arbEntry{vl: i}
	}
	t.low[0].weight = 0
	t.high[0].weight = 4
	return t
}

// New returns the emulator of an OpenSM subnet-manager host, started from
// env.Spec.RunningConfig (a file bundle of files under /etc/opensm) or,
// when that is empty, from a factory host (/etc/opensm exists and is
// empty, as Debian's opensm package leaves it). The daemon runs from the
// start and has swept once.
func New(env *cli.Env) (cli.Emulator, error) {
	s, err := newSM(env)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func newSM(env *cli.Env) (*sm, error) {
	s := &sm{env: env, fs: newFileSystem(), pf: shell.NewMemFS("root"), running: true, pid: 1187}
	h := fnv.New32a()
	_, _ = h.Write([]byte(env.Spec.Name))
	s.guid = 0x0002c90300000001 | uint64(h.Sum32()&0xffffff)<<8
	s.ca = factoryTables()
	for i := range s.sw {
		s.sw[i] = factoryTables()
	}
	if env.Spec.RunningConfig != "" {
		files, err := filebundle.Decode([]byte(env.Spec.RunningConfig))
		if err != nil {
			return nil, fmt.Errorf("running config of %s: %w", env.Spec.Name, err)
		}
		for _, f := range files {
			if !strings.HasPrefix(f.Path, confDir+"/") {
				return nil, fmt.Errorf("running config of %s: file %s is not under %s, where OpenSM's files are", env.Spec.Name, f.Path, confDir)
			}
			if f.Absent {
				continue
			}
			if err := s.makeParents(f.Path); err != nil {
				return nil, fmt.Errorf("running config of %s: %w", env.Spec.Name, err)
			}
			if e := s.fs.write(f.Path, string(f.Text), false); e != "" {
				return nil, fmt.Errorf("running config of %s: writing %s: %s", env.Spec.Name, f.Path, e)
			}
		}
	}
	s.logLine(0x03, "OpenSM 3.3.23")
	s.logLine(0x80, "Entering MASTER state")
	s.sweep()
	return s, nil
}

// makeParents makes the directories between /etc/opensm and p.
func (s *sm) makeParents(p string) error {
	rest := strings.TrimPrefix(p, confDir+"/")
	dir := confDir
	parts := strings.Split(rest, "/")
	for _, part := range parts[:len(parts)-1] {
		dir += "/" + part
		if s.fs.dirs[dir] {
			continue
		}
		if e := s.fs.mkdir(dir); e != "" {
			return fmt.Errorf("making %s: %s", dir, e)
		}
	}
	return nil
}

// bundleFiles returns the regular files under /etc/opensm, sorted by
// path, without the push flow's staging directories and without names a
// file bundle cannot carry (which no rendered configuration has).
func (s *sm) bundleFiles() []filebundle.File {
	var out []filebundle.File
	for _, p := range s.fs.under(confDir) {
		if strings.HasPrefix(p, staging) || filebundle.CheckPath(p) != nil {
			continue
		}
		if len(out) == filebundle.MaxFiles {
			break
		}
		out = append(out, filebundle.File{Path: p, Text: []byte(s.fs.files[p])})
	}
	return out
}

// Running returns the files under /etc/opensm as a file bundle.
func (s *sm) Running() string {
	b, err := filebundle.Encode(s.bundleFiles())
	if err != nil {
		// bundleFiles keeps only paths and counts Encode takes.
		return filebundle.Magic + "\n"
	}
	return string(b)
}

// Export returns the same bundle: given as RunningConfig, it starts a
// host with these files.
func (s *sm) Export() string { return s.Running() }

// OutOfBand runs each line as another administrator's root shell command
// (printf >> /etc/opensm/opensm.conf, pkill -HUP -x opensm); the first
// line that fails stops it.
func (s *sm) OutOfBand(lines []string) error {
	sh := s.shell()
	for _, l := range lines {
		out := sh.Exec(l)
		if sh.Status != 0 {
			return fmt.Errorf("%q exited %d: %s", l, sh.Status, strings.TrimSpace(out))
		}
	}
	return nil
}

// ExpireTimers does nothing: OpenSM has no confirm timer (a change takes
// effect at the SIGHUP-triggered sweep and stays).
func (s *sm) ExpireTimers() {}

func (s *sm) shell() *shell.Shell {
	sh := shell.NewShell(s.runner(), s.fs.write, s.which)
	sh.Record = s.env.Executed
	sh.Stat = func(p string) (bool, bool) {
		isFile, isDir, _ := s.fs.lookup(p)
		return isFile || isDir, isDir
	}
	return sh
}

// NewSession starts a login shell.
func (s *sm) NewSession(t *cli.Term, user string) cli.Session {
	return &session{s: s, user: user, sh: s.shell()}
}

// session is one SSH login: bash on Debian.
type session struct {
	s    *sm
	user string
	sh   *shell.Shell
}

func (c *session) Greeting() string {
	return "Linux " + c.s.env.Spec.Name + " 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64\n\n"
}

func (c *session) Prompt() string {
	if c.user == "root" {
		return "root@" + c.s.env.Spec.Name + ":~# "
	}
	return c.user + "@" + c.s.env.Spec.Name + ":~$ "
}

func (c *session) Disconnect() {}

// Reject answers a line a fault refuses as a host refuses an operation.
func (c *session) Reject(line string) cli.Reply {
	f := strings.Fields(line)
	c.sh.Status = 1
	return cli.Reply{Out: fmt.Sprintf("bash: %s: Operation not permitted\n", f[0]), Status: 1, Config: true}
}

// Handle runs one command line.
func (c *session) Handle(raw string) cli.Reply {
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Reply{Status: c.sh.Status}
	}
	if line == "logout" || line == "exit" {
		return cli.Reply{Out: "logout\n", Exit: true, Status: c.sh.Status}
	}
	pl := c.sh.Prepare(line)
	config := pl.Changes(smChanges, smWrites)
	out := c.sh.Run(pl)
	r := cli.Reply{Out: out, Status: c.sh.Status, Config: config}
	if c.sh.Exited {
		r.Exit = true
		r.Out += "logout\n"
	}
	return r
}

// Changes reports whether the line may change the host: a file written or
// removed outside the scratch places (/tmp, /run/lock, /dev/null), or a
// signal to the daemon. opensm -c (into a scratch file), smpquery,
// base64, cat, stat, tail and test only read.
func (c *session) Changes(line string) bool {
	return shell.Changes(line, smChanges, smWrites)
}

// scratch reports whether p (cleaned) is where writes change nothing the
// host is configured by: /tmp, /run/lock and /dev/null.
func scratch(p string) bool {
	if strings.Contains(p, shell.Dynamic) {
		return false
	}
	c := clean(p)
	return c == "/dev/null" || strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/run/lock/")
}

// smWrites decides for a redirect target.
func smWrites(p string) bool { return !scratch(p) }

// smChanges decides for one command (wrappers stripped).
func smChanges(argv []string) bool {
	ops := operands(argv[1:])
	anyOutside := func(ps []string) bool {
		for _, p := range ps {
			if !scratch(p) {
				return true
			}
		}
		return false
	}
	switch argv[0] {
	case "pkill", "kill", "killall", "systemctl", "service":
		return true
	case "rm", "mkdir", "rmdir", "mv", "tee", "touch", "mktemp":
		return anyOutside(ops)
	case "cp":
		if len(ops) == 0 {
			return false
		}
		return !scratch(ops[len(ops)-1])
	case "opensm":
		// -c DUMP writes DUMP.
		for i, a := range argv[1:] {
			if (a == "-c" || a == "--create-config") && i+2 < len(argv) {
				return !scratch(argv[i+2])
			}
		}
		return false
	}
	return false
}

// operands returns the arguments that are not options (everything after
// "--" is an operand); the argument of mktemp's -p is its operand too.
func operands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if a == "-p" && i+1 < len(args) {
			out = append(out, args[i+1])
			i++
			continue
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		out = append(out, a)
	}
	return out
}

// which answers `command -v`.
func (s *sm) which(name string) (string, bool) {
	switch name {
	case "base64", "cat", "cp", "mv", "rm", "mkdir", "mktemp", "printf", "sha256sum", "stat", "tail", "hostname", "id", "pidof", "pkill", "test", "true", "false", "sudo", "sh", "bash":
		return "/usr/bin/" + name, true
	case "opensm", "smpquery":
		return "/usr/sbin/" + name, true
	}
	return "", false
}
