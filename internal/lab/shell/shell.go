package shell

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// Shell is a small POSIX-shell subset for the emulated hosts and the
// Linux-based switches: lists (`;`, `&`, newline, `&&`, `||`), brace groups
// and `( ... )` subshells, pipes, redirections (`>`, `>>`, `2>&1`, `>&2`,
// `/dev/null`), quotes and backslash escapes, variables with `$VAR`,
// `${VAR}`, `${VAR:-word}`, `$?`, command substitution with `$(...)` and
// backticks, process substitution `<(...)`, assignments, and the builtins
// exit, set (-e, -u), export, true, false, echo, eval, command, test / [
// and the wrappers sudo, env, nohup, timeout, nice, exec, time and xargs.
//
// Every simple command the shell runs after expansion is reported to
// record, including those inside substitutions and under wrappers, so a
// test can prove which commands ran (Device.Executed).
type Shell struct {
	vars map[string]string
	// Status is the exit status of the last command ($?).
	Status  int
	errexit bool
	nounset bool
	// Exited is set once the shell ran exit (or set -e ended it).
	Exited bool
	// run executes a non-builtin command.
	run Runner
	// write is a redirect into a file.
	write FileWriter
	// which resolves `command -v`.
	which func(string) (string, bool)
	// record, when set, receives the argv of every simple command run.
	Record func(argv []string)
	// Stat answers the file tests of test / [ (-e, -f, -d, -r, -w): does
	// path exist, and is it a directory. Nil: no file exists.
	Stat func(path string) (exists, dir bool)
	// substituted records that the last expansion ran a $(...).
	substituted bool
	// Elevated is true while a command runs under sudo.
	Elevated bool
	// depth counts nested evaluations (substitutions, eval, sh -c), to
	// bound recursion.
	depth int
}

// maxShellDepth bounds nested substitutions, eval and sh -c.
const maxShellDepth = 64

// Runner runs one simple command: argv with its standard input; it
// returns standard output, standard error and the exit status.
type Runner func(argv []string, stdin string) (string, string, int)

// FileWriter writes a redirect target; it returns bash's error text
// ("Permission denied", "No such file or directory") or "".
type FileWriter func(path, data string, appendTo bool) string

// NewShell returns a shell that hands commands to run, redirections to
// write, and answers `command -v` with which.
func NewShell(run Runner, write FileWriter, which func(string) (string, bool)) *Shell {
	return &Shell{vars: map[string]string{}, run: run, write: write, which: which}
}

// child returns a shell for a substitution or `sh -c`: the same tools and
// recorder, one level deeper.
func (s *Shell) child() *Shell {
	c := NewShell(s.run, s.write, s.which)
	c.Record = s.Record
	c.Stat = s.Stat
	c.depth = s.depth + 1
	c.Elevated = s.Elevated
	return c
}

// item is one pipeline (or group) of a list and the operator that joins it
// to the next item.
type item struct {
	text  string
	group []item
	// sub marks a ( ... ) subshell group.
	sub bool
	op  string
}

// skipRegion returns the index just past the quoted, escaped or
// substituted region that starts at src[i], or i+1 for a plain byte.
func skipRegion(src string, i int) (int, error) {
	switch src[i] {
	case '\\':
		return min(i+2, len(src)), nil
	case '\'':
		j := strings.IndexByte(src[i+1:], '\'')
		if j < 0 {
			return 0, fmt.Errorf("unexpected EOF while looking for matching `''")
		}
		return i + j + 2, nil
	case '"':
		for j := i + 1; j < len(src); {
			switch src[j] {
			case '"':
				return j + 1, nil
			case '\\', '`':
				n, err := skipRegion(src, j)
				if err != nil {
					return 0, err
				}
				j = n
			case '$':
				n, err := skipRegion(src, j)
				if err != nil {
					return 0, err
				}
				j = n
			default:
				j++
			}
		}
		return 0, fmt.Errorf("unexpected EOF while looking for matching `\"'")
	case '`':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case '`':
				return j + 1, nil
			}
		}
		return 0, fmt.Errorf("unexpected EOF while looking for matching ``'")
	case '$':
		if i+1 < len(src) && src[i+1] == '(' {
			j, err := matchParen(src, i+1)
			return j + 1, err
		}
		if i+1 < len(src) && src[i+1] == '{' {
			j, err := matchVarBrace(src, i+1)
			return j + 1, err
		}
	case '<', '>':
		if i+1 < len(src) && src[i+1] == '(' {
			j, err := matchParen(src, i+1)
			return j + 1, err
		}
	}
	return i + 1, nil
}

