package config

import (
	"strings"
	"testing"
)

// TestPatchTheirs: a field the patch sets that holds another value now is
// theirs (nothing to undo there); a field the patch sets that holds ours
// is undone to the backup's value; a field the patch does not set that
// changed is theirs.
func TestPatchTheirs(t *testing.T) {
	before := `{"PORT": {"Ethernet0": {"mtu": "9100", "speed": "400000"}}}`
	cs := &ChangeSet{Blocks: []Block{{Lines: []string{`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9214"}`}}}}
	for _, c := range []struct {
		name, now, theirs, undo string
	}{
		{"their value over ours", `{"PORT": {"Ethernet0": {"mtu": "1500", "speed": "400000"}}}`, "PORT|Ethernet0|mtu = 1500", ""},
		{"ours, and theirs elsewhere", `{"PORT": {"Ethernet0": {"mtu": "9214", "speed": "100000"}}}`, "PORT|Ethernet0|speed = 100000",
			`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9100"}`},
		{"only ours", `{"PORT": {"Ethernet0": {"mtu": "9214", "speed": "400000"}}}`, "",
			`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9100"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			theirs, undo, err := PatchTheirs(cs, before, c.now)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(theirs, "; "); got != c.theirs {
				t.Errorf("theirs: %q, want %q", got, c.theirs)
			}
			if got := strings.Join(undo.Commands(), "; "); got != c.undo {
				t.Errorf("undo: %q, want %q", got, c.undo)
			}
		})
	}
}
