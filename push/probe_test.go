package push

import (
	"strings"
	"testing"
)

// TestPlanStopsOnMissingHostCapability plans the rendered ConnectX script
// against two lab hosts over SSH: one with MLNX_OFED's mlx5_core, one with
// the kernel's inbox mlx5 and mlnx-tools. The inbox host has no ECN sysfs,
// so its plan fails with the script's own probe message (and changes
// nothing, since plan reads only); the OFED host plans changes.
//
// It runs on every host whose script probes for MLNX_OFED's ECN sysfs.
func TestPlanStopsOnMissingHostCapability(t *testing.T) {
	const want = "/ecn/roce_np/enable/3 is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver"
	for _, pc := range casesWhere(t, "a host whose script probes for MLNX_OFED", func(pc platformCase) bool {
		return pc.pl.Spec.Host && strings.Contains(pc.dev.rendered, want)
	}) {
		t.Run(string(pc.dev.platform), func(t *testing.T) { planStopsOnMissingHostCapability(t, pc, want) })
	}
}

func planStopsOnMissingHostCapability(t *testing.T, pc platformCase, want string) {
	ofed, inbox := pc.dev, pc.dev
	ofed.name, inbox.name, inbox.inbox = "ofed", "inbox", true
	r := newRig(t, ofed, inbox)
	before := r.lab.Device("inbox").Export()
	p := r.plan()
	got := map[string]string{}
	for _, d := range p.Devices {
		got[d.Name] = d.Status + ": " + d.Error
	}
	if !strings.HasPrefix(got["ofed"], "change") {
		t.Errorf("OFED host: %s, want a change", got["ofed"])
	}
	if !strings.HasPrefix(got["inbox"], "error") || !strings.Contains(got["inbox"], want) {
		t.Errorf("inbox host: %s, want an error naming %q", got["inbox"], want)
	}
	if after := r.lab.Device("inbox").Export(); after != before {
		t.Errorf("planning the inbox host changed it:\n%s", after)
	}
}
