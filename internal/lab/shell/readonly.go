package shell

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// Which lines change a device is each emulator's decision (its
// cliSession.changes): Fault.Reject refuses only those, so show commands,
// read-backs and navigation always work and `fabricgen plan` runs under any
// fault. For the shells of hosts, Cumulus and SONiC the decision is made on
// the simple commands of the line, found statically (nothing runs): every
// command of every list, pipeline, group, substitution and wrapper counts,
// whatever the control flow would pick.

// Dynamic marks the part of a statically expanded word that only running
// the line would know (a variable or a substitution).
const Dynamic = "\x00"

// shellCommand is one simple command found in a line: its words, with
// dynamic parts marked, and the files it redirects output into.
type shellCommand struct {
	argv   []string
	writes []string
}

// Changes reports whether a line holds a command that changes the
// device (isChange) or writes a file that counts as device state (writes;
// the path may hold the dynamic marker).
// A command whose name is only known at run time counts as a change; a
// line that does not parse changes nothing (the shell refuses it).
func Changes(line string, isChange func(argv []string) bool, writes func(path string) bool) bool {
	cmds, ok := staticCommands(line, 0)
	if !ok {
		return false
	}
	for _, c := range cmds {
		for _, w := range c.writes {
			if writes(w) {
				return true
			}
		}
		argv := unwrapArgv(c.argv)
		if len(argv) == 0 {
			continue
		}
		if strings.Contains(argv[0], Dynamic) {
			return true
		}
		if isChange(argv) {
			return true
		}
	}
	return false
}

// unwrapArgv strips leading assignments and the wrappers that run another
// command (sudo, env, nohup, time, exec, nice, timeout, command, xargs).
func unwrapArgv(argv []string) []string {
	for len(argv) > 0 {
		if k, _, ok := strings.Cut(argv[0], "="); ok && isVarName(k) {
			argv = argv[1:]
			continue
		}
		switch argv[0] {
		case "sudo", "nice", "timeout", "env":
			w := argv[0]
			argv = argv[1:]
			for len(argv) > 0 && (strings.HasPrefix(argv[0], "-") || (w == "env" && strings.Contains(argv[0], "="))) {
				if argv[0] == "-u" || argv[0] == "-g" || argv[0] == "-n" || argv[0] == "-s" || argv[0] == "-k" {
					argv = argv[1:]
				}
				if len(argv) > 0 {
					argv = argv[1:]
				}
			}
			if w == "timeout" && len(argv) > 0 {
				argv = argv[1:]
			}
		case "nohup", "time", "exec", "xargs":
			argv = argv[1:]
		case "command":
			if len(argv) > 1 && argv[1] == "-v" {
				return nil
			}
			argv = argv[1:]
		default:
			return argv
		}
	}
	return argv
}

// staticCommands lists the simple commands of a line without running it.
func staticCommands(line string, depth int) ([]shellCommand, bool) {
	if depth > maxShellDepth {
		return nil, false
	}
	items, err := splitList(line)
	if err != nil {
		return nil, false
	}
	var out []shellCommand
	var walk func(items []item) bool
	walk = func(items []item) bool {
		for _, it := range items {
			if it.group != nil {
				if !walk(it.group) {
					return false
				}
				continue
			}
			stages, err := splitPipes(it.text)
			if err != nil {
				return false
			}
			for _, st := range stages {
				cmds, ok := staticStage(st, depth)
				if !ok {
					return false
				}
				out = append(out, cmds...)
			}
		}
		return true
	}
	if !walk(items) {
		return nil, false
	}
	return out, true
}

// staticStage expands one pipeline stage statically: it returns the
// commands of its substitutions, then the stage's own command.
func staticStage(text string, depth int) ([]shellCommand, bool) {
	st := &staticScan{depth: depth}
	for i := 0; i < len(text); i++ {
		c := text[i]
		ok := true
		switch {
		case c == '\\' || c == '\'' || c == '"' || c == '`' || c == '$' ||
			((c == '<' || c == '>') && i+1 < len(text) && text[i+1] == '('):
			i, ok = st.quote(text, i)
		case c == ' ' || c == '\t' || c == '\n':
			st.emit()
		case c == '>' || (c == '&' && i+1 < len(text) && text[i+1] == '>'):
			i = st.redirect(text, i)
		default:
			st.cur.WriteByte(c)
			st.in = true
		}
		if !ok {
			return nil, false
		}
	}
	st.emit()
	return st.commands()
}

