package shell

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestParseBounds: a line nested 100,000 levels deep in any of the
// constructs the parser recurses on, or chaining 100,000 operators, is
// refused before the parser sees it, quickly, at the line:col where it
// passes the bound; Exec prints bash's error and runs nothing, and
// Changes counts nothing.
func TestParseBounds(t *testing.T) {
	const n = 100000
	cases := []struct {
		name, line string
		col        int
	}{
		{"command substitution", "echo " + strings.Repeat("$(", n), 6 + 2*maxNest},
		{"quoted substitution", "echo " + strings.Repeat(`"$(`, n), 6 + 3*maxNest/2},
		{"group", strings.Repeat("{ ", n), 1 + 2*maxNest},
		{"subshell", strings.Repeat("( ", n), 1 + 2*maxNest},
		{"parameter default", "echo " + strings.Repeat("${X:-", n), 6 + 5*maxNest},
		{"backticks in quotes", "echo " + strings.Repeat("\"`", n), 6 + maxNest},
		{"process substitution", "cat " + strings.Repeat("<(", n), 5 + 2*maxNest},
		{"and list", strings.Repeat("a && ", n), 3 + 5*maxChain},
		{"pipeline", strings.Repeat("a | ", n), 3 + 4*maxChain},
		{"negation", strings.Repeat("! ", n), 1 + 2*maxChain},
		{"if", strings.Repeat("if ", n), 1 + 3*maxChain},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse(c.line)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, "maximum nesting level exceeded") {
				t.Fatalf("Parse: %v, want a nesting error", err)
			}
			if e.Line != 1 || e.Col != c.col {
				t.Errorf("error at %d:%d, want 1:%d", e.Line, e.Col, c.col)
			}
			sh, _, ran := newTestShell()
			if out := sh.Exec(c.line); !strings.HasPrefix(out, "bash: maximum nesting level exceeded") || sh.Status != 2 || len(*ran) > 0 {
				t.Errorf("Exec: %q status %d ran %q", out, sh.Status, *ran)
			}
			if Changes(c.line, func([]string) bool { return true }, func(string) bool { return true }) {
				t.Error("Changes: true for a line the shell refuses")
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// Below the bound, nesting works; a single-quoted text is not code.
	sh, _, _ := newTestShell()
	deep := "echo " + strings.Repeat("$(echo ", maxShellDepth-1) + "x" + strings.Repeat(")", maxShellDepth-1)
	if out := sh.Exec(deep); out != "x\n" {
		t.Errorf("%d nested substitutions: %q", maxShellDepth-1, out)
	}
	quoted := "echo '" + strings.Repeat("$( { ( ` && |", n/100) + "'"
	if _, err := Parse(quoted); err != nil {
		t.Errorf("single-quoted brackets: %v", err)
	}
	if _, err := Parse(strings.Repeat("x", MaxLine+1)); err == nil || !strings.Contains(err.Error(), "line too long") {
		t.Errorf("a line over MaxLine: %v", err)
	}
}

// TestParseBudget: a chain of evals (or sh -c) parses its text once per
// level, statically and again when it runs; the bytes parsed for one line
// are bounded, so a long chained line is refused quickly, and the budget
// is the line's, not the shell's.
func TestParseBudget(t *testing.T) {
	long := strings.Repeat("eval ", 60) + "echo " + strings.Repeat("x ", (MaxLine-400)/2)
	sh, _, ran := newTestShell()
	if out := sh.Exec(long); !strings.HasPrefix(out, "bash: maximum nesting level exceeded (more than") || len(*ran) > 0 {
		t.Errorf("Exec: %.100q ran %d commands", out, len(*ran))
	}
	if Changes(long, func([]string) bool { return true }, NoFiles) {
		t.Error("Changes: true for a line the shell refuses")
	}
	// The work is bounded by bytes, not by the clock (a loaded machine
	// makes any time limit flaky): Exec stopped parsing within one line
	// past the budget.
	if parsed := parseBudget - sh.parse.left; parsed > parseBudget+MaxLine {
		t.Errorf("Exec parsed %d bytes for one line, budget %d", parsed, parseBudget)
	}
	short := strings.Repeat("eval ", 3) + "echo " + strings.Repeat("x ", (MaxLine-400)/2)
	for range 2 {
		if out := sh.Exec(short); len(out) != MaxLine-400 || sh.Status != 0 {
			t.Fatalf("Exec of a long line with 3 evals: %.100q status %d", out, sh.Status)
		}
	}
}

// TestParseErrors pins the errors at line:col and the bash texts Exec
// prints for them.
func TestParseErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"echo 'open", "1:6: unexpected EOF while looking for matching `''"},
		{"echo \"open", "1:6: unexpected EOF while looking for matching `\"'"},
		{"echo `open", "1:6: unexpected EOF while looking for matching ``'"},
		{"echo $(open", "1:6: unexpected EOF while looking for matching `)'"},
		{"{ echo", "1:1: unexpected EOF while looking for matching `}'"},
		{"echo ${", "1:8: bad substitution"},
		{"|", "1:1: syntax error near unexpected token `|'"},
		{"a | | b", "1:3: syntax error near unexpected token `|'"},
		{"a &&", "1:3: syntax error near unexpected token `newline'"},
		{"echo x >", "1:8: syntax error near unexpected token `newline'"},
		{"echo )", "1:6: syntax error near unexpected token `)'"},
		{"echo a\necho 'b", "2:6: unexpected EOF while looking for matching `''"},
		{"echo $((1+2))", "1:6: ((: arithmetic is not supported in the lab shell"},
		{"echo a\nif true; then b; fi", "2:1: if: not supported in the lab shell"},
		{"cat < f", "1:5: input redirection is not supported in the lab shell"},
		{"cat <<EOF\nx\nEOF", "1:5: here-documents are not supported in the lab shell"},
		{"sh -c 'for i in a; do b; done'", "1:1: for: not supported in the lab shell"},
	}
	for _, c := range cases {
		f, err := Parse(c.line)
		if err == nil {
			_, err = staticFile(newParsing(), f, 0)
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.line, err, c.want)
			continue
		}
		sh, _, ran := newTestShell()
		want := "bash: " + c.want[strings.Index(c.want, ": ")+2:] + "\n"
		if out := sh.Exec(c.line); out != want || sh.Status != 2 || len(*ran) > 0 {
			t.Errorf("Exec(%q) = %q status %d ran %q, want %q status 2, nothing run", c.line, out, sh.Status, *ran, want)
		}
	}
}

