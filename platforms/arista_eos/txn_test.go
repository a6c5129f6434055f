package aristaeos

import (
	"testing"
)

// TestForeignEOS: a line of an EOS session diff is ours when we sent it,
// negated it, or it belongs to a stanza we removed or added on its own
// side of the diff; anything else is another administrator's change.
func TestForeignEOS(t *testing.T) {
	const head = "--- system:/running-config\n+++ session:/s-session-config\n"
	// Priority 3 -> 4 and the ECN threshold in one change: the diff lines
	// up the children of the removed tx-queue 3 with those of tx-queue 4.
	moved := []string{"interface Ethernet1/1", "no priority-flow-control priority 3 no-drop", "priority-flow-control priority 4 no-drop",
		"no tx-queue 3", "tx-queue 4", "no priority", "bandwidth percent 50",
		"random-detect ecn minimum-threshold 200000 bytes maximum-threshold 1500000 bytes max-mark-probability 100", "exit", "exit"}
	movedDiff := head + "@@ -40,12 +40,12 @@\n interface Ethernet1/1\n    mtu 9214\n-   priority-flow-control priority 3 no-drop\n+   priority-flow-control priority 4 no-drop\n" +
		"-   tx-queue 3\n+   tx-queue 4\n       no priority\n-      bandwidth percent 40\n+      bandwidth percent 50\n" +
		"-      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100\n" +
		"+      random-detect ecn minimum-threshold 200000 bytes maximum-threshold 1500000 bytes max-mark-probability 100\n    !\n"
	tests := []struct {
		name, diff string
		cmds       []string
		want       string
	}{
		{"queue moved and changed", movedDiff, moved, ""},
		{"a line under a context stanza nobody sent", head + "@@ -1,3 +1,2 @@\n interface Ethernet1/1\n    mtu 9214\n-   description theirs\n", moved, "-   description theirs"},
		{"another admin's top-level line", movedDiff + "@@ -90,3 +90,2 @@\n logging buffered 1000\n-logging host 192.0.2.99\n ntp server 192.0.2.1\n", moved, "-logging host 192.0.2.99"},
		// A removed line we sent positively is not ours: the session lost it.
		{"a removed line we only added", head + "@@ -1,2 +1,1 @@\n interface Ethernet1/1\n-   mtu 9100\n", []string{"interface Ethernet1/1", "mtu 9100"}, "-   mtu 9100"},
		// Children of a removed stanza we did not negate.
		{"children of a stanza we did not remove", head + "@@ -1,4 +1,1 @@\n interface Ethernet1/1\n-   tx-queue 5\n-      priority strict\n", moved, "-   tx-queue 5"},
		// A hunk starting inside a stanza: the parents are not shown,
		// so a child we did not negate is foreign (refusing is safe).
		{"hunk inside a stanza", head + "@@ -50,3 +50,2 @@\n       no priority\n-      bandwidth percent 40\n", []string{"no tx-queue 3"}, "-      bandwidth percent 40"},
		{"default undoes a no line", head + "@@ -1,3 +1,2 @@\n interface Ethernet1/1\n    tx-queue 3\n-      no priority\n", []string{"interface Ethernet1/1", "tx-queue 3", "default priority"}, ""},
		// EOS prints a well-known port by name: the entry we sent with its
		// number is ours, removed or added; another port is not.
		{"a port EOS names", head + "@@ -1,3 +1,3 @@\n ip access-list guard\n-   20 permit tcp any any eq www\n+   20 permit tcp any any eq bgp\n", []string{"ip access-list guard", "no 20 permit tcp any any eq 80", "20 permit tcp any any eq 179"}, ""},
		{"a named port we did not send", head + "@@ -1,2 +1,3 @@\n ip access-list guard\n+   30 permit tcp any any eq ssh\n", []string{"ip access-list guard", "30 permit tcp any any eq 23"}, "+   30 permit tcp any any eq ssh"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := foreignEOS(tc.diff, tc.cmds, dialect().Canonical); got != tc.want {
				t.Errorf("foreignEOS = %q, want %q", got, tc.want)
			}
		})
	}
}
