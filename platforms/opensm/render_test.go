package opensm

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
)

// TestRenderGoldens: the rendered files of the test fabric, behind the
// shared -update flag.
func TestRenderGoldens(t *testing.T) {
	files, err := Render(testFabric())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		golden.Check(t, filepath.Join("testdata", "render", f.Name), f.Text, "go test ./platforms/opensm -run TestRenderGoldens -update")
	}
	if got := strings.Join(names, " "); got != "opensm.conf qos-policy.conf partitions.conf root-guids.conf cn-guids.conf io-guids.conf" {
		t.Errorf("files = %s", got)
	}
}
