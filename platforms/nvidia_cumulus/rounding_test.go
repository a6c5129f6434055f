package nvidiacumulus

import (
	"testing"
	"text/template"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestCumulusCableRounding: a cable length NVUE cannot take as it is (a
// fraction of a metre, or shorter than the switch's longest, which the
// one PFC profile gets) is noted as rounded, on its port; exact ones are
// not.
func TestCumulusCableRounding(t *testing.T) {
	tests := []struct {
		name   string
		cables []float64
		want   map[string]string // port → "From To"
	}{
		{"exact", []float64{30, 30}, nil},
		{"a fraction", []float64{30.5, 31}, map[string]string{"swp1": "30.5m 31m"}},
		{"one shorter", []float64{30, 100}, map[string]string{"swp1": "30m 100m"}},
		{"no cable", []float64{0, 0}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "swp1")
			p2 := *d.Ports[0]
			p2.Name = "swp2"
			d.Ports = append(d.Ports, &p2)
			for i, c := range tc.cables {
				if c > 0 {
					d.Ports[i].CableLength = rendertest.Set(c)
				}
			}
			f.Reindex()
			got := cumulusRoundings(t, f, d)
			if len(got) != len(tc.want) {
				t.Fatalf("roundings %v, want %v", got, tc.want)
			}
			for _, r := range got {
				if w, ok := tc.want[r.Port]; !ok || r.From+" "+r.To != w || r.What != "cable_length" || r.Why == "" {
					t.Errorf("rounding %s, want %q on %s", r, w, r.Port)
				}
			}
		})
	}
}

// cumulusRoundings builds d's view and returns its roundings.
func cumulusRoundings(t *testing.T, f *schema.Fabric, d *schema.Device) []view.Rounding {
	t.Helper()
	p := Platform()
	tm, err := template.New(string(p.Name)).Option("missingkey=error").Funcs(view.Funcs()).ParseFS(p.Templates, "*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	b, err := view.BuildBase(f, d, nil, p.Render, &view.StanzaSet{Embedded: tm})
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.View(f, d, b)
	if err != nil {
		t.Fatal(err)
	}
	return v.(interface{ Roundings() []view.Rounding }).Roundings()
}
