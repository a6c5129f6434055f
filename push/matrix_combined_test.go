package push

import "testing"

// Combined mutations (issue 10): two changes of the intent in one plan.
// A change that moves a queue and changes its values at once made EOS
// refuse every retry: the session diff lines up the children of the
// removed tx-queue 3 with those of the added tx-queue 4, and the old
// random-detect line read as another administrator's change.

// matrixEdits returns the edits of the named single mutation.
func matrixEdits(t *testing.T, name string) []fixtureEdit {
	t.Helper()
	for _, m := range matrixMutations {
		if m.name == name {
			return append([]fixtureEdit(nil), m.edits...)
		}
	}
	t.Fatalf("no matrix mutation %q", name)
	return nil
}

// matrixCombined is the list of combined mutations, in the form of
// matrixMutations (what each platform does with them is in its folder's
// matrix.json, as for the single ones).
func matrixCombined(t *testing.T) []matrixMutation {
	return []matrixMutation{
		// The lossless priority moves 3 -> 4 and its ECN threshold
		// changes: the new queue carries the new threshold, the old one
		// goes whole.
		{name: "priority+ecn", edits: append(matrixEdits(t, "lossless-priority"), matrixEdits(t, "ecn-threshold")...)},
		// Rules 10 and 20 swap their matches and rule 30 goes: the order
		// left on the device is 10 (DSCP 26), 20 (DSCP 48), 100.
		{name: "acl-reorder+removal", edits: append(matrixEdits(t, "acl-entry-reordered"), matrixEdits(t, "acl-entry-removed")...)},
		// The device's policy is swapped and the new policy's MTU changes
		// too: the MTU lands on the swapped policy's value.
		{name: "mtu+policy-swap", edits: append(matrixEdits(t, "policy-swapped"),
			fixtureEdit{"qos.fab.hcl", "mtu              = 9000", "mtu              = 9100"},
			fixtureEdit{"qos.fab.hcl", "mtu = 4400", "mtu = 4300"})},
	}
}

// allMatrixMutations are the matrix's mutations, the single ones and the
// combined ones, in the order the matrix runs them.
func allMatrixMutations(t *testing.T) []matrixMutation {
	t.Helper()
	return append(append([]matrixMutation(nil), matrixMutations...), matrixCombined(t)...)
}
