package view

import (
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRequireUniformOutlier: a per-switch refusal lands on the value that
// deviates from the device's others, not on the first port's.
func TestRequireUniformOutlier(t *testing.T) {
	at := func(line int32) schema.Range {
		return schema.Range{Filename: "f.fab.hcl", Start: schema.Pos{Line: line}, End: schema.Pos{Line: line}}
	}
	nv := &schema.Watchdog{Name: "nv"}
	fast := &schema.Watchdog{Name: "fast"}
	devPol := &schema.QoSPolicy{Name: "cumulus", Watchdog: schema.Value[*schema.Watchdog]{V: nv, Set: true, Src: at(2)}}
	nowd := &schema.QoSPolicy{Name: "nowd", Watchdog: schema.Value[*schema.Watchdog]{Set: true, Src: at(5)}}
	polA := &schema.QoSPolicy{Name: "a", Watchdog: schema.Value[*schema.Watchdog]{V: nv, Set: true, Src: at(10)}}
	polB := &schema.QoSPolicy{Name: "b", Watchdog: schema.Value[*schema.Watchdog]{V: fast, Set: true, Src: at(11)}}
	nopfc := &schema.QoSPolicy{Name: "nopfc", PFC: schema.Value[schema.PrioSet]{Set: true, Src: at(8)}}
	lossless := schema.PrioSetOf(3)
	qos := func(wd schema.Value[*schema.Watchdog], pfc schema.PrioSet, pfcSrc schema.Range, chain ...*schema.QoSPolicy) *schema.PortQoS {
		q := &schema.PortQoS{Policies: chain, Watchdog: wd, Lossless: pfc}
		q.PFCSrc[3] = pfcSrc
		return q
	}
	type port struct {
		name string
		pol  *schema.QoSPolicy
		q    *schema.PortQoS
	}
	build := func(dev *schema.QoSPolicy, ps ...port) *schema.Device {
		d := &schema.Device{Name: "x1", Platform: schema.Value[schema.Platform]{V: "nvidia_cumulus"}, Policy: dev}
		for _, p := range ps {
			d.Ports = append(d.Ports, &schema.Port{Name: p.name, Device: d, Policy: p.pol, QoS: p.q})
		}
		return d
	}
	qDev := qos(devPol.Watchdog, lossless, at(7), devPol)
	qOff := qos(nowd.Watchdog, lossless, at(7), devPol, nowd)
	qA := qos(polA.Watchdog, lossless, at(7), polA)
	qB := qos(polB.Watchdog, lossless, at(7), polB)
	qNoPFC := qos(schema.Value[*schema.Watchdog]{}, 0, at(8), nopfc)
	qPlain := qos(schema.Value[*schema.Watchdog]{}, lossless, at(7))
	cases := []struct {
		name    string
		d       *schema.Device
		aspects []Aspect
		want    []string // refusals' values
		src     []int32  // and their lines
	}{
		{"port override beats majority", build(devPol, port{"swp1", nowd, qOff}, port{"swp2", nowd, qOff}, port{"swp3", nowd, qOff}, port{"swp31", nil, qDev}),
			[]Aspect{AspWatchdog}, []string{"pfc_watchdog off on swp1 but nv on swp31"}, []int32{5}},
		{"port override first or last alike", build(devPol, port{"swp1", nil, qDev}, port{"swp2", nowd, qOff}),
			[]Aspect{AspWatchdog}, []string{"pfc_watchdog off on swp2 but nv on swp1"}, []int32{5}},
		{"same level: fewer ports deviate", build(nil, port{"swp1", polB, qB}, port{"swp2", polA, qA}, port{"swp3", polA, qA}),
			[]Aspect{AspWatchdog}, []string{"pfc_watchdog fast on swp1 but nv on swp2"}, []int32{11}},
		{"PFC off on one port", build(nil, port{"swp1", nil, qPlain}, port{"swp2", nil, qPlain}, port{"swp4", nopfc, qNoPFC}),
			[]Aspect{AspPFCOn}, []string{"PFC on swp1 but not on swp4"}, []int32{8}},
		{"PFC on one port of many off", build(nil, port{"swp1", nopfc, qNoPFC}, port{"swp2", nopfc, qNoPFC}, port{"swp3", nil, qPlain}),
			[]Aspect{AspPFCOn}, []string{"PFC on swp3 but not on swp1"}, []int32{8}},
		{"uniform", build(devPol, port{"swp1", nil, qDev}, port{"swp2", nil, qDev}), []Aspect{AspWatchdog, AspPFCOn}, nil, nil},
		{"one port", build(devPol, port{"swp1", nowd, qOff}), []Aspect{AspWatchdog}, nil, nil},
		{"watchdog of a lossy port is not compared", build(nil, port{"swp1", nil, qPlain}, port{"swp2", nopfc, qNoPFC}), []Aspect{AspWatchdog}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := AllUnsupported(RequireUniform(c.d, "one per switch", c.aspects...))
			if len(rs) != len(c.want) {
				t.Fatalf("got %d refusals %v, want %v", len(rs), rs, c.want)
			}
			for i, r := range rs {
				if r.Value != c.want[i] || r.Src.Start.Line != c.src[i] {
					t.Errorf("refusal %d: %q at line %d, want %q at line %d", i, r.Value, r.Src.Start.Line, c.want[i], c.src[i])
				}
				// The reference value's line is related, never the refused one.
				if len(r.Related) != 1 || r.Related[0].Range == r.Src || r.Related[0].Range.IsZero() {
					t.Errorf("refusal %d: related %v, want the reference's line", i, r.Related)
				}
			}
		})
	}
}
