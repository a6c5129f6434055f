package shell

import (
	"strings"
	"testing"
)

// TestChanges pins the static scan Fault.Reject relies on: every simple
// command of a line counts, wherever it hides, and nothing else does.
func TestChanges(t *testing.T) {
	// "apply" changes the device, everything else reads; files under /etc
	// are device state.
	isChange := func(argv []string) bool { return argv[0] == "apply" }
	writes := func(p string) bool { return strings.HasPrefix(p, "/etc/") || strings.Contains(p, Dynamic) }
	cases := []struct {
		line string
		want bool
	}{
		{"show x", false},
		{"apply x", true},
		{"show x; apply y", true},
		{"show x && apply y", true},
		{"show x || apply y", true},
		{"show x | apply y", true},
		{"{ show; apply; }", true},
		{"(apply)", true},
		{"echo $(apply)", true},
		{"echo \"$(apply)\"", true},
		{"echo `apply`", true},
		{"echo '$(apply)'", false},
		{"echo \\$(apply)", false},
		{"echo ${X:-$(apply)}", true},
		{"cat <(apply)", true},
		{"sudo apply", true},
		{"env A=1 timeout 5 apply", true},
		{"sh -c 'apply'", true},
		{"bash -c 'show'", false},
		{"eval apply", true},
		{"$CMD show", true},
		{"X=1 show", false},
		{"echo x > /tmp/f", false},
		{"echo x > /etc/f", true},
		{"echo x >> /etc/f", true},
		{"echo x 2> /etc/f", false},
		{"echo x > /dev/null", false},
		{"echo x > $F", true},
		{"show 'apply'", false},
		{"echo 'unterminated", false},
		{"sh -c $'apply\\n'", true},
		{"show # ; apply", false},
		{"{ show; } > /etc/f", true},
		{"( show ) >> /etc/f", true},
		{"echo x 3> /etc/f", true},
		{"echo x &> /etc/f", true},
		{"echo x >&2", false},
		{"echo x 2>&1", false},
		{"! apply", true},
		{"show |& apply", true},
		{"time apply", true},
		{"export A=$(apply)", true},
		{"X=$(apply)", true},
		{"echo ${X:-${Y:-$(apply)}}", true},
		{"echo \"${X:+`apply`}\"", true},
		{"show <(show) >(apply)", true},
		// Lines the shell refuses whole run nothing.
		{"if apply; then show; fi", false},
		{"for i in a; do apply; done", false},
		{"echo $(( $(apply) ))", false},
		{"apply < /etc/f", false},
		{"apply; echo \"$(cat <<EOF\nx\nEOF\n)\"", false},
		{"apply; sh -c 'while :; do show; done'", false},
		{"apply; echo \\$(show)", false},
	}
	for _, c := range cases {
		if got := Changes(c.line, isChange, writes); got != c.want {
			t.Errorf("Changes(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
