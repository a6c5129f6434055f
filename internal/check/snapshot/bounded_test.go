package snapshot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
)

// TestCheckReadsBounded: check reads through the same bounded session as
// plan and apply: a switch and a host whose answers never end fail with
// the limit and the command named, within seconds, and every other
// device is read.
func TestCheckReadsBounded(t *testing.T) {
	fl := startFabricLab(t, "clos-400g")
	endless := map[string]string{"leaf1": "^show", "nic02": "^(dcb|ethtool|ip|cat|find|mlnx_qos|rdma)"}
	for name, re := range endless {
		fl.lab.Device(name).SetFault(lab.Fault{Stream: re})
	}
	opts := fl.opts
	opts.MaxOutput = 4 << 20
	start := time.Now()
	snap, err := Take(context.Background(), fl.f.Devices, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("snapshot of %d devices took %s", len(snap.Devices), time.Since(start).Round(time.Millisecond))
	for _, d := range snap.Devices {
		if _, ok := endless[d.Name]; ok {
			if !strings.Contains(d.Error, "the device sent more than 4 MiB in answer to") {
				t.Errorf("%s: error %q, want the output limit", d.Name, d.Error)
			}
			continue
		}
		if d.Error != "" {
			t.Errorf("%s could not be read: %s", d.Name, d.Error)
		}
	}
	if took := time.Since(start); took > time.Minute {
		t.Errorf("took %s", took)
	}
}
