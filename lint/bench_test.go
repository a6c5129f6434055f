package lint

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// loadScale loads examples/scale with the given number of leaves (64 spines,
// 32 NICs per leaf): 512 is a quarter of the full 2,048-leaf fabric.
func loadScale(tb testing.TB, leaves int) *schema.Fabric {
	tb.Helper()
	f, diags := schema.Load("../examples/scale", schema.Options{Vars: map[string]string{"leaves": fmt.Sprint(leaves)}, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		tb.Fatalf("examples/scale: %v", diags)
	}
	return f
}

// BenchmarkLint lints examples/scale at a quarter, half and full size
// (512, 1,024 and 2,048 leaves). Loading is outside the timer.
func BenchmarkLint(b *testing.B) {
	for _, leaves := range []int{512, 1024, 2048} {
		f := loadScale(b, leaves)
		b.Run(fmt.Sprintf("leaves=%d", leaves), func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuSeconds(b)
			defer func() { b.ReportMetric((cpuSeconds(b)-cpu0)/float64(b.N), "cpu-s/op") }()
			for i := 0; i < b.N; i++ {
				fs, err := Run(context.Background(), f, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if AtOrAbove(fs, schema.SevWarning) > 0 {
					b.Fatalf("examples/scale is not clean: %s %s", fs[0].Rule, fs[0].Summary)
				}
			}
		})
	}
}

// TestScaleClean lints a small instance of examples/scale: no errors or warnings.
func TestScaleClean(t *testing.T) {
	f := loadScale(t, 16)
	fs, err := Run(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fs {
		if fd.Severity >= schema.SevWarning {
			t.Errorf("%s %s %s: %s", fd.Rule, fd.Severity, fd.Subject, fd.Summary)
		}
	}
}

// cpuSeconds is the process's user+system CPU time: on a shared machine it
// says what lint cost, whatever else was running.
func cpuSeconds(tb testing.TB) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatalf("getrusage: %v", err)
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// existFabric is n ports on n/50 switches: every port its own PortQoS when
// distinct (the adversarial case: nothing to memoise), else four shared.
func existFabric(n int, distinct bool) *schema.Fabric {
	f := baseFabric()
	shared := make([]*schema.PortQoS, 4)
	for i := range shared {
		q := *port(f, "spine1:Ethernet1").QoS
		q.DSCP[i].V = i
		shared[i] = &q
	}
	sw, _ := fixturePlatforms()
	var d *schema.Device
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			d = &schema.Device{Name: fmt.Sprintf("sw%d", i/50), Kind: schema.Value[schema.Kind]{V: schema.KindLeaf, Set: true}, Platform: schema.Value[schema.Platform]{V: sw, Set: true}}
			f.Devices = append(f.Devices, d)
		}
		q := shared[i%4]
		if distinct {
			c := *q
			c.DSCP[i%64].V = i % 8
			q = &c
		}
		d.Ports = append(d.Ports, &schema.Port{Name: fmt.Sprintf("Ethernet%d", i%50), Device: d, QoS: q})
	}
	f.Reindex()
	return f
}

// BenchmarkExist builds the can-exist model over 25,000 to 100,000 ports:
// time per port must stay flat (linear), with four shared PortQoS and with
// one PortQoS per port (nothing to memoise).
func BenchmarkExist(b *testing.B) {
	for _, distinct := range []bool{false, true} {
		for _, n := range []int{25_000, 50_000, 100_000} {
			f := existFabric(n, distinct)
			b.Run(fmt.Sprintf("ports=%d/distinct=%v", n, distinct), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					e := NewExist(f)
					if !e.Priority(f.Devices[len(f.Devices)-1], 0) {
						b.Fatal("priority 0 cannot exist on the last switch")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/port")
			})
		}
	}
}
