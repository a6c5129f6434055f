package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkChangeToDiagnostics measures what an editor waits for after the
// debounce: from a didChange to the publishDiagnostics of that version,
// through the whole server over a pipe (load with the buffer overlaid,
// validate, lint, convert, publish). Each iteration edits a comment, so
// every analysis is a full one. The debounce is left out (Debounce < 0):
// it is a fixed wait added to every figure. p50/p95 are reported per
// fabric: clos-400g, and scale with 16 spines and 64 leaves (2,048 NICs).
func BenchmarkChangeToDiagnostics(b *testing.B) {
	for _, tc := range []struct {
		name, example, file string
		vars                map[string]string
	}{
		{"clos-400g", "clos-400g", "qos.fab.hcl", nil},
		{"scale-64-leaves", "scale", "scale.fab.hcl", map[string]string{"spines": "16", "leaves": "64"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dir := copyExample(b, tc.example)
			path := filepath.Join(dir, tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			getenv := func(k string) string { return tc.vars[strings.TrimPrefix(k, "FABRICGEN_VAR_")] }
			c := startServer(b, Options{Debounce: -1, SlowAfter: time.Hour, Getenv: getenv})
			c.initialize()
			uri := c.open(path, string(src))
			if _, ok := c.diagnostics(uri, time.Minute); !ok {
				b.Fatal("no first analysis")
			}
			var took []time.Duration
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				v := i + 2
				start := time.Now()
				c.change(uri, v, string(src)+fmt.Sprintf("\n# edit %d\n", v))
				for {
					p, ok := c.diagnostics(uri, time.Minute)
					if !ok {
						b.Fatalf("no diagnostics for version %d", v)
					}
					if p.Version != nil && *p.Version == v {
						break
					}
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			pct := func(q float64) float64 {
				return float64(took[min(len(took)-1, int(q*float64(len(took))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.95), "p95-ms")
		})
	}
}

// BenchmarkSyntaxCheck measures what a change publishes at once, before
// the debounce: the changed file parsed alone (the nesting bound, then
// hclsyntax), on the largest file of clos-400g and of scale.
func BenchmarkSyntaxCheck(b *testing.B) {
	for _, f := range []string{"clos-400g/devices.fab.hcl", "scale/scale.fab.hcl"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", f))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Dir(f), func(b *testing.B) {
			for b.Loop() {
				if ds := syntaxDiagnostics(f, src); len(ds) != 0 {
					b.Fatal(ds.Error())
				}
			}
		})
	}
}
