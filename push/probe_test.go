package push

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestPlanStopsOnMissingHostCapability plans the rendered ConnectX script
// against two lab hosts over SSH: one with MLNX_OFED's mlx5_core, one with
// the kernel's inbox mlx5 and mlnx-tools. The inbox host has no ECN sysfs,
// so its plan fails with the script's own probe message (and changes
// nothing, since plan reads only); the OFED host plans changes.
func TestPlanStopsOnMissingHostCapability(t *testing.T) {
	script := readFile(t, filepath.Join("..", "templates", "testdata", "golden", "clos-400g", "nic01.sh"))
	r := newRig(t,
		testDevice{name: "ofed", platform: schema.NvidiaMLNX, rendered: script, ports: []string{"ens1f0np0"}},
		testDevice{name: "inbox", platform: schema.NvidiaMLNX, rendered: script, ports: []string{"ens1f0np0"}, inbox: true})
	before := r.lab.Device("inbox").Export()
	p := r.plan()
	got := map[string]string{}
	for _, d := range p.Devices {
		got[d.Name] = d.Status + ": " + d.Error
	}
	if !strings.HasPrefix(got["ofed"], "change") {
		t.Errorf("OFED host: %s, want a change", got["ofed"])
	}
	want := "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3 is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver"
	if !strings.HasPrefix(got["inbox"], "error") || !strings.Contains(got["inbox"], want) {
		t.Errorf("inbox host: %s, want an error naming %q", got["inbox"], want)
	}
	if after := r.lab.Device("inbox").Export(); after != before {
		t.Errorf("planning the inbox host changed it:\n%s", after)
	}
}
