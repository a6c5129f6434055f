package schema_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
)

// TestPortNaming: every platform of the registry names its ports by a
// rule it describes, which refuses an empty name and one with a space;
// each folder pins its own rule (platforms/<name>/spec_test.go).
func TestPortNaming(t *testing.T) {
	for _, pl := range platforms.All() {
		n := pl.Spec.Ports
		if n.Check == nil || n.Form == "" {
			t.Errorf("%s has no port-name rule or no description of it", pl.Name)
			continue
		}
		for _, s := range []string{"", "x y"} {
			if n.Check(s) {
				t.Errorf("%s accepts %q", pl.Name, s)
			}
		}
	}
}
