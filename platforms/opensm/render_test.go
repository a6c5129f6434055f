package opensm

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestRenderGoldens(t *testing.T) {
	files, err := Render(testFabric())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		golden := filepath.Join("testdata", "golden", f.Name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, f.Text, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./platforms/opensm -update)", err)
		}
		if !bytes.Equal(f.Text, want) {
			t.Errorf("%s differs from %s (run go test ./platforms/opensm -update and review):\n%s", f.Name, golden, f.Text)
		}
	}
	if got := strings.Join(names, " "); got != "opensm.conf qos-policy.conf partitions.conf root-guids.conf cn-guids.conf io-guids.conf" {
		t.Errorf("files = %s", got)
	}
}
