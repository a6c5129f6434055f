package shell

import (
	cryptorand "crypto/rand"
	"path"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// MemFS is the writable part of a Linux-based switch's file system: files
// under /tmp and the user's home directory, where scripts stage patches,
// and the directories mktemp -d makes under /tmp. It is device-wide:
// every login sees the same files.
type MemFS struct {
	home  string
	files map[string]string
	// dirs are the directories made under /tmp (mode 0700).
	dirs map[string]bool
	// rand returns n random characters for mktemp; tests replace it.
	rand func(n int) string
	// roots are more directories every user may write under (AddRoot).
	roots []string
}

// AddRoot makes dir an existing directory every user may make files and
// directories under (as /run/lock, mode 1777).
func (m *MemFS) AddRoot(dir string) {
	m.roots = append(m.roots, path.Clean(dir))
}

// NewMemFS returns an empty file system whose home is /home/USER.
func NewMemFS(user string) *MemFS {
	return &MemFS{home: "/home/" + user + "/", files: map[string]string{}, dirs: map[string]bool{}, rand: randomName}
}

// randomName returns n characters of [A-Za-z0-9] from crypto/rand, as
// mktemp fills its X's.
func randomName(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = cryptorand.Read(b) // never fails (crypto/rand, Go 1.24+)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// dirOf returns the directory part of a clean path.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// isDir reports whether p is a directory the switch has.
func (m *MemFS) isDir(p string) bool {
	for _, r := range m.roots {
		if p == r {
			return true
		}
	}
	return p == "/tmp" || p == strings.TrimSuffix(m.home, "/") || m.dirs[p]
}

func (m *MemFS) path(p string) string {
	switch {
	case strings.HasPrefix(p, "~/"):
		p = m.home + p[2:]
	case !strings.HasPrefix(p, "/"):
		p = m.home + p
	}
	return path.Clean(p)
}

func (m *MemFS) writable(p string) bool {
	for _, r := range m.roots {
		if strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, m.home)
}

// Write writes a file (appendTo appends) and returns bash's error text
// or "": it is the FileWriter of the shells that use m.
func (m *MemFS) Write(p, data string, appendTo bool) string {
	p = m.path(p)
	if !m.writable(p) {
		return "Permission denied"
	}
	if m.isDir(p) {
		return "Is a directory"
	}
	if !m.isDir(dirOf(p)) {
		return "No such file or directory"
	}
	if appendTo {
		data = m.files[p] + data
	}
	m.files[p] = data
	return ""
}

func (m *MemFS) Read(p string) (string, bool) {
	v, ok := m.files[m.path(p)]
	return v, ok
}

// Common runs the file and identity commands every Linux-based switch
// has; ok is false for anything else.
func (m *MemFS) Common(hostname string, argv []string, stdin string) (out, errOut string, status int, ok bool) {
	switch argv[0] {
	case "cat":
		out, errOut, status = m.cat(argv, stdin)
	case "tee":
		out, errOut, status = m.tee(argv, stdin)
	case "rm":
		out, errOut, status = m.rm(argv)
	case "mktemp":
		return m.mktemp(argv[1:])
	case "mkdir":
		out, errOut, status = m.mkdir(argv)
	case "ls":
		out, errOut, status = m.ls(argv)
	case "hostname":
		out = hostname + "\n"
	case "printf":
		out, errOut, status = printf(argv)
	default:
		return "", "", 0, false
	}
	return out, errOut, status, true
}

// cat prints files, or standard input without arguments.
func (m *MemFS) cat(argv []string, stdin string) (string, string, int) {
	if len(argv) == 1 {
		return stdin, "", 0
	}
	var b, e strings.Builder
	st := 0
	for _, p := range argv[1:] {
		v, found := m.Read(p)
		if !found {
			e.WriteString("cat: " + p + ": No such file or directory\n")
			st = 1
			continue
		}
		b.WriteString(v)
	}
	return b.String(), e.String(), st
}

// tee copies standard input to files (-a appends) and to its output.
func (m *MemFS) tee(argv []string, stdin string) (string, string, int) {
	args := argv[1:]
	app := false
	if len(args) > 0 && args[0] == "-a" {
		args, app = args[1:], true
	}
	for _, p := range args {
		if msg := m.Write(p, stdin, app); msg != "" {
			return stdin, "tee: " + p + ": " + msg + "\n", 1
		}
	}
	return stdin, "", 0
}

// rm removes files, and directories with -r.
func (m *MemFS) rm(argv []string) (string, string, int) {
	st := 0
	var e strings.Builder
	force, recursive := false, false
	var paths []string
	for _, p := range argv[1:] {
		if strings.HasPrefix(p, "-") && len(p) > 1 {
			force = force || strings.Contains(p, "f")
			recursive = recursive || strings.ContainsAny(p, "rR")
			continue
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		full := m.path(p)
		if m.dirs[full] {
			if !recursive {
				e.WriteString("rm: cannot remove '" + p + "': Is a directory\n")
				st = 1
				continue
			}
			m.removeTree(full)
			continue
		}
		if m.isDir(full) {
			e.WriteString("rm: cannot remove '" + p + "': Permission denied\n")
			st = 1
			continue
		}
		if _, found := m.files[full]; !found {
			if !force {
				e.WriteString("rm: cannot remove '" + p + "': No such file or directory\n")
				st = 1
			}
			continue
		}
		delete(m.files, full)
	}
	return "", e.String(), st
}

// mkdir makes directories (-p: existing ones are fine).
func (m *MemFS) mkdir(argv []string) (string, string, int) {
	st := 0
	var e strings.Builder
	parents := false
	for _, p := range argv[1:] {
		if p == "-p" || p == "--parents" {
			parents = true
			continue
		}
		if strings.HasPrefix(p, "-") {
			continue
		}
		full := m.path(p)
		switch {
		case m.isDir(full):
			if !parents {
				e.WriteString("mkdir: cannot create directory '" + p + "': File exists\n")
				st = 1
			}
		case !m.writable(full):
			e.WriteString("mkdir: cannot create directory '" + p + "': Permission denied\n")
			st = 1
		case !m.isDir(dirOf(full)):
			e.WriteString("mkdir: cannot create directory '" + p + "': No such file or directory\n")
			st = 1
		default:
			m.dirs[full] = true
		}
	}
	return "", e.String(), st
}

// ls lists a directory (or every path) one per line.
func (m *MemFS) ls(argv []string) (string, string, int) {
	var names []string
	dir := ""
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") {
			dir = strings.TrimSuffix(m.path(a), "/")
		}
	}
	if dir != "" && !m.isDir(dir) {
		if _, ok := m.files[dir]; ok {
			return dir + "\n", "", 0
		}
		return "", "ls: cannot access '" + argv[len(argv)-1] + "': No such file or directory\n", 2
	}
	for p := range m.files {
		if dir == "" || dirOf(p) == dir {
			names = append(names, p)
		}
	}
	for p := range m.dirs {
		if dir == "" || dirOf(p) == dir {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "", "", 0
	}
	return strings.Join(names, "\n") + "\n", "", 0
}

// printf handles `printf FORMAT [ARGS...]` with %s, %% and the \n, \t and
// \\ escapes in FORMAT; the format is reused until the arguments are used
// up, as POSIX printf does.
func printf(argv []string) (string, string, int) {
	if len(argv) < 2 {
		return "", "printf: usage: printf format [arguments]\n", 2
	}
	format, args := argv[1], argv[2:]
	var b strings.Builder
	for {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\' && i+1 < len(format):
				i++
				switch format[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(format[i])
				}
			case c == '%' && i+1 < len(format) && format[i+1] == '%':
				i++
				b.WriteByte('%')
			case c == '%' && i+1 < len(format) && format[i+1] == 's':
				i++
				used = true
				if len(args) > 0 {
					b.WriteString(args[0])
					args = args[1:]
				}
			default:
				b.WriteByte(c)
			}
		}
		if !used || len(args) == 0 {
			break
		}
	}
	return b.String(), "", 0
}