// matchParen returns the index of the ')' that closes the '(' at open.
func matchParen(src string, open int) (int, error) {
	depth := 0
	for i := open; i < len(src); {
		switch c := src[i]; c {
		case '(':
			depth++
			i++
		case ')':
			depth--
			if depth == 0 {
				return i, nil
			}
			i++
		default:
			n, err := skipRegion(src, i)
			if err != nil {
				return 0, err
			}
			i = n
		}
	}
	return 0, fmt.Errorf("unexpected EOF while looking for matching `)'")
}

// matchVarBrace returns the index of the '}' that closes "${" at open.
func matchVarBrace(src string, open int) (int, error) {
	for i := open + 1; i < len(src); {
		if src[i] == '}' {
			return i, nil
		}
		n, err := skipRegion(src, i)
		if err != nil {
			return 0, err
		}
		i = n
	}
	return 0, fmt.Errorf("bad substitution")
}

// matchBrace returns the index of the '}' that closes the group at open.
func matchBrace(src string, open int) (int, error) {
	depth := 0
	for i := open; i < len(src); {
		switch src[i] {
		case '{':
			depth++
			i++
		case '}':
			depth--
			if depth == 0 {
				return i, nil
			}
			i++
		default:
			n, err := skipRegion(src, i)
			if err != nil {
				return 0, err
			}
			i = n
		}
	}
	return 0, fmt.Errorf("syntax error: unexpected end of file (missing `}')")
}

// splitList splits a command list at top-level ; & newline && || and
// groups.
func splitList(src string) ([]item, error) {
	var items []item
	i := 0
	for {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
			i++
		}
		if i >= len(src) {
			return items, nil
		}
		var it item
		switch {
		case src[i] == '{' && (i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n'):
			end, err := matchBrace(src, i)
			if err != nil {
				return nil, err
			}
			sub, err := splitList(src[i+1 : end])
			if err != nil {
				return nil, err
			}
			it.group = sub
			i = end + 1
		case src[i] == '(':
			end, err := matchParen(src, i)
			if err != nil {
				return nil, err
			}
			sub, err := splitList(src[i+1 : end])
			if err != nil {
				return nil, err
			}
			it.group, it.sub = sub, true
			if it.group == nil {
				it.group = []item{}
			}
			i = end + 1
		}
		start := i
	scan:
		for i < len(src) {
			c := src[i]
			switch {
			case c == ';' || c == '\n':
				it.op = ";"
				break scan
			case (c == '&' || c == '|') && i+1 < len(src) && src[i+1] == c:
				it.op = string([]byte{c, c})
				break scan
			case c == '&' && (i == 0 || src[i-1] != '>') && (i+1 >= len(src) || src[i+1] != '>'):
				// A background job runs in the foreground here; bash
				// runs it too, which is what matters for what executes.
				it.op = "&"
				break scan
			}
			n, err := skipRegion(src, i)
			if err != nil {
				return nil, err
			}
			i = n
		}
		it.text = strings.TrimSpace(src[start:i])
		if it.group != nil && it.text != "" {
			return nil, fmt.Errorf("syntax error near unexpected token `%s'", strings.Fields(it.text)[0])
		}
		if it.group == nil && it.text == "" && it.op != "" {
			return nil, fmt.Errorf("syntax error near unexpected token `%s'", it.op)
		}
		i += len(it.op)
		items = append(items, it)
	}
}

// Exec runs a command line and returns what the terminal shows.
func (s *Shell) Exec(line string) string {
	items, err := splitList(line)
	if err != nil {
		s.Status = 2
		return "bash: " + err.Error() + "\n"
	}
	var out strings.Builder
	s.runList(items, &out, &out, true)
	return out.String()
}

// capture runs a command substitution: standard output is returned,
// standard error goes to errOut.
func (s *Shell) capture(line string, errOut *strings.Builder) string {
	items, err := splitList(line)
	if err != nil {
		s.Status = 2
		errOut.WriteString("bash: " + err.Error() + "\n")
		return ""
	}
	var out strings.Builder
	s.runList(items, &out, errOut, false)
	return out.String()
}

