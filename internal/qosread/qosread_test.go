package qosread_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestReadsRenderedConfigs reads every golden render of the example
// fabrics and checks that each port classifies every class's code points
// into the intent's priority, with the intent's queue, PFC and ECN: what
// the lab's traffic and check's read-back rely on. Each switch's reader
// is its platform folder's (platforms.Get); a switch platform without one
// fails, named. Hosts have no running-config text (their read-back is per
// setting), so they have no reader.
func TestReadsRenderedConfigs(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, ex := range []string{"clos-400g", "roce-storage", "ai-training-2subnet"} {
		f, diags := schema.Load(filepath.Join(root, "examples", ex), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", ex, diags)
		}
		checked := 0
		for _, dev := range f.Devices {
			if dev.HostPlatform {
				continue
			}
			pl, ok := platforms.Get(dev.Platform.V)
			if !ok || pl.Reader == nil {
				t.Errorf("%s/%s: platform %s has no running-config reader (platforms/%s/reader.go)", ex, dev.Name, dev.Platform.V, pl.Folder)
				continue
			}
			var text []byte
			for _, ext := range []string{".cfg", ".json", ".nvue", ".set"} {
				if b, err := os.ReadFile(filepath.Join(root, "templates", "testdata", "golden", ex, dev.Name+ext)); err == nil {
					text = b
				}
			}
			if text == nil {
				t.Fatalf("%s: no golden render of %s", ex, dev.Name)
			}
			q, err := pl.Reader(string(text))
			if err != nil {
				t.Fatalf("%s/%s: %v", ex, dev.Name, err)
			}
			for _, port := range dev.Ports {
				if port.QoS == nil || port.Link == nil {
					continue
				}
				checked++
				qp := q.Port(port.Name)
				for _, c := range f.Classes {
					for _, d := range c.DSCP {
						roce := c.Role == schema.RoleRoCE || c.Role == schema.RoleCNP
						got, out := qp.Classify(d, roce)
						want := port.QoS.DSCP[out].V
						if out == d {
							want = port.QoS.DSCP[d].V
						}
						if got != want {
							t.Errorf("%s/%s:%s: class %s DSCP %d lands in priority %d (DSCP %d out), intent %d", ex, dev.Name, port.Name, c.Name, d, got, out, want)
						}
						if qp.Queue[got] != port.QoS.Queue[got].V {
							t.Errorf("%s/%s:%s: priority %d in queue %d, intent %d", ex, dev.Name, port.Name, got, qp.Queue[got], port.QoS.Queue[got].V)
						}
					}
				}
				if got, want := schema.PrioSetOf(qp.Lossless()...), port.QoS.Lossless(); got != want {
					t.Errorf("%s/%s:%s: PFC %s, intent %s", ex, dev.Name, port.Name, got, want)
				}
				for qn := 0; qn < 8; qn++ {
					want := port.QoS.Queues[qn].ECN.V != nil && port.QoS.Queues[qn].ECN.V.Mark.V
					if want && !qp.ECN[qn] {
						t.Errorf("%s/%s:%s: queue %d marks no ECN, intent does", ex, dev.Name, port.Name, qn)
					}
				}
			}
		}
		t.Logf("%s: %d ports checked", ex, checked)
		if checked == 0 {
			t.Errorf("%s: no port checked", ex)
		}
	}
}
