package brownfield

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// benchSlice is examples/scale cut to 1,000 devices: 8 spines, 32 leaves
// (EOS and SONiC) and 960 NICs (mlnx_qos and dcb hosts).
var benchSlice = map[string]string{"spines": "8", "leaves": "32", "nics_per_leaf": "30"}

// benchFabric loads the slice and renders every device whose platform
// imports: the configurations BenchmarkImport reads.
func benchFabric(b *testing.B) (*schema.Fabric, []*schema.Device, []Source) {
	b.Helper()
	f := loadSlice(b)
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var devs []*schema.Device
	var srcs []Source
	for _, d := range f.Devices {
		if p, ok := platforms.Get(d.Platform.V); !ok || p.Import == nil {
			continue
		}
		out, err := r.Render(f, d)
		if err != nil {
			b.Fatal(err)
		}
		devs = append(devs, d)
		srcs = append(srcs, Source{Name: out.Filename, Data: out.Text})
	}
	return f, devs, srcs
}

// loadSlice loads the slice of examples/scale.
func loadSlice(b *testing.B) *schema.Fabric {
	b.Helper()
	f, diags := schema.Load(filepath.Join("..", "..", "examples", "scale"), schema.Options{Vars: benchSlice, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return f
}

// BenchmarkRenderSlice is what fabricgen render does for the slice: load
// the intent, then render every device that import reads, one worker per
// CPU (RenderAll). It is the reference import is held to: at most twice
// its time.
func BenchmarkRenderSlice(b *testing.B) {
	_, devs, _ := benchFabric(b)
	names := map[string]bool{}
	for _, d := range devs {
		names[d.Name] = true
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		b.Fatal(err)
	}
	cpu := cpuTime()
	for b.Loop() {
		f := loadSlice(b)
		var sel []*schema.Device
		for _, d := range f.Devices {
			if names[d.Name] {
				sel = append(sel, d)
			}
		}
		outs, err := r.RenderAll(context.Background(), f, sel)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range outs {
			o.Release()
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(devs)), "devices")
}

// BenchmarkImport is what fabricgen import does with the slice's rendered
// configurations: read each with its platform's importer (one worker per
// CPU) and write the intent.
func BenchmarkImport(b *testing.B) {
	_, devs, srcs := benchFabric(b)
	for i := range srcs {
		srcs[i].Platform = devs[i].Platform.V
	}
	ctx := context.Background()
	cpu := cpuTime()
	for b.Loop() {
		if _, _, err := Import(ctx, srcs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(srcs)), "devices")
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time (every core, garbage collection
// included) an iteration took since from: on a busy machine it moves far
// less than the wall time does, so the import/render ratio is read from it.
func reportCPU(b *testing.B, from time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-from)/float64(b.N), "cpu-ns/op")
	}
}
