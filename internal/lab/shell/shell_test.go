package shell

import (
	"strings"
	"testing"
)

// newTestShell returns a shell whose only device tool is "tool" (it
// prints its arguments, or its input, and fails for "fail"), with files
// in a MemFS, and the commands it ran.
func newTestShell() (*Shell, *MemFS, *[]string) {
	fs := NewMemFS("admin")
	var ran []string
	run := func(argv []string, stdin string) (string, string, int) {
		if o, e, st, ok := fs.Common("h1", argv, stdin); ok {
			return o, e, st
		}
		if argv[0] != "tool" {
			return "", "bash: " + argv[0] + ": command not found\n", 127
		}
		if len(argv) > 1 && argv[1] == "fail" {
			return "", "tool: failed\n", 1
		}
		if len(argv) == 1 {
			return stdin, "", 0
		}
		return strings.Join(argv[1:], " ") + "\n", "", 0
	}
	which := func(name string) (string, bool) { return "/usr/bin/" + name, name == "tool" }
	sh := NewShell(run, fs.Write, which)
	sh.Record = func(argv []string) { ran = append(ran, strings.Join(argv, " ")) }
	return sh, fs, &ran
}

// TestExec runs lines through the subset and checks what the terminal
// shows and the exit status.
func TestExec(t *testing.T) {
	cases := []struct {
		lines  []string
		out    string
		status int
	}{
		{[]string{"tool a b"}, "a b\n", 0},
		{[]string{"X=1; tool \"$X\" '$X' ${Y:-d}"}, "1 $X d\n", 0},
		{[]string{"tool fail || tool recovered"}, "tool: failed\nrecovered\n", 0},
		{[]string{"tool fail && tool never"}, "tool: failed\n", 1},
		{[]string{"set -e; tool fail; tool never"}, "tool: failed\n", 1},
		{[]string{"tool x | tool"}, "x\n", 0},
		{[]string{"tool $(tool inner)"}, "inner\n", 0},
		{[]string{"command -v tool; command -v nope; echo $?"}, "/usr/bin/tool\n1\n", 0},
		{[]string{"nope"}, "bash: nope: command not found\n", 127},
		{[]string{"tool fail 2>/dev/null; echo $?"}, "1\n", 0},
		{[]string{"tool saved > /tmp/f", "cat /tmp/f"}, "saved\n", 0},
		{[]string{"tool x > /etc/f"}, "bash: /etc/f: Permission denied\n", 1},
		{[]string{"[ 1 -eq 1 ] && echo yes"}, "yes\n", 0},
		{[]string{"exit 3", "tool after"}, "", 3},
		{[]string{"echo 'open"}, "bash: unexpected EOF while looking for matching `''\n", 2},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.lines, "; "), func(t *testing.T) {
			sh, _, _ := newTestShell()
			var out strings.Builder
			for _, l := range c.lines {
				if sh.Exited {
					break
				}
				out.WriteString(sh.Exec(l))
			}
			if out.String() != c.out || sh.Status != c.status {
				t.Errorf("got %q (status %d), want %q (status %d)", out.String(), sh.Status, c.out, c.status)
			}
		})
	}
}

// TestExecRecordsEveryCommand: substitutions and wrappers are reported
// as the simple commands they run; quoted text is not run.
func TestExecRecordsEveryCommand(t *testing.T) {
	sh, _, ran := newTestShell()
	sh.Exec(`tool "$(tool a)" 'b$(tool c)'; sudo tool d`)
	want := "tool a|tool a b$(tool c)|sudo tool d|tool d"
	if got := strings.Join(*ran, "|"); got != want {
		t.Errorf("recorded %q, want %q", got, want)
	}
}
