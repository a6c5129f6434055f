package check

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// TestReadbackEvidenceInTheIntentsWords: CHK016's evidence prints what the
// device reports and what the intent says, each in words ("qos_trust =
// none, intent dscp"), not a placeholder number read as an equality.
func TestReadbackEvidenceInTheIntentsWords(t *testing.T) {
	tests := []struct {
		name string
		qos  QoS
		want string
	}{
		{"trust none", QoS{Trust: "none", PFC: []int{3}}, "qos_trust = none, intent dscp"},
		{"pfc priorities", QoS{Trust: "dscp", PFC: []int{3, 4}}, "qos_pfc_priorities = 3,4, intent 3"},
		{"dscp map", QoS{Trust: "dscp", PFC: []int{3}, DSCP: map[int]int{26: 0}}, "qos_dscp_priority/26 = 0, intent 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := twoPortFabric(t)
			f.Devices[0].Ports[0].QoS.Trust = schema.Value[schema.Trust]{V: schema.TrustDSCP, Set: true}
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			before, after := snap(t0, nil, nil), snap(t0.Add(10*time.Second), nil, nil)
			for _, s := range []*Snapshot{before, after} {
				q := tt.qos
				s.Devices[0].Ports[0].QoS = &q
			}
			fs, err := Evaluate(f, before, after, Options{Only: []string{"CHK016"}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, fd := range fs {
				for _, e := range fd.Evidence {
					got = append(got, e.String())
				}
			}
			if !strings.Contains(strings.Join(got, "\n"), tt.want) {
				t.Errorf("evidence\n%s\nlacks %q", strings.Join(got, "\n"), tt.want)
			}
			for _, g := range got {
				if strings.Contains(g, "(intent)") || strings.Contains(g, "(=") {
					t.Errorf("evidence reads as an equality: %s", g)
				}
			}
		})
	}
}

// TestEvidenceValueText: byte counts read in B/KB/MB/GB, readings in
// words win over the placeholder number, and a threshold reads as one.
func TestEvidenceValueText(t *testing.T) {
	tests := []struct {
		e    diag.Evidence
		want string
	}{
		{diag.Evidence{Metric: "other_class_bytes_gained", Value: 100e9, Unit: "bytes", Threshold: "expected about 0 B"}, "other_class_bytes_gained = 100 GB (expected about 0 B)"},
		{diag.Evidence{Metric: "oper", Value: 0, Reading: "down", Intent: "up"}, "oper = down, intent up"},
		{diag.Evidence{Metric: "speed_bps", Value: 1e11, Unit: "bit/s", Reading: "100G", Intent: "400G"}, "speed_bps = 100G, intent 400G"},
		{diag.Evidence{Metric: "rx_power_dbm", Value: -18, Unit: "dBm", Threshold: "< -11.3 dBm"}, "rx_power_dbm = -18 dBm (< -11.3 dBm)"},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
