package check

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/schema"
)

// twoPortFabric is leaf1:Ethernet1 ↔ nic1:eth0, 400G, priority 3 lossless.
// The platforms of the test fabric's devices: Evaluate only names them
// (no registry part is looked up), so any name does.
const (
	leafPlatform schema.Platform = "leaf_os"
	nicPlatform  schema.Platform = "nic_os"
)

func twoPortFabric(t *testing.T) *schema.Fabric {
	t.Helper()
	q := &schema.PortQoS{}
	for d := range q.DSCP {
		q.DSCP[d] = schema.Value[int]{V: 0}
	}
	q.DSCP[26] = schema.Value[int]{V: 3}
	for i := range q.Queue {
		q.Queue[i] = schema.Value[int]{V: i}
	}
	q.Lossless = schema.PrioSetOf(3)
	leaf := &schema.Device{Name: "leaf1", Platform: schema.Value[schema.Platform]{V: leafPlatform}}
	nic := &schema.Device{Name: "nic1", Platform: schema.Value[schema.Platform]{V: nicPlatform}}
	a := &schema.Port{Name: "Ethernet1", Device: leaf, QoS: q, Speed: schema.Value[int64]{V: 400e9}}
	b := &schema.Port{Name: "eth0", Device: nic, QoS: q, Speed: schema.Value[int64]{V: 400e9}}
	l := &schema.Link{Name: "l", A: a, B: b}
	a.Link, b.Link, a.Peer, b.Peer = l, l, b, a
	leaf.Ports, nic.Ports = []*schema.Port{a}, []*schema.Port{b}
	f := &schema.Fabric{Name: "t", Devices: []*schema.Device{leaf, nic}, Links: []*schema.Link{l},
		Classes: []*schema.TrafficClass{{Name: "roce", Role: schema.RoleRoCE, DSCP: []int{26}, Priority: schema.Value[int]{V: 3}}}}
	f.Reindex()
	return f
}

func snap(at time.Time, leafCounters, nicCounters map[string]uint64, missing ...string) *Snapshot {
	return &Snapshot{Taken: at, Clock: ClockLab, Devices: []*Device{
		{Name: "leaf1", Platform: leafPlatform, Taken: at, Missing: missing, Sources: map[string]string{PFCRx: "show priority-flow-control counters detail | json"},
			Ports: []*Port{{Name: "Ethernet1", Oper: "up", Speed: 400e9, Counters: leafCounters, Gauges: map[string]float64{}}}},
		{Name: "nic1", Platform: nicPlatform, Taken: at, Ports: []*Port{{Name: "eth0", Oper: "up", Speed: 400e9, Counters: nicCounters, Gauges: map[string]float64{}}}},
	}}
}

