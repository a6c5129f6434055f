package brownfield

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
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
	f, diags := schema.Load(filepath.Join("..", "..", "examples", "scale"), schema.Options{Vars: benchSlice, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
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

// BenchmarkRenderSlice renders the slice's devices: the reference import
// is held to (at most twice its time).
func BenchmarkRenderSlice(b *testing.B) {
	f, devs, _ := benchFabric(b)
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, d := range devs {
			out, err := r.Render(f, d)
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	}
	b.ReportMetric(float64(len(devs)), "devices")
}

// BenchmarkImport imports the slice's rendered configurations (each with
// its platform's importer) and writes the intent.
func BenchmarkImport(b *testing.B) {
	_, devs, srcs := benchFabric(b)
	ctx := context.Background()
	for b.Loop() {
		var read []*importer.Device
		for i, s := range srcs {
			p, _ := platforms.Get(devs[i].Platform.V)
			d, err := p.Import(ctx, s.Name, s.Data)
			if err != nil {
				b.Fatal(err)
			}
			d.Platform = string(p.Name)
			read = append(read, d)
		}
		if _, err := importer.Write(read, importer.Options{Spec: Spec}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(srcs)), "devices")
}