func (s *Shell) runList(items []item, out, errOut *strings.Builder, top bool) {
	run := true
	for _, it := range items {
		if s.Exited {
			return
		}
		if run {
			switch {
			case it.sub:
				// A subshell: its exit and variables stay inside.
				sub := s.child()
				for k, v := range s.vars {
					sub.vars[k] = v
				}
				sub.errexit, sub.nounset = s.errexit, s.nounset
				sub.runList(it.group, out, errOut, false)
				s.Status = sub.Status
			case it.group != nil:
				s.runList(it.group, out, errOut, false)
			default:
				o, e := s.pipeline(it.text)
				errOut.WriteString(e)
				out.WriteString(o)
			}
			if it.op == "&" {
				s.Status = 0
			}
			// set -e: a failing command ends the shell unless && or ||
			// follows it; the command after the last && or || of a list
			// is not exempt (bash(1), "set -e").
			tested := it.op == "&&" || it.op == "||"
			if s.errexit && s.Status != 0 && !tested && top {
				s.Exited = true
				return
			}
		}
		switch it.op {
		case "&&":
			run = s.Status == 0
		case "||":
			run = s.Status != 0
		default:
			run = true
		}
	}
}

// pipeline runs `a | b | c` with redirections; it returns standard output
// and standard error.
func (s *Shell) pipeline(text string) (string, string) {
	stages, err := splitPipes(text)
	if err != nil {
		s.Status = 2
		return "", "bash: " + err.Error() + "\n"
	}
	stdin, errs := "", ""
	for _, st := range stages {
		var subErr strings.Builder
		s.substituted = false
		words, err := s.expand(st, &subErr)
		errs += subErr.String()
		if err != nil {
			s.Status = 1
			return "", errs + "bash: " + err.Error() + "\n"
		}
		var argv []string
		redir, appendTo, errToOut, outToErr, dropErr := "", false, false, false, false
		for i := 0; i < len(words); i++ {
			w := words[i]
			if w.quoted {
				argv = append(argv, w.text)
				continue
			}
			switch w.text {
			case ">", ">>", "1>", "1>>", ">|":
				if i+1 >= len(words) {
					s.Status = 2
					return "", errs + "bash: syntax error near unexpected token `newline'\n"
				}
				redir, appendTo = words[i+1].text, strings.HasSuffix(w.text, ">>")
				i++
			case ">/dev/null", "1>/dev/null":
				redir = "/dev/null"
			case "2>&1":
				errToOut = true
			case ">&2", "1>&2":
				outToErr = true
			case "2>/dev/null", "&>/dev/null":
				dropErr = true
				if w.text == "&>/dev/null" {
					redir = "/dev/null"
				}
			case "2>", "2>>":
				if i+1 < len(words) {
					i++
					if words[i].text == "/dev/null" {
						dropErr = true
					}
				}
			default:
				argv = append(argv, w.text)
			}
		}
		if len(argv) == 0 {
			if !s.substituted {
				s.Status = 0
			}
			continue
		}
		if k, v, ok := strings.Cut(argv[0], "="); ok && isVarName(k) && len(argv) == 1 {
			s.vars[k] = v
			if !s.substituted {
				s.Status = 0
			}
			continue
		}
		s.note(argv)
		o, e, code := s.builtin(argv, stdin)
		if outToErr {
			o, e = "", e+o
		}
		if errToOut {
			o, e = o+e, ""
		}
		if dropErr {
			e = ""
		}
		s.Status = code
		switch {
		case redir == "/dev/null":
			o = ""
		case redir != "":
			if msg := s.write(redir, o, appendTo); msg != "" {
				e += "bash: " + redir + ": " + msg + "\n"
				s.Status = 1
			}
			o = ""
		}
		errs += e
		stdin = o
		if s.Exited {
			break
		}
	}
	return stdin, errs
}

// note reports a simple command to the recorder.
func (s *Shell) note(argv []string) {
	if s.Record != nil {
		s.Record(append([]string(nil), argv...))
	}
}

// wrapped runs the command a wrapper (sudo, env, ...) names: it is a
// simple command of its own for the recorder.
func (s *Shell) wrapped(argv []string, stdin string) (string, string, int) {
	s.note(argv)
	return s.builtin(argv, stdin)
}

