package templates

import (
	"context"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// BenchmarkRender renders every device of examples/scale at full size
// (2,112 switches, 65,536 NICs) with RenderAll, one worker per CPU. Devices
// whose platform cannot express the intent fail fast and are counted.
func BenchmarkRender(b *testing.B) {
	start := time.Now()
	f, diags := schema.Load(filepath.Join(repoRoot(b), "examples", "scale"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		b.Fatalf("loading examples/scale: %v", diags.Errs())
	}
	b.Logf("schema.Load of examples/scale: %v (not timed)", time.Since(start).Round(time.Millisecond))
	r := newTestRenderer(b)
	b.ReportMetric(float64(len(f.Devices)), "devices")
	cpu0 := cpuTime()
	b.ResetTimer()
	var rendered, bytes int
	for i := 0; i < b.N; i++ {
		outs, _ := r.RenderAll(context.Background(), f, f.Devices)
		rendered, bytes = 0, 0
		for _, o := range outs {
			if o != nil {
				rendered++
				bytes += len(o.Text)
			}
		}
	}
	b.StopTimer()
	// CPU seconds per render: independent of other load on the machine;
	// divided by the worker count it is the wall time on idle cores.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(rendered), "rendered")
	b.ReportMetric(float64(bytes)/1e6, "MB")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
}

// cpuTime is the user+system CPU time this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