// staticScan is the state of staticStage over one pipeline stage.
type staticScan struct {
	depth int
	// subs are the commands of the stage's substitutions.
	subs          []shellCommand
	words, redirs []string
	cur           strings.Builder
	// in is true while a word is open; pendingRedir when that word is the
	// target of a redirection.
	in, pendingRedir bool
}

// nested adds the commands of a substitution's body.
func (st *staticScan) nested(body string) bool {
	cmds, ok := staticCommands(body, st.depth+1)
	st.subs = append(st.subs, cmds...)
	return ok
}

// emit ends the current word: an argument, or the target of the
// redirection before it.
func (st *staticScan) emit() {
	if !st.in {
		return
	}
	w := st.cur.String()
	st.cur.Reset()
	st.in = false
	if st.pendingRedir {
		st.redirs = append(st.redirs, w)
		st.pendingRedir = false
		return
	}
	st.words = append(st.words, w)
}

// add appends text to the open word.
func (st *staticScan) add(text string) {
	st.cur.WriteString(text)
	st.in = true
}

// quote reads the escape, quotes, substitution or $-expression at
// text[i]; it returns the index of its last byte, and false when the
// text cannot be expanded statically.
func (st *staticScan) quote(text string, i int) (int, bool) {
	switch text[i] {
	case '\\':
		if i+1 < len(text) {
			st.add(text[i+1 : i+2])
			i++
		}
		return i, true
	case '\'':
		j := strings.IndexByte(text[i+1:], '\'')
		if j < 0 {
			return i, false
		}
		st.add(text[i+1 : i+1+j])
		return i + j + 1, true
	case '"':
		end, err := skipRegion(text, i)
		if err != nil {
			return i, false
		}
		v, ok := staticDouble(text[i+1:end-1], st.nested)
		st.add(v)
		return end - 1, ok
	case '`':
		end, err := skipRegion(text, i)
		if err != nil || !st.nested(unescapeBacktick(text[i+1:end-1])) {
			return i, false
		}
		st.add(Dynamic)
		return end - 1, true
	case '$':
		n, ok := staticDollar(text[i:], st.nested)
		st.add(Dynamic)
		return i + n - 1, ok
	}
	// <( ... ) or >( ... )
	end, err := matchParen(text, i+1)
	if err != nil || !st.nested(text[i+2:end]) {
		return i, false
	}
	st.add("/dev/fd/63")
	return end, true
}

// redirect reads a redirection operator at text[i]: the next word is its
// target, except for a descriptor duplication (2>&1) and stderr into a
// file, whose target is skipped. It returns the index of its last byte.
func (st *staticScan) redirect(text string, i int) int {
	c := text[i]
	prefix := st.cur.String()
	if c == '&' {
		i++
	}
	fd := ""
	if st.in && (prefix == "1" || prefix == "2") {
		fd = prefix
		st.cur.Reset()
		st.in = false
	}
	st.emit()
	for i+1 < len(text) && (text[i+1] == '>' || text[i+1] == '|') {
		i++
	}
	if i+2 < len(text) && text[i+1] == '&' && cli.IsDigit(text[i+2]) {
		return i + 2
	}
	if fd != "2" {
		st.pendingRedir = true
		return i
	}
	// stderr into a file: skip the target word.
	st.pendingRedir = false
	for i+1 < len(text) && text[i+1] == ' ' {
		i++
	}
	j := i + 1
	for j < len(text) && text[j] != ' ' && text[j] != '\t' {
		j++
	}
	return j - 1
}