// builtin runs a builtin or wrapper, or hands argv to the device.
func (s *Shell) builtin(argv []string, stdin string) (string, string, int) {
	switch argv[0] {
	case "exit":
		return s.exit(argv)
	case "set":
		return s.set(argv)
	case "export":
		for _, a := range argv[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && isVarName(k) {
				s.vars[k] = v
			}
		}
		return "", "", 0
	case "true", ":":
		return "", "", 0
	case "false":
		return "", "", 1
	case "echo":
		return echo(argv)
	case "eval":
		return s.eval(argv)
	case "command":
		return s.command(argv, stdin)
	case "sudo":
		return s.sudo(argv, stdin)
	case "env", "nohup", "time", "exec", "nice", "timeout", "xargs":
		return s.wrapper(argv, stdin)
	case "[":
		if argv[len(argv)-1] != "]" {
			return "", "bash: [: missing `]'\n", 2
		}
		return testExpr("[", argv[1:len(argv)-1], s.Stat)
	case "test":
		return testExpr("test", argv[1:], s.Stat)
	case "sh", "bash":
		return s.dashC(argv)
	}
	return s.run(argv, stdin)
}

// exit ends the shell with the given status, or the last one.
func (s *Shell) exit(argv []string) (string, string, int) {
	code := s.Status
	if len(argv) > 1 {
		if n, err := strconv.Atoi(argv[1]); err == nil {
			code = n & 255
		}
	}
	s.Exited = true
	return "", "", code
}

// set takes -e, -u (and ignores -x, -o); +e and +u turn them off.
func (s *Shell) set(argv []string) (string, string, int) {
	for _, a := range argv[1:] {
		on := strings.HasPrefix(a, "-")
		if !on && !strings.HasPrefix(a, "+") {
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'e':
				s.errexit = on
			case 'u':
				s.nounset = on
			case 'x', 'o':
			default:
				return "", "bash: set: " + a + ": invalid option\n", 2
			}
		}
	}
	return "", "", 0
}

// echo prints its arguments; -n drops the newline.
func echo(argv []string) (string, string, int) {
	args := argv[1:]
	nl := "\n"
	if len(args) > 0 && args[0] == "-n" {
		args, nl = args[1:], ""
	}
	return strings.Join(args, " ") + nl, "", 0
}

// eval runs its arguments as a command line.
func (s *Shell) eval(argv []string) (string, string, int) {
	if s.depth >= maxShellDepth {
		return "", "bash: eval: maximum nesting level exceeded\n", 1
	}
	s.depth++
	defer func() { s.depth-- }()
	var out strings.Builder
	items, err := splitList(strings.Join(argv[1:], " "))
	if err != nil {
		return "", "bash: eval: " + err.Error() + "\n", 2
	}
	var errOut strings.Builder
	s.runList(items, &out, &errOut, false)
	return out.String(), errOut.String(), s.Status
}

// command answers `command -v NAME` and runs `command NAME ARGS`.
func (s *Shell) command(argv []string, stdin string) (string, string, int) {
	if len(argv) == 3 && argv[1] == "-v" {
		switch argv[2] {
		case "command", "exit", "set", "echo", "test", "[", "eval", "export", "true", "false":
			return argv[2] + "\n", "", 0
		}
		if path, ok := s.which(argv[2]); ok {
			return path + "\n", "", 0
		}
		return "", "", 1
	}
	if len(argv) >= 2 && !strings.HasPrefix(argv[1], "-") {
		return s.wrapped(argv[1:], stdin)
	}
	return "", "bash: command: only -v NAME or command NAME ARGS is supported here\n", 2
}

// sudo runs the command it names elevated.
func (s *Shell) sudo(argv []string, stdin string) (string, string, int) {
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-u" || rest[0] == "-g" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		return "", "usage: sudo command\n", 1
	}
	saved := s.Elevated
	s.Elevated = true
	defer func() { s.Elevated = saved }()
	return s.wrapped(rest, stdin)
}

// wrapper runs the command env, nohup, time, exec, nice, timeout or xargs
// names.
func (s *Shell) wrapper(argv []string, stdin string) (string, string, int) {
	switch argv[0] {
	case "env":
		rest := argv[1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=")) {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return "", "", 0
		}
		return s.wrapped(rest, stdin)
	case "nohup", "time", "exec":
		if len(argv) == 1 {
			return "", "", 0
		}
		if argv[0] == "exec" {
			defer func() { s.Exited = true }()
		}
		return s.wrapped(argv[1:], stdin)
	case "xargs":
		rest := argv[1:]
		if len(rest) == 0 {
			rest = []string{"echo"}
		}
		return s.wrapped(append(append([]string(nil), rest...), strings.Fields(stdin)...), "")
	}
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-n" || rest[0] == "-s" || rest[0] == "-k" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if argv[0] == "timeout" && len(rest) > 0 {
		rest = rest[1:] // the duration
	}
	if len(rest) == 0 {
		return "", argv[0] + ": missing operand\n", 125
	}
	return s.wrapped(rest, stdin)
}

