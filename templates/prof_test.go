package templates

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

func TestProfRender(t *testing.T) {
	if os.Getenv("PROF") == "" {
		t.Skip("PROF not set")
	}
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "scale"), schema.Options{Vars: map[string]string{"leaves": "256"}})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	r := newTestRenderer(t)
	dur := map[schema.Platform]time.Duration{}
	view := map[schema.Platform]time.Duration{}
	n := map[schema.Platform]int{}
	for _, d := range f.Devices {
		s := time.Now()
		r.View(f, d)
		v := time.Since(s)
		s = time.Now()
		r.Render(f, d)
		dur[d.Platform.V] += time.Since(s)
		view[d.Platform.V] += v
		n[d.Platform.V]++
	}
	for p, d := range dur {
		t.Logf("%-15s %6d devices  render %v (view %v)  %v/device", p, n[p], d, view[p], d/time.Duration(n[p]))
	}
}