// commands returns the substitutions' commands, those sh -c, bash -c or
// eval run, then the stage's own command with the files it writes.
func (st *staticScan) commands() ([]shellCommand, bool) {
	out := append([]shellCommand(nil), st.subs...)
	cmd := shellCommand{argv: st.words}
	for _, r := range st.redirs {
		if r != "/dev/null" {
			cmd.writes = append(cmd.writes, r)
		}
	}
	a := unwrapArgv(st.words)
	var inner string
	switch {
	case len(a) >= 3 && (a[0] == "sh" || a[0] == "bash") && a[1] == "-c":
		inner = a[2]
	case len(a) >= 2 && a[0] == "eval":
		inner = strings.Join(a[1:], " ")
	default:
		return append(out, cmd), true
	}
	cmds, ok := staticCommands(inner, st.depth+1)
	if !ok {
		return nil, false
	}
	return append(append(out, cmds...), cmd), true
}

// staticDouble expands the inside of double quotes statically.
func staticDouble(body string, nested func(string) bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			if i+1 < len(body) {
				b.WriteByte(body[i+1])
				i++
			}
		case '$':
			n, ok := staticDollar(body[i:], nested)
			if !ok {
				return "", false
			}
			b.WriteString(Dynamic)
			i += n - 1
		case '`':
			end, err := skipRegion(body, i)
			if err != nil || !nested(unescapeBacktick(body[i+1:end-1])) {
				return "", false
			}
			b.WriteString(Dynamic)
			i = end - 1
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String(), true
}

// staticDollar measures a $-expression and walks the substitutions in it.
func staticDollar(text string, nested func(string) bool) (int, bool) {
	if len(text) < 2 {
		return 1, true
	}
	switch c := text[1]; {
	case c == '(':
		end, err := matchParen(text, 1)
		if err != nil {
			return 0, false
		}
		return end + 1, nested(text[2:end])
	case c == '{':
		end, err := matchVarBrace(text, 1)
		if err != nil {
			return 0, false
		}
		// A default word may hold substitutions.
		if _, ok := staticDouble(text[2:end], nested); !ok {
			return 0, false
		}
		return end + 1, true
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := 1
		for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || cli.IsDigit(text[j])) {
			j++
		}
		return j, true
	case c == '?' || c == '$':
		return 2, true
	}
	return 1, true
}

func unescapeBacktick(body string) string {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) && strings.IndexByte("`\\$", body[i+1]) >= 0 {
			b.WriteByte(body[i+1])
			i++
			continue
		}
		b.WriteByte(body[i])
	}
	return b.String()
}

// HasOpt reports whether args hold one of the options.
func HasOpt(args []string, opts ...string) bool {
	for _, a := range args {
		k, _, _ := strings.Cut(a, "=")
		for _, o := range opts {
			if k == o {
				return true
			}
		}
	}
	return false
}

// LinuxReadOnly reports whether a command of the Linux userland the lab
// emulates only reads: file and text tools, identity, tests, and the
// read-back forms of ip, ethtool and dcb. Anything else the emulators do
// not know is not found on the device and changes nothing either.
func LinuxReadOnly(argv []string) bool {
	switch argv[0] {
	case "cat", "ls", "echo", "printf", "test", "[", "true", "false", ":", "hostname", "uname", "which", "find",
		"grep", "head", "tail", "wc", "sort", "date", "id", "whoami", "pwd", "mountpoint", "lsmod", "sleep", "set",
		"export", "exit":
		return true
	case "ip":
		args := argv[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		return len(args) < 2 || args[1] == "show" || args[1] == "list" || args[1] == "ls"
	case "ethtool":
		return len(argv) < 2 || !HasOpt(argv[1:2], "-A", "--pause", "-s", "--change", "-K", "--features", "--offload",
			"--set-tunable", "-G", "--set-ring", "-L", "--set-channels", "-C", "--coalesce", "--set-priv-flags", "-r", "--negotiate")
	case "dcb":
		args := argv[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		return len(args) < 2 || args[1] == "show" || args[1] == "help"
	}
	return false
}

// NoFiles is the writes check of a switch whose shell writes only scratch
// files (/tmp, home): none of them is configuration.
func NoFiles(string) bool { return false }
