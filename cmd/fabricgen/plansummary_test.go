package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// TestHostPlanWording: a fresh host's 64 unset DSCP entries are one line,
// the plan counts the host's settings (not +74 -74 lines), and --summary
// leaves no header ending in a colon with nothing after it.
func TestHostPlanWording(t *testing.T) {
	var run, want strings.Builder
	for i := range 64 {
		run.WriteString("eth0 dscp2prio " + strconv.Itoa(i) + " = <unset>\n")
		want.WriteString("eth0 dscp2prio " + strconv.Itoa(i) + " = 0\n")
	}
	for _, s := range []string{"mtu", "pfc", "trust", "tsa", "tcbw", "prio_tc", "pause rx", "pause tx", "ecn", "cnp"} {
		run.WriteString("eth0 " + s + " = a\n")
		want.WriteString("eth0 " + s + " = b\n")
	}
	host := &planfile.Device{Name: "nic1", Platform: "nvidia_mlnx", Address: "10.0.0.1:22", Status: planfile.StatusChange,
		Diff: config.Unified("nic1 (running)", "nic1 (fabricgen)", run.String(), want.String())}
	sw := &planfile.Device{Name: "leaf1", Platform: "arista_eos", Address: "10.0.0.2:22", Status: planfile.StatusChange,
		Diff: config.Unified("leaf1 (running)", "leaf1 (fabricgen)", "a\n", "b\nc\n")}
	host2 := *host
	host2.Name = "nic2"
	tests := []struct {
		name    string
		devices []*planfile.Device
		summary bool
		want    []string
		not     []string
	}{
		{"host diff", []*planfile.Device{host}, false,
			[]string{"will change 74 setting(s):\n", "  eth0 dscp2prio 0-63: 64 unset entries set to 0\n", "  eth0 mtu: a -> b\n", "Plan: 1 to change, 0 unchanged; 74 host setting(s)."},
			[]string{"dscp2prio 17", "+74 -74"}},
		{"host summary", []*planfile.Device{host}, true,
			[]string{"will change 74 setting(s)\n"},
			[]string{":\n", "dscp2prio"}},
		{"two hosts alike", []*planfile.Device{host, &host2}, true,
			[]string{"nic2 (nvidia_mlnx, 10.0.0.1:22) will change 74 setting(s): the same as nic1\n"},
			[]string{"setting(s)\n  "}},
		{"host and switch", []*planfile.Device{sw, host}, true,
			[]string{"will change: +2 -1 lines\n", "Plan: 2 to change, 0 unchanged; +2 -1 lines, 74 host setting(s)."},
			[]string{"setting(s):"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			writePlanHuman(&b, &planfile.Plan{Devices: tt.devices}, nil, planView{summary: tt.summary})
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("plan lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out, w) {
					t.Errorf("plan has %q:\n%s", w, out)
				}
			}
		})
	}
}
