package labtest

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/platform"
)

// DropCase is one platform's connection drop in mid-change: what its
// folder's TestFaultDropMidChange passes CheckFaultDropMidChange.
type DropCase struct {
	// Prompt is the shell prompt of device leaf1 (a regexp).
	Prompt string
	// Script are the config commands typed; the connection drops after
	// three of them, on the last.
	Script []string
	// Unchanged: the platform discards what the dropped session staged.
	Unchanged bool
	// Kept is a line the running config must contain after the drop.
	Kept string
	// Normalize, when set, strips what changes in a running config by
	// itself (a time header) before before and after are compared.
	Normalize func(string) string
}

// CheckFaultDropMidChange checks the drop-after fault on a lab device of
// platform p: the connection drops after three config commands; the
// device keeps or discards what the session staged as the platform does,
// and the fault fires once.
func CheckFaultDropMidChange(t *testing.T, p platform.Platform, c DropCase) {
	t.Helper()
	norm := normalizer(c.Normalize)
	l := Start(t, lab.DeviceSpec{Name: "leaf1", Platform: p.Name})
	dev := l.Device("leaf1")
	before := dev.RunningConfig()
	dev.SetFault(lab.Fault{DropAfter: 3})
	sh := OpenShell(t, l, "leaf1", c.Prompt)
	for _, cmd := range c.Script[:len(c.Script)-1] {
		sh.Run(cmd)
	}
	sh.Send(c.Script[len(c.Script)-1])
	if !sh.Closed() {
		t.Fatal("connection not dropped after 3 config commands")
	}
	after := dev.RunningConfig()
	if c.Unchanged && norm(after) != norm(before) {
		t.Errorf("running config changed:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	if c.Kept != "" && !strings.Contains(after, c.Kept) {
		t.Errorf("running config lacks %q after the drop:\n%s", c.Kept, after)
	}
	// The fault fires once: a new connection works.
	sh2 := OpenShell(t, l, "leaf1", c.Prompt)
	sh2.Run("")
}

// RejectCase is one platform's rejected command: what its folder's
// TestFaultReject passes CheckFaultReject.
type RejectCase struct {
	// Prompt is the shell prompt of device d1 (a regexp).
	Prompt string
	// Enter is the command typed first (into config mode).
	Enter string
	// Cmd is the command the fault rejects; Reject (a regexp) matches it.
	Cmd    string
	Reject string
	// Want is what the platform answers a rejected command with.
	Want string
	// Normalize, when set, strips what changes in a running config by
	// itself (a time header) before before and after are compared.
	Normalize func(string) string
}

// CheckFaultReject checks the reject fault on a lab device of platform
// p: a rejected command is refused the platform's way and changes
// nothing; after ClearFault it is accepted.
func CheckFaultReject(t *testing.T, p platform.Platform, c RejectCase) {
	t.Helper()
	norm := normalizer(c.Normalize)
	var ports []string
	if p.Spec.Host {
		ports = []string{"eth0"}
	}
	l := Start(t, lab.DeviceSpec{Name: "d1", Platform: p.Name, Ports: ports})
	dev := l.Device("d1")
	before := dev.RunningConfig()
	dev.SetFault(lab.Fault{Reject: c.Reject})
	sh := OpenShell(t, l, "d1", c.Prompt)
	sh.Run(c.Enter)
	if got := sh.Run(c.Cmd); !strings.Contains(got, c.Want) {
		t.Errorf("%s: got %q, want %q", c.Cmd, got, c.Want)
	}
	if after := dev.RunningConfig(); norm(after) != norm(before) {
		t.Errorf("rejected command changed the config:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	dev.ClearFault()
	if got := sh.Run(c.Cmd); strings.Contains(got, c.Want) {
		t.Errorf("after ClearFault still rejected: %q", got)
	}
}

// normalizer is f, or the identity when f is nil.
func normalizer(f func(string) string) func(string) string {
	if f == nil {
		return func(s string) string { return s }
	}
	return f
}
