package schema_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// BenchmarkLoad loads and resolves examples/scale (64 spines, 32 NICs per
// leaf) at a quarter, half and full size (2,048 leaves: 2,112 switches and
// 65,536 NICs). It reports the live heap after the load as heap-MiB.
func BenchmarkLoad(b *testing.B) {
	dir := filepath.Join("..", "examples", "scale")
	for _, leaves := range []int{512, 1024, 2048} {
		b.Run(fmt.Sprintf("leaves=%d", leaves), func(b *testing.B) {
			opts := schema.Options{Vars: map[string]string{"leaves": fmt.Sprint(leaves)}, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()}
			var f *schema.Fabric
			for b.Loop() {
				var ds schema.Diagnostics
				f, ds = schema.Load(dir, opts)
				if ds.HasErrors() {
					b.Fatal(ds.Error())
				}
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(len(f.Devices)), "devices")
			runtime.KeepAlive(f)
		})
	}
}