// FuzzParse: the parser and its bounds never panic, and a line Parse
// takes is walked (statically and by running it) without a panic; a line
// it refuses runs nothing.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"tool a b", "X=1; tool \"$X\" '$X' ${Y:-d}", "tool fail || tool recovered", "tool x | tool",
		"tool $(tool inner)", "echo `tool \\`tool x\\``", "cat <(tool a) >(tool b)", "{ tool a; } > /tmp/f",
		"( exit 3 ); echo $?", "set -eu; false; echo no", "echo ${X:=y} ${Y:+z} ${#X}", "echo $'a\\nb'",
		"sh -c 'tool a; exit 4'; eval tool y", "sudo -u root env A=1 timeout 5 tool x", "echo $((1+2))",
		"if true; then tool; fi", "cat <<EOF\nx\nEOF", "echo 'open", "a | | b", "export A=1 B; declare -x C",
		"tool 2>&1 >/dev/null &>/tmp/x 3>/tmp/y", "! tool fail && echo neg", "echo a |& tool # c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, perr := Parse(line)
		cmds, serr := staticCommands(newParsing(), line, 0)
		changes := Changes(line, func([]string) bool { return true }, func(string) bool { return true })
		sh, _, ran := newTestShell()
		out := sh.Exec(line)
		if perr != nil || serr != nil {
			if changes || len(*ran) > 0 || sh.Status != 2 || !strings.HasPrefix(out, "bash: ") {
				t.Errorf("refused line %q: Changes %v, ran %q, status %d, out %q", line, changes, *ran, sh.Status, out)
			}
			return
		}
		// A line that ran a command is a line whose commands the static
		// scan found.
		if len(*ran) > 0 && len(cmds) == 0 {
			t.Errorf("%q ran %q but the static scan found no command", line, *ran)
		}
	})
}