// dashC runs `sh -c COMMAND` in a child shell.
func (s *Shell) dashC(argv []string) (string, string, int) {
	if len(argv) >= 3 && argv[1] == "-c" {
		if s.depth >= maxShellDepth {
			return "", argv[0] + ": maximum nesting level exceeded\n", 1
		}
		sub := s.child()
		out := sub.Exec(argv[2])
		return out, "", sub.Status
	}
	return "", argv[0] + ": only -c COMMAND is supported here\n", 2
}

// testExpr evaluates the arguments of test / [ as bash does for up to four
// arguments: strings, -n / -z, string and integer comparisons, and !.
func testExpr(name string, args []string, stat func(string) (bool, bool)) (string, string, int) {
	fail := func(msg string) (string, string, int) { return "", "bash: " + name + ": " + msg + "\n", 2 }
	truth := func(b bool) (string, string, int) {
		if b {
			return "", "", 0
		}
		return "", "", 1
	}
	if len(args) > 0 && args[0] == "!" && len(args) != 3 {
		o, e, st := testExpr(name, args[1:], stat)
		if st > 1 {
			return o, e, st
		}
		return o, e, 1 - st
	}
	switch len(args) {
	case 0:
		return truth(false)
	case 1:
		return truth(args[0] != "")
	case 2:
		switch args[0] {
		case "-n":
			return truth(args[1] != "")
		case "-z":
			return truth(args[1] == "")
		case "-e", "-f", "-d", "-r", "-w":
			exists, dir := false, false
			if stat != nil {
				exists, dir = stat(args[1])
			}
			switch args[0] {
			case "-f":
				return truth(exists && !dir)
			case "-d":
				return truth(exists && dir)
			}
			return truth(exists)
		}
		return fail(args[0] + ": unary operator expected")
	case 3:
		a, op, b := args[0], args[1], args[2]
		switch op {
		case "=", "==":
			return truth(a == b)
		case "!=":
			return truth(a != b)
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			x, err := strconv.Atoi(strings.TrimSpace(a))
			if err != nil {
				return fail(a + ": integer expression expected")
			}
			y, err := strconv.Atoi(strings.TrimSpace(b))
			if err != nil {
				return fail(b + ": integer expression expected")
			}
			return truth(map[string]bool{"-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y}[op])
		}
		if a == "!" {
			o, e, st := testExpr(name, args[1:], stat)
			if st > 1 {
				return o, e, st
			}
			return o, e, 1 - st
		}
		return fail(op + ": binary operator expected")
	}
	return fail("too many arguments")
}

// nameByte reports whether c may appear in a variable name.
func nameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isVarName reports whether k is a variable name.
func isVarName(k string) bool {
	if k == "" || cli.IsDigit(k[0]) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !nameByte(k[i]) {
			return false
		}
	}
	return true
}

// splitPipes splits at top-level single '|'.
func splitPipes(text string) ([]string, error) {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		if text[i] == '|' {
			out = append(out, text[start:i])
			start = i + 1
			i++
			continue
		}
		n, err := skipRegion(text, i)
		if err != nil {
			return nil, err
		}
		i = n
	}
	out = append(out, text[start:])
	for _, st := range out {
		if strings.TrimSpace(st) == "" {
			return nil, fmt.Errorf("syntax error near unexpected token `|'")
		}
	}
	return out, nil
}

// word is an expanded word; quoted words are never operators.
type word struct {
	text   string
	quoted bool
}

