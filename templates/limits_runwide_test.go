package templates

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOverrideTimeLimitRunWide: an override that loops for ever on every
// platform costs one time limit for the whole run, not one per device:
// the first render to run out of time stops the others, which fail
// without running to their own limit.
func TestOverrideTimeLimitRunWide(t *testing.T) {
	f := loadExample(t, "clos-400g")
	dir := t.TempDir()
	for _, p := range renderedNames() {
		if err := os.MkdirAll(filepath.Join(dir, string(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, string(p), "device.tmpl"), []byte(`{{range 2000000000}}{{end}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	limit := 300 * time.Millisecond
	r, err := NewRenderer(Options{Dir: dir, TimeLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	outs, err := r.RenderAll(context.Background(), f, f.Devices)
	took := time.Since(start)
	if err == nil {
		t.Fatal("no error")
	}
	ranOut, stopped := 0, 0
	for _, line := range strings.Split(err.Error(), "\n") {
		switch {
		case strings.Contains(line, "stopped after"):
			ranOut++
		case strings.Contains(line, "not rendered: an override template"):
			stopped++
		}
	}
	for i, o := range outs {
		if o != nil {
			t.Errorf("%s rendered", f.Devices[i].Name)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if ranOut < 1 || ranOut > workers || ranOut+stopped != len(f.Devices) {
		t.Errorf("%d devices ran to the time limit and %d were stopped; want 1 to %d and the other %d stopped:\n%v", ranOut, stopped, workers, len(f.Devices)-1, err)
	}
	// Per device, the run would take len(devices)/workers time limits.
	if per := time.Duration(len(f.Devices)/workers) * limit; took > per/2 {
		t.Errorf("took %s; one time limit is %s, one per device would be %s", took, limit, per)
	}
}