func TestEvaluateDeltasResetsAndNotEvaluated(t *testing.T) {
	f := twoPortFabric(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	before := snap(t0, map[string]uint64{Key(PFCRx, 0): 100, FCSErrors: 50}, map[string]uint64{}, WDStorms)
	after := snap(t0.Add(10*time.Second), map[string]uint64{Key(PFCRx, 0): 160, FCSErrors: 7}, map[string]uint64{}, WDStorms)
	fs, err := Evaluate(f, before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lossy, reset, notEval, fcs bool
	for _, fd := range fs {
		switch {
		case fd.Rule == "CHK011" && fd.Severity == schema.SevError:
			lossy = strings.Contains(fd.Summary, "priority 0") && len(fd.Evidence) == 1 && fd.Evidence[0].Value == 60 &&
				fd.Evidence[0].Window == 10*time.Second && fd.Evidence[0].Source == "show priority-flow-control counters detail | json"
		case fd.Rule == resetRule:
			reset = fd.Severity == schema.SevInfo && strings.Contains(fd.Summary, "Ethernet1 fcs_errors")
		case fd.Rule == "CHK012" && fd.Severity == schema.SevInfo:
			notEval = strings.Contains(fd.Summary, "not evaluated on "+string(leafPlatform)+" (leaf1)")
		case fd.Rule == "CHK007":
			fcs = true
		}
	}
	if !lossy || !reset || !notEval || fcs {
		t.Errorf("lossy pause %v, reset %v, not evaluated %v, CRC from a reset %v:\n%v", lossy, reset, notEval, fcs, fs)
	}
	if _, err := Evaluate(f, after, before, Options{}); err == nil {
		t.Error("snapshots in the wrong order were evaluated")
	}
	if _, err := Evaluate(f, before, after, Options{Only: []string{"CHK999"}}); err == nil {
		t.Error("an unknown rule was accepted")
	}
	only, _ := Evaluate(f, before, after, Options{Only: []string{"chk011"}})
	for _, fd := range only {
		if fd.Rule != "CHK011" && fd.Rule != resetRule {
			t.Errorf("--rule CHK011 ran %s", fd.Rule)
		}
	}
}

func TestPrometheusParses(t *testing.T) {
	fs := []Finding{
		{Rule: "CHK010", Severity: diag.Error, Device: "leaf1", Port: "Ethernet1/1", Summary: "a \"dirty\" optic\nwith \\ backslash",
			Evidence: []diag.Evidence{{Device: "leaf1", Port: "Ethernet1/1", Metric: "rx_power_dbm/1", Value: -18.2}, {Device: "leaf1", Port: "Ethernet1/1", Metric: "pre_fec_ber", Value: 1e-5}}},
		{Rule: "CHK005", Severity: diag.Info, Summary: "not evaluated"},
	}
	var b bytes.Buffer
	if err := WritePrometheus(&b, Run{Fabric: "clos\"400g", Findings: fs, Read: 38, At: time.Unix(1700000000, 0), LastSuccess: time.Unix(1700000000, 0)}); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(&b)
	if err != nil {
		t.Fatalf("not the text exposition format: %v\n%s", err, b.String())
	}
	if got := fams["fabricgen_check_findings"]; got == nil || len(got.Metric) != 3 {
		t.Errorf("findings by severity: %v", got)
	}
	ev := fams["fabricgen_check_evidence"]
	if ev == nil || len(ev.Metric) != 2 {
		t.Fatalf("evidence series: %v", ev)
	}
	found := false
	for _, m := range ev.Metric {
		for _, l := range m.Label {
			if l.GetName() == "metric" && l.GetValue() == "rx_power_dbm/1" && m.Gauge.GetValue() == -18.2 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no rx_power_dbm/1 = -18.2 series:\n%s", b.String())
	}
	if f := fams["fabricgen_check_finding"]; f == nil || len(f.Metric) != 2 {
		t.Errorf("finding series: %v", f)
	}
}

// TestOpticsByMedia: a fibre end with no DDM readings is "not evaluated"
// (info naming it), a DAC end (by the intent's media or the device's own
// report) has no optics to judge and is left alone, and a fibre end with
// readings is judged.
func TestOpticsByMedia(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		media   string
		copper  bool
		gauges  map[string]float64
		rule    string
		info    bool
		finding bool
	}{
		{name: "fibre without DDM", media: "fiber", rule: "CHK001", info: true},
		{name: "unknown media without DDM", media: "", rule: "CHK003", info: true},
		{name: "DAC by the intent", media: "dac", rule: "CHK001"},
		{name: "DAC by the device", media: "", copper: true, rule: "CHK004"},
		{name: "fibre with a low receive power", media: "fiber", rule: "CHK001", finding: true,
			gauges: map[string]float64{Key(RxPower, 1): -12, RxPowerLoAlarm: -13.3, RxPowerLoWarn: -10.3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := twoPortFabric(t)
			f.Links[0].Media = schema.Value[string]{V: c.media, Set: c.media != ""}
			mk := func(at time.Time) *Snapshot {
				s := snap(at, map[string]uint64{}, map[string]uint64{})
				p := s.Devices[0].Ports[0]
				p.Copper = c.copper
				for k, v := range c.gauges {
					p.Gauges[k] = v
				}
				return s
			}
			fs, err := Evaluate(f, mk(t0), mk(t0.Add(10*time.Second)), Options{Only: []string{c.rule}})
			if err != nil {
				t.Fatal(err)
			}
			var info, finding bool
			for _, fd := range fs {
				if fd.Severity == schema.SevInfo && strings.Contains(fd.Summary, "optical link end(s) (leaf1:Ethernet1") {
					info = true
				}
				if fd.Severity >= schema.SevWarning {
					finding = true
				}
			}
			if info != c.info || finding != c.finding {
				t.Errorf("not-evaluated info %v (want %v), finding %v (want %v):\n%v", info, c.info, finding, c.finding, fs)
			}
		})
	}
}

// TestClassContinuityNotEvaluated: a hop whose neighbour's RoCE counters
// are unknown (the neighbour could not be read) is named in a "not
// evaluated" info with the reason, never silently skipped.
func TestClassContinuityNotEvaluated(t *testing.T) {
	f := twoPortFabric(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(at time.Time, bytes uint64) *Snapshot {
		s := snap(at, map[string]uint64{Key(QueueTxBytes, 3): bytes}, map[string]uint64{Key(PrioTxBytes, 3): bytes, Key(PrioRxBytes, 3): bytes})
		s.Devices[1].Error = "nic1: connection refused"
		return s
	}
	fs, err := Evaluate(f, mk(t0, 0), mk(t0.Add(10*time.Second), 1<<30), Options{Only: []string{"CHK014"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, fd := range fs {
		if fd.Severity == schema.SevInfo && strings.Contains(fd.Summary, "CHK014 not evaluated at leaf1") && strings.Contains(fd.Summary, "nic1 could not be read") {
			found = true
		}
	}
	if !found {
		t.Errorf("no not-evaluated info naming leaf1 and why:\n%v", fs)
	}
}

// FuzzLastSuccess reads what an earlier run left in --output, whatever
// the file holds.
func FuzzLastSuccess(f *testing.F) {
	f.Add("fabricgen_check_last_success_timestamp_seconds{fabric=\"x\"} 1700000000\n")
	f.Add("fabricgen_check_last_success_timestamp_seconds{fabric=\"a} b\"} -5\n")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, in string) {
		if got := LastSuccess(strings.NewReader(in)); !got.IsZero() && got.Unix() <= 0 {
			t.Errorf("a non-positive time %v", got)
		}
	})
}

// TestPrometheusStableSeries: two runs that measured different values
// (the summary says "rose by 400", then "rose by 800"; the evidence
// differs) write the same finding series, so Alertmanager keeps one alert
// instead of resolving it and firing a new one every run; the
// measurements change only the evidence values.
func TestPrometheusStableSeries(t *testing.T) {
	write := func(rose int, power float64) (map[string]bool, map[string]float64) {
		t.Helper()
		fs := []Finding{
			{Rule: "CHK005", Severity: diag.Warning, Device: "leaf1", Port: "Ethernet1/1", Summary: fmt.Sprintf("FCS errors rose by %d in 10s", rose),
				Evidence: []diag.Evidence{{Device: "leaf1", Port: "Ethernet1/1", Metric: "fcs_errors", Value: float64(rose)}}},
			{Rule: "CHK010", Severity: diag.Error, Device: "leaf1", Port: "Ethernet1/1", Summary: fmt.Sprintf("rx power %.1f dBm", power),
				Evidence: []diag.Evidence{{Device: "leaf1", Port: "Ethernet1/1", Metric: "rx_power_dbm/1", Value: power}}},
		}
		var b bytes.Buffer
		if err := WritePrometheus(&b, Run{Fabric: "f", Findings: fs, Read: 2, At: time.Unix(1700000000+int64(rose), 0)}); err != nil {
			t.Fatal(err)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(&b)
		if err != nil {
			t.Fatal(err)
		}
		series := map[string]bool{}
		for _, m := range fams["fabricgen_check_finding"].GetMetric() {
			var ls []string
			for _, l := range m.Label {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			series[strings.Join(ls, ",")] = true
		}
		values := map[string]float64{}
		for _, m := range fams["fabricgen_check_evidence"].GetMetric() {
			var ls []string
			for _, l := range m.Label {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			values[strings.Join(ls, ",")] = m.Gauge.GetValue()
		}
		return series, values
	}
	s1, v1 := write(400, -18.2)
	s2, v2 := write(800, -19.5)
	if len(s1) != 2 || !maps.Equal(s1, s2) {
		t.Errorf("finding series differ between runs:\n%v\n%v", s1, s2)
	}
	if len(v1) != 2 || len(v2) != 2 || maps.Equal(v1, v2) {
		t.Errorf("evidence: %v then %v; want the same series with the new values", v1, v2)
	}
	for k := range v1 {
		if _, ok := v2[k]; !ok {
			t.Errorf("evidence series %s is not in the second run", k)
		}
	}
}
