package nvidiacumulus

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestZZSmoke(t *testing.T) {
	for _, f := range strings.Fields(os.Getenv("F")) {
		data, _ := os.ReadFile(f)
		d, err := importConfig(context.Background(), f, data)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: name=%q os=%q ports=%d acls=%d default=%v", f, d.Name, d.OSVersion, len(d.Ports), len(d.ACLs), d.Default != nil)
		if d.Default != nil {
			t.Logf("  trust=%s pfc=%v wd=%+v queues=%d", d.Default.Trust, d.Default.PFC, d.Default.Watchdog, len(d.Default.Queues))
		}
		for _, u := range d.Unmapped {
			t.Logf("  unmapped %d %s -- %s", u.Line, u.Text, u.Why)
		}
		for _, u := range d.Twice {
			t.Logf("  twice %d %s -- %s", u.Line, u.Text, u.Why)
		}
	}
}
