package qosread_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// readExamples are the example fabrics whose golden renders the reader
// tests read.
var readExamples = []string{"clos-400g", "roce-storage", "ai-training-2subnet"}

// loadExample loads one example fabric.
func loadExample(t *testing.T, name string) *schema.Fabric {
	t.Helper()
	f, diags := schema.Load(filepath.Join("..", "..", "examples", name), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags)
	}
	return f
}

// TestReadsRenderedConfigs reads every golden render of the example
// fabrics and checks that each port classifies every class's code points
// into the intent's priority, with the intent's queue, PFC and ECN: what
// the lab's traffic and check's read-back rely on. Each switch's reader
// is its platform folder's (platforms.Get); a switch platform without one
// fails, named. Hosts have no running-config text (their read-back is per
// setting), so they have no reader.
func TestReadsRenderedConfigs(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, ex := range readExamples {
		f := loadExample(t, ex)
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
			checked += checkIntent(t, ex+"/"+dev.Name, f, dev, q, false)
		}
		t.Logf("%s: %d ports checked", ex, checked)
		if checked == 0 {
			t.Errorf("%s: no port checked", ex)
		}
	}
}

// checkIntent compares what a reader read of dev with the intent, port by
// port: every class's code points land in the intent's priority and
// queue, PFC is on for the intent's lossless priorities, and every queue
// the intent marks ECN on marks it. Ports without a link are skipped
// unless unlinked is set. It returns the number of ports checked.
func checkIntent(t *testing.T, label string, f *schema.Fabric, dev *schema.Device, q *qosread.Device, unlinked bool) int {
	t.Helper()
	checked := 0
	for _, port := range dev.Ports {
		if port.QoS == nil || (port.Link == nil && !unlinked) {
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
					t.Errorf("%s:%s: class %s DSCP %d lands in priority %d (DSCP %d out), intent %d", label, port.Name, c.Name, d, got, out, want)
				}
				if qp.Queue[got] != port.QoS.Queue[got].V {
					t.Errorf("%s:%s: priority %d in queue %d, intent %d", label, port.Name, got, qp.Queue[got], port.QoS.Queue[got].V)
				}
			}
		}
		if got, want := qp.PFC, port.QoS.Lossless; got != want {
			t.Errorf("%s:%s: PFC %s, intent %s", label, port.Name, got, want)
		}
		for qn := 0; qn < 8; qn++ {
			want := port.QoS.Queues[qn].ECN.V != nil && port.QoS.Queues[qn].ECN.V.Mark.V
			if want && !qp.ECN[qn] {
				t.Errorf("%s:%s: queue %d marks no ECN, intent does", label, port.Name, qn)
			}
		}
	}
	return checked
}
