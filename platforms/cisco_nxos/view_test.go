package cisconxos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestNXOSFECBySpeed: "fec rs-fec" up to 100G, no fec line at 200G and more.
func TestNXOSFECBySpeed(t *testing.T) {
	for _, c := range []struct {
		speed int64
		fec   string
		want  string // the fec line, or "" for none
	}{
		{100e9, "rs", "fec rs-fec"}, {25e9, "fc", "fec fc-fec"}, {100e9, "none", "fec off"},
		{400e9, "rs", ""}, {200e9, "rs", ""}, {400e9, "none", "fec off"},
	} {
		f, d := rendertest.TinyFabric(Platform(), "Ethernet1/1")
		d.Ports[0].Speed, d.Ports[0].FEC = rendertest.Set(c.speed), rendertest.Set(c.fec)
		text, err := rendertest.Render(t, Platform(), f, d)
		if err != nil {
			t.Errorf("%s fec %s: %v", view.Bps(c.speed), c.fec, err)
			continue
		}
		if c.want == "" {
			if strings.Contains(text, "\n  fec ") {
				t.Errorf("%s fec %s: want no fec line, got\n%s", view.Bps(c.speed), c.fec, text)
			}
		} else if !strings.Contains(text, "\n  "+c.want+"\n") {
			t.Errorf("%s fec %s: no %q line", view.Bps(c.speed), c.fec, c.want)
		}
	}
}

// TestNXOSShapeLine: a queue shaper renders "shape min 0 kbps max N kbps"
// in its queuing class.
func TestNXOSShapeLine(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "Ethernet1/1")
	d.Ports[0].QoS.Queues[6].Shaper = rendertest.Set(int64(10e9))
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n    priority level 1\n    shape min 0 kbps max 10000000 kbps\n"; !strings.Contains(text, want) {
		t.Errorf("render lacks %q:\n%s", want, text)
	}
}
