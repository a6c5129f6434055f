package lab

import (
	"fmt"
	"strings"
)

// A small POSIX-shell subset for the emulated hosts and Linux-based
// switches: `;`, `&&`, `||`, pipes, `>`/`>>` redirection (including
// `2>&1` and `/dev/null`), single and double quotes, `$?`, and `sudo`.

// shellWord splits a command line into words, honouring quotes. Operators
// (; && || | > >>) come back as separate words; quoted text never does.
func shellWords(line string) ([]string, []bool, error) {
	var words []string
	var quoted []bool
	var cur strings.Builder
	inWord, q := false, false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			quoted = append(quoted, q)
			cur.Reset()
			inWord, q = false, false
		}
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(line[i+1:], ch)
			if end < 0 {
				return nil, nil, fmt.Errorf("unexpected EOF while looking for matching `%c'", ch)
			}
			cur.WriteString(line[i+1 : i+1+end])
			inWord, q = true, true
			i += end + 1
		case ch == ' ' || ch == '\t':
			flush()
		case ch == ';' || ch == '|' || ch == '&' || ch == '>':
			if ch == '>' && inWord && cur.String() == "2" {
				cur.WriteByte('>')
				if i+1 < len(line) && line[i+1] == '&' {
					cur.WriteString(line[i+1 : i+3])
					i += 2
				}
				flush()
				continue
			}
			flush()
			op := string(ch)
			if i+1 < len(line) && line[i+1] == ch && ch != ';' {
				op += string(ch)
				i++
			}
			if op == "&" {
				return nil, nil, fmt.Errorf("syntax error near unexpected token `&'")
			}
			words = append(words, op)
			quoted = append(quoted, false)
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return words, quoted, nil
}

// shellRunner runs one simple command: argv with its standard input; it
// returns standard output, standard error and the exit status.
type shellRunner func(argv []string, stdin string) (string, string, int)

// fileWriter writes a redirect target; it returns an error message for
// bash ("Permission denied", "No such file or directory").
type fileWriter func(path, data string, appendTo bool) string

// runShell executes a command line. lastStatus feeds `$?`.
func runShell(line string, lastStatus int, run shellRunner, write fileWriter) (string, int) {
	words, quoted, err := shellWords(line)
	if err != nil {
		return "bash: " + err.Error() + "\n", 2
	}
	var out strings.Builder
	status := lastStatus
	skip := false
	start := 0
	for i := 0; i <= len(words); i++ {
		if i < len(words) && (quoted[i] || (words[i] != ";" && words[i] != "&&" && words[i] != "||")) {
			continue
		}
		seg, segQ := append([]string(nil), words[start:i]...), quoted[start:i]
		for j := range seg {
			seg[j] = strings.ReplaceAll(seg[j], "$?", fmt.Sprint(status))
		}
		if len(seg) > 0 && !skip {
			o, st := runPipeline(seg, segQ, run, write)
			out.WriteString(o)
			status = st
		}
		if i < len(words) {
			switch words[i] {
			case "&&":
				skip = status != 0
			case "||":
				skip = status == 0
			default:
				skip = false
			}
		}
		start = i + 1
	}
	return out.String(), status
}

func runPipeline(words []string, quoted []bool, run shellRunner, write fileWriter) (string, int) {
	var stages [][]string
	var stageQ [][]bool
	cur, curQ := []string{}, []bool{}
	for i, w := range words {
		if w == "|" && !quoted[i] {
			stages, stageQ = append(stages, cur), append(stageQ, curQ)
			cur, curQ = []string{}, []bool{}
			continue
		}
		cur, curQ = append(cur, w), append(curQ, quoted[i])
	}
	stages, stageQ = append(stages, cur), append(stageQ, curQ)
	stdin, errs := "", ""
	status := 0
	for si, st := range stages {
		var argv []string
		redir, appendTo, toStdout := "", false, false
		for i := 0; i < len(st); i++ {
			w := st[i]
			if stageQ[si][i] {
				argv = append(argv, w)
				continue
			}
			switch w {
			case ">", ">>":
				if i+1 >= len(st) {
					return "bash: syntax error near unexpected token `newline'\n", 2
				}
				redir, appendTo = st[i+1], w == ">>"
				i++
			case "2>&1":
				toStdout = true
			case "2>/dev/null":
				errs = ""
			default:
				argv = append(argv, w)
			}
		}
		if len(argv) == 0 {
			return "bash: syntax error near unexpected token `|'\n", 2
		}
		o, e, code := run(argv, stdin)
		hideErr := strings.Contains(strings.Join(st, " "), "2>/dev/null")
		if toStdout {
			o, e = o+e, ""
		}
		if hideErr {
			e = ""
		}
		errs += e
		status = code
		if redir != "" && redir != "/dev/null" {
			if msg := write(redir, o, appendTo); msg != "" {
				errs += "bash: " + redir + ": " + msg + "\n"
				status = 1
			}
			o = ""
		} else if redir == "/dev/null" {
			o = ""
		}
		stdin = o
	}
	return errs + stdin, status
}