// expand splits a simple command into words, expanding escapes, variables
// and command substitutions (no field splitting of expansions).
func (s *Shell) expand(text string, errOut *strings.Builder) ([]word, error) {
	var x expansion
	for i := 0; i < len(text); i++ {
		c := text[i]
		var err error
		switch {
		case c == '\\' || c == '\'' || c == '"' || c == '`' || c == '$':
			i, err = s.expandQuote(&x, text, i, errOut)
		case c == ' ' || c == '\t' || c == '\n':
			x.flush()
		case (c == '<' || c == '>') && i+1 < len(text) && text[i+1] == '(':
			// Process substitution: the command runs, its output is a
			// file descriptor path.
			end, err := matchParen(text, i+1)
			if err != nil {
				return nil, err
			}
			s.substitute(text[i+2:end], errOut)
			x.add("/dev/fd/63", false)
			i = end
		case c == '&' && i+1 < len(text) && text[i+1] == '>':
			i = x.redirectBoth(text, i)
		case c == '>' || c == '<':
			i, err = x.redirect(text, i)
		default:
			x.cur.WriteByte(c)
			x.in = true
		}
		if err != nil {
			return nil, err
		}
	}
	x.flush()
	// Join "2>" "/dev/null" style pairs into one operator word.
	var out []word
	for i := 0; i < len(x.words); i++ {
		w := x.words[i]
		if !w.quoted && (w.text == "2>" || w.text == ">" || w.text == "&>") && i+1 < len(x.words) && x.words[i+1].text == "/dev/null" {
			out = append(out, word{text: w.text + "/dev/null"})
			i++
			continue
		}
		out = append(out, w)
	}
	return out, nil
}

// expansion collects the words of a simple command as expand reads it.
type expansion struct {
	words []word
	cur   strings.Builder
	// in is true while a word is open; quoted once part of it was quoted.
	in, quoted bool
}

// flush ends the open word, if any.
func (x *expansion) flush() {
	if x.in {
		x.words = append(x.words, word{x.cur.String(), x.quoted})
		x.cur.Reset()
		x.in, x.quoted = false, false
	}
}

// add appends text to the open word.
func (x *expansion) add(text string, quoted bool) {
	x.cur.WriteString(text)
	x.in = true
	x.quoted = x.quoted || quoted
}

// expandQuote expands the escape, quote, backtick or $-expression at
// text[i]; it returns the index of its last byte.
func (s *Shell) expandQuote(x *expansion, text string, i int, errOut *strings.Builder) (int, error) {
	switch text[i] {
	case '\\':
		if i+1 < len(text) {
			if text[i+1] != '\n' {
				x.add(text[i+1:i+2], true)
			}
			i++
		}
		return i, nil
	case '\'':
		j := strings.IndexByte(text[i+1:], '\'')
		if j < 0 {
			return i, fmt.Errorf("unexpected EOF while looking for matching `''")
		}
		x.add(text[i+1:i+1+j], true)
		return i + j + 1, nil
	case '"':
		end, err := skipRegion(text, i)
		if err != nil {
			return i, err
		}
		v, err := s.subst(text[i+1:end-1], errOut)
		if err != nil {
			return i, err
		}
		x.add(v, true)
		return end - 1, nil
	case '`':
		end, err := skipRegion(text, i)
		if err != nil {
			return i, err
		}
		x.add(s.backtick(text[i+1:end-1], errOut), false)
		return end - 1, nil
	}
	n, v, err := s.dollar(text[i:], errOut)
	if err != nil {
		return i, err
	}
	x.add(v, false)
	return i + n - 1, nil
}

// redirectBoth reads &> or &>> at text[i] as an operator word.
func (x *expansion) redirectBoth(text string, i int) int {
	x.flush()
	op := "&>"
	i++
	if i+1 < len(text) && text[i+1] == '>' {
		op += ">"
		i++
	}
	x.words = append(x.words, word{text: op})
	return i
}

// redirect reads a redirection operator at text[i] (>, >>, >|, 2>, 2>&1,
// >&2) as its own word; input redirection is refused.
func (x *expansion) redirect(text string, i int) (int, error) {
	c := text[i]
	op := string(c)
	prefix := x.cur.String()
	if x.in && (prefix == "1" || prefix == "2") && !x.quoted {
		op = prefix + op
		x.cur.Reset()
		x.in = false
	} else {
		x.flush()
	}
	if i+1 < len(text) && (text[i+1] == '>' || text[i+1] == '|') {
		op += string(text[i+1])
		i++
	}
	if i+2 < len(text) && text[i+1] == '&' && cli.IsDigit(text[i+2]) {
		op += text[i+1 : i+3]
		i += 2
	}
	if op == "<" || op == "<<" {
		return i, fmt.Errorf("input redirection is not supported in the lab shell")
	}
	x.words = append(x.words, word{text: op})
	return i, nil
}

