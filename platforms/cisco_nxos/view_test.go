package cisconxos

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
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

// TestNXOSRestorationByRelease: from 9.3(3) (and on fabricgen's default
// release, for a device without one) the restoration renders as
// "priority-flow-control fixed-restore multiplier N", N = restoration / 100
// ms; before 9.3(3) no restoration line, only the comment; a restoration
// that is no multiple of 100 ms is refused naming the nearest.
func TestNXOSRestorationByRelease(t *testing.T) {
	const line = "\npriority-flow-control fixed-restore multiplier "
	for _, c := range []struct {
		release       string // "" leaves the device without one
		restorationMS int64
		want          string // the multiplier line's value, "" for none
		refuse        string // what the refusal names, "" for none
	}{
		{"9.2(4)", 200, "", ""},
		{"9.3(2)", 200, "", ""},
		{"9.3(2)", 250, "", ""}, // nothing rendered, nothing to refuse
		{"9.3", 200, "", ""},    // no maintenance release: before 9.3(3)
		{"9.3(3)", 200, "2", ""},
		{"9.3(10)", 1000, "10", ""},
		{"10.3(2)F", 300, "3", ""},
		{"", 200, "2", ""},
		{"10.3(2)F", 250, "", "the nearest is 200ms or 300ms"},
		{"9.3(3)", 1234, "", "the nearest is 1200ms"},
		{"", 50, "", "the nearest is 100ms"},
	} {
		name := fmt.Sprintf("%s/%dms", c.release, c.restorationMS)
		f, d := rendertest.TinyFabric(Platform(), "Ethernet1/1")
		if c.release != "" {
			v, err := Platform().Spec.ParseVersion(c.release)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			d.OSVersion = rendertest.Set(v)
		}
		d.Ports[0].QoS.Watchdog = rendertest.Set(&schema.Watchdog{Name: "wd", Detection: rendertest.Set(200 * time.Millisecond),
			Restoration: rendertest.Set(time.Duration(c.restorationMS) * time.Millisecond), Action: rendertest.Set(schema.WatchdogDrop)})
		text, err := rendertest.Render(t, Platform(), f, d)
		if c.refuse != "" {
			var ue *view.UnsupportedError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.refuse) || !strings.Contains(err.Error(), fmt.Sprintf("restoration %dms", c.restorationMS)) {
				t.Errorf("%s: want a refusal naming %q, got %v", name, c.refuse, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(text, "\npriority-flow-control watch-dog-interval on\n") {
			t.Errorf("%s: no watch-dog-interval line:\n%s", name, text)
		}
		switch {
		case c.want == "" && strings.Contains(text, line):
			t.Errorf("%s: want no fixed-restore line, got\n%s", name, text)
		case c.want == "" && !strings.Contains(text, fmt.Sprintf("restoration %d ms not applied", c.restorationMS)):
			t.Errorf("%s: the comment does not say the restoration is not applied:\n%s", name, text)
		case c.want != "" && !strings.Contains(text, line+c.want+"\n"):
			t.Errorf("%s: want %q, got\n%s", name, strings.TrimPrefix(line, "\n")+c.want, text)
		}
	}
}
