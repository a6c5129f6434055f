package lab

import (
	"sort"
	"strings"
)

// memFS is the writable part of a Linux-based switch's file system: files
// under /tmp and the user's home directory, where scripts stage patches.
type memFS struct {
	home  string
	files map[string]string
}

func newMemFS(user string) *memFS {
	return &memFS{home: "/home/" + user + "/", files: map[string]string{}}
}

func (m *memFS) path(p string) string {
	if strings.HasPrefix(p, "~/") {
		return m.home + p[2:]
	}
	if !strings.HasPrefix(p, "/") {
		return m.home + p
	}
	return p
}

func (m *memFS) writable(p string) bool {
	return strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, m.home)
}

// write implements fileWriter.
func (m *memFS) write(p, data string, appendTo bool) string {
	p = m.path(p)
	if !m.writable(p) {
		return "Permission denied"
	}
	if appendTo {
		data = m.files[p] + data
	}
	m.files[p] = data
	return ""
}

func (m *memFS) read(p string) (string, bool) {
	v, ok := m.files[m.path(p)]
	return v, ok
}

// common runs the file and identity commands every Linux-based switch
// has; ok is false for anything else.
func (m *memFS) common(hostname string, argv []string, stdin string) (out, errOut string, status int, ok bool) {
	switch argv[0] {
	case "cat":
		if len(argv) == 1 {
			return stdin, "", 0, true
		}
		var b, e strings.Builder
		st := 0
		for _, p := range argv[1:] {
			v, found := m.read(p)
			if !found {
				e.WriteString("cat: " + p + ": No such file or directory\n")
				st = 1
				continue
			}
			b.WriteString(v)
		}
		return b.String(), e.String(), st, true
	case "tee":
		args := argv[1:]
		app := false
		if len(args) > 0 && args[0] == "-a" {
			args, app = args[1:], true
		}
		for _, p := range args {
			if msg := m.write(p, stdin, app); msg != "" {
				return stdin, "tee: " + p + ": " + msg + "\n", 1, true
			}
		}
		return stdin, "", 0, true
	case "rm":
		st := 0
		var e strings.Builder
		force := false
		for _, p := range argv[1:] {
			if strings.HasPrefix(p, "-") {
				force = force || strings.Contains(p, "f")
				continue
			}
			if _, found := m.read(p); !found {
				if !force {
					e.WriteString("rm: cannot remove '" + p + "': No such file or directory\n")
					st = 1
				}
				continue
			}
			delete(m.files, m.path(p))
		}
		return "", e.String(), st, true
	case "ls":
		var names []string
		for p := range m.files {
			names = append(names, p)
		}
		sort.Strings(names)
		return strings.Join(names, "\n") + "\n", "", 0, true
	case "hostname":
		return hostname + "\n", "", 0, true
	case "printf":
		if len(argv) >= 2 && argv[1] == "%s" {
			return strings.Join(argv[2:], ""), "", 0, true
		}
		if len(argv) >= 2 {
			return strings.ReplaceAll(argv[1], `\n`, "\n"), "", 0, true
		}
		return "", "printf: usage: printf format [arguments]\n", 2, true
	}
	return "", "", 0, false
}

// linuxCLI is an interactive bash login on a Linux-based switch.
type linuxCLI struct {
	host, user, vrf string
	sh              *shell
	// isChange decides whether one command (argv, wrappers stripped)
	// changes the switch; writes whether a file write does.
	isChange func(argv []string) bool
	writes   func(path string) bool
}

func (c *linuxCLI) greeting() string {
	return "Linux " + c.host + " 6.1.0-cl-1-amd64 #1 SMP x86_64\n\n"
}

func (c *linuxCLI) prompt() string {
	if c.vrf != "" {
		return c.user + "@" + c.host + ":" + c.vrf + ":~$ "
	}
	return c.user + "@" + c.host + ":~$ "
}

func (c *linuxCLI) disconnect() {}

func (c *linuxCLI) reject(line string) reply {
	c.sh.status = 1
	return reply{out: "Error: the request was rejected by the switch (" + strings.Fields(line)[0] + ")\n", status: 1, config: true}
}

func (c *linuxCLI) handle(raw string) reply {
	line := strings.TrimSpace(raw)
	if line == "" || strings.HasPrefix(line, "#") {
		return reply{status: c.sh.status}
	}
	if line == "logout" {
		return reply{out: "logout\n", exit: true}
	}
	config := c.changes(line)
	out := c.sh.exec(line)
	r := reply{out: out, status: c.sh.status, config: config}
	if c.sh.exited {
		r.exit = true
		r.out += "logout\n"
	}
	return r
}

// changes asks the switch about each command of the line.
func (c *linuxCLI) changes(line string) bool {
	return shellChanges(line, c.isChange, c.writes)
}