// subst expands the inside of double quotes: $-expressions, backticks and
// the escapes \$ \` \" \\ and backslash-newline.
func (s *Shell) subst(text string, errOut *strings.Builder) (string, error) {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			if i+1 < len(text) && strings.IndexByte("$`\"\\\n", text[i+1]) >= 0 {
				if text[i+1] != '\n' {
					b.WriteByte(text[i+1])
				}
				i++
				continue
			}
			b.WriteByte('\\')
		case '$':
			n, v, err := s.dollar(text[i:], errOut)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i += n - 1
		case '`':
			end, err := skipRegion(text, i)
			if err != nil {
				return "", err
			}
			b.WriteString(s.backtick(text[i+1:end-1], errOut))
			i = end - 1
		default:
			b.WriteByte(text[i])
		}
	}
	return b.String(), nil
}

// backtick runs an old-style command substitution; inside it, \` \\ and
// \$ stand for the character itself.
func (s *Shell) backtick(body string, errOut *strings.Builder) string {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) && strings.IndexByte("`\\$", body[i+1]) >= 0 {
			b.WriteByte(body[i+1])
			i++
			continue
		}
		b.WriteByte(body[i])
	}
	return strings.TrimRight(s.substitute(b.String(), errOut), "\n")
}

// substitute runs a command substitution in a child shell and returns its
// standard output.
func (s *Shell) substitute(body string, errOut *strings.Builder) string {
	if s.depth >= maxShellDepth {
		s.Status = 1
		errOut.WriteString("bash: maximum nesting level exceeded\n")
		return ""
	}
	sub := s.child()
	sub.vars = s.vars
	sub.errexit, sub.nounset = false, s.nounset
	out := sub.capture(body, errOut)
	s.Status = sub.Status
	s.substituted = true
	return out
}

// dollar expands the $-expression at the start of text; it returns how
// many bytes it used.
func (s *Shell) dollar(text string, errOut *strings.Builder) (int, string, error) {
	if len(text) < 2 {
		return 1, "$", nil
	}
	switch c := text[1]; {
	case c == '?':
		return 2, strconv.Itoa(s.Status), nil
	case c == '$':
		return 2, "4242", nil
	case c == '(':
		end, err := matchParen(text, 1)
		if err != nil {
			return 0, "", err
		}
		out := s.substitute(text[2:end], errOut)
		return end + 1, strings.TrimRight(out, "\n"), nil
	case c == '{':
		end, err := matchVarBrace(text, 1)
		if err != nil {
			return 0, "", err
		}
		v, err := s.braced(text[2:end], errOut)
		return end + 1, v, err
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := 1
		for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || cli.IsDigit(text[j])) {
			j++
		}
		v, err := s.lookup(text[1:j])
		return j, v, err
	}
	return 1, "$", nil
}

// braced expands ${NAME}, ${NAME:-word} and ${NAME-word}; the word is
// expanded (and any substitution in it runs) only when it is used, as in
// bash.
func (s *Shell) braced(body string, errOut *strings.Builder) (string, error) {
	name, rest := body, ""
	for i := 0; i < len(body); i++ {
		if !nameByte(body[i]) {
			name, rest = body[:i], body[i:]
			break
		}
	}
	if rest == "" {
		return s.lookup(name)
	}
	if !isVarName(name) {
		return "", fmt.Errorf("${%s}: bad substitution", body)
	}
	v, set := s.vars[name]
	switch {
	case strings.HasPrefix(rest, ":-"), strings.HasPrefix(rest, ":="):
		if v != "" {
			return v, nil
		}
		w, err := s.subst(rest[2:], errOut)
		if err == nil && rest[1] == '=' {
			s.vars[name] = w
		}
		return w, err
	case strings.HasPrefix(rest, "-"), strings.HasPrefix(rest, "="):
		if set {
			return v, nil
		}
		w, err := s.subst(rest[1:], errOut)
		if err == nil && rest[0] == '=' {
			s.vars[name] = w
		}
		return w, err
	case strings.HasPrefix(rest, ":+"):
		if v == "" {
			return "", nil
		}
		return s.subst(rest[2:], errOut)
	}
	return "", fmt.Errorf("${%s}: bad substitution", body)
}

func (s *Shell) lookup(name string) (string, error) {
	v, ok := s.vars[name]
	if !ok && s.nounset {
		return "", fmt.Errorf("%s: unbound variable", name)
	}
	return v, nil
}