// removeTree removes a directory and everything under it.
func (m *MemFS) removeTree(dir string) {
	for p := range m.files {
		if strings.HasPrefix(p, dir+"/") {
			delete(m.files, p)
		}
	}
	for p := range m.dirs {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			delete(m.dirs, p)
		}
	}
}

// mktemp makes a unique file, or with -d a directory (mode 0700, the
// caller's own), from a template whose trailing X's (at least three) are
// replaced by random characters: tmp.XXXXXXXXXX under /tmp by default,
// -p DIR or --tmpdir=DIR for another directory (GNU coreutils mktemp).
func (m *MemFS) mktemp(args []string) (string, string, int, bool) {
	dir, tmpl, isDir, dry := "", "", false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-d" || a == "--directory":
			isDir = true
		case a == "-u" || a == "--dry-run":
			dry = true
		case a == "-q" || a == "--quiet":
		case a == "-t":
			if dir == "" {
				dir = "/tmp"
			}
		case a == "-p" || a == "--tmpdir":
			if i+1 >= len(args) {
				return "", "mktemp: option requires an argument -- 'p'\n", 1, true
			}
			dir = args[i+1]
			i++
		case strings.HasPrefix(a, "--tmpdir="):
			dir = strings.TrimPrefix(a, "--tmpdir=")
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.Trim(a[1:], "dqut") == "" {
				isDir = isDir || strings.Contains(a, "d")
				dry = dry || strings.Contains(a, "u")
				continue
			}
			return "", "mktemp: invalid option -- '" + strings.TrimLeft(a, "-") + "'\n", 1, true
		default:
			if tmpl != "" {
				return "", "mktemp: too many templates\n", 1, true
			}
			tmpl = a
		}
	}
	if tmpl == "" {
		tmpl = "tmp.XXXXXXXXXX"
		if dir == "" {
			dir = "/tmp"
		}
	}
	x := len(tmpl) - len(strings.TrimRight(tmpl, "X"))
	if x < 3 {
		return "", "mktemp: too few X's in template '" + tmpl + "'\n", 1, true
	}
	if strings.Contains(tmpl, "/") && dir != "" {
		return "", "mktemp: invalid template, '" + tmpl + "', contains directory separator\n", 1, true
	}
	target := tmpl
	if dir != "" {
		target = strings.TrimSuffix(dir, "/") + "/" + tmpl
	}
	target = m.path(target)
	parent := dirOf(target)
	if !m.isDir(parent) {
		return "", "mktemp: failed to create file via template '" + target + "': No such file or directory\n", 1, true
	}
	if !m.writable(target) {
		return "", "mktemp: failed to create file via template '" + target + "': Permission denied\n", 1, true
	}
	for try := 0; ; try++ {
		cand := target[:len(target)-x] + m.rand(x)
		if _, taken := m.files[cand]; taken || m.dirs[cand] {
			if try > 100 {
				return "", "mktemp: failed to create file via template '" + target + "': File exists\n", 1, true
			}
			continue
		}
		if !dry {
			if isDir {
				m.dirs[cand] = true
			} else {
				m.files[cand] = ""
			}
		}
		return cand + "\n", "", 0, true
	}
}

// LinuxCLI is an interactive bash login on a Linux-based switch.
type LinuxCLI struct {
	Host, User, Vrf string
	Sh              *Shell
	// IsChange decides whether one command (argv, wrappers stripped)
	// changes the switch; writes whether a file write does.
	IsChange func(argv []string) bool
	Writes   func(path string) bool
}

// Greeting is the login banner.
func (c *LinuxCLI) Greeting() string {
	return "Linux " + c.Host + " 6.1.0-cl-1-amd64 #1 SMP x86_64\n\n"
}

// Prompt is bash's prompt, with the VRF when there is one.
func (c *LinuxCLI) Prompt() string {
	if c.Vrf != "" {
		return c.User + "@" + c.Host + ":" + c.Vrf + ":~$ "
	}
	return c.User + "@" + c.Host + ":~$ "
}

// Disconnect does nothing: a shell keeps no session state.
func (c *LinuxCLI) Disconnect() {}

// Reject answers a line refused by a fault.
func (c *LinuxCLI) Reject(line string) cli.Reply {
	c.Sh.Status = 1
	return cli.Reply{Out: "Error: the request was rejected by the switch (" + strings.Fields(line)[0] + ")\n", Status: 1, Config: true}
}

// Handle runs one command line.
func (c *LinuxCLI) Handle(raw string) cli.Reply {
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return cli.Reply{Status: c.Sh.Status}
	}
	if line == "logout" {
		return cli.Reply{Out: "logout\n", Exit: true}
	}
	pl := c.Sh.Prepare(line)
	config := pl.Changes(c.IsChange, c.Writes)
	out := c.Sh.Run(pl)
	r := cli.Reply{Out: out, Status: c.Sh.Status, Config: config}
	if c.Sh.Exited {
		r.Exit = true
		r.Out += "logout\n"
	}
	return r
}

// Changes asks the switch about each command of the line.
func (c *LinuxCLI) Changes(line string) bool {
	return Changes(line, c.IsChange, c.Writes)
}
