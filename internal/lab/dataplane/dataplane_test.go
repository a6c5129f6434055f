package dataplane

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{"dirty-optic=Ethernet1/1", "dirty-optic=Ethernet1/1", ""},
		{"np-off", "np-off", ""},
		{"np-off=1", "", "takes no value"},
		{"remark=0", "remark=0", ""},
		{"remark=64", "", "DSCP 0–63"},
		{"congest=marks", "congest=marks", ""},
		{"congest=lots", "", "marks|pauses|drops"},
		{"qp-error=0X12", "qp-error=0x12", ""},
		{"qp-error=12", "", "hex error syndrome"},
		{"flap=", "", "port name"},
		{"flap=$(reboot)", "", "port name"},
		{"melt", "", "unknown data-plane fault"},
	} {
		f, err := Parse(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Parse(%q) error %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || f.String() != c.want):
			t.Errorf("Parse(%q) = %v, %v; want %s", c.in, f, err, c.want)
		}
	}
	if !strings.Contains(Forms(), "dirty-optic=PORT") || !IsKind("np-off") || IsKind("delay=1s") {
		t.Error("Forms/IsKind")
	}
}

func TestClockAndCounters(t *testing.T) {
	c := NewClock()
	m := New(nil, c)
	m.AddDevice("h1", Platform{Name: "a_host", Host: true}, []string{"eth0"})
	if err := m.SetFaults("h1", []Fault{{Kind: Remark, Value: "0"}}); err == nil {
		t.Error("a switch fault on a host was accepted")
	}
	if err := m.SetFaults("h1", []Fault{{Kind: Flap, Value: "eth9"}}); err == nil {
		t.Error("a fault on a port the device lacks was accepted")
	}
	if err := m.SetFaults("h1", []Fault{{Kind: Flap, Value: "eth0"}}); err != nil {
		t.Fatal(err)
	}
	v := m.View("h1")
	p0, _ := v.Port("eth0")
	c.Advance(10 * time.Second)
	p1, _ := v.Port("eth0")
	if d := p1.C(LinkDown) - p0.C(LinkDown); d != 2 {
		t.Errorf("a flap every 5 s gave %d link-down events in 10 s", d)
	}
	m.ClearCounters("h1")
	p2, _ := v.Port("eth0")
	if p2.C(LinkDown) != 0 {
		t.Errorf("after ClearCounters: %d", p2.C(LinkDown))
	}
	c.Advance(5 * time.Second)
	p3, _ := v.Port("eth0")
	if p3.C(LinkDown) != 1 {
		t.Errorf("5 s after the clear: %d", p3.C(LinkDown))
	}
	if c.Time() != Epoch.Add(15*time.Second) || c.Advance(0) != 15*time.Second {
		t.Errorf("clock at %s", c.Time())
	}
}

func FuzzParseFault(f *testing.F) {
	for _, k := range Kinds() {
		f.Add(string(k) + "=Ethernet1")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if fl, err := Parse(s); err == nil {
			again, err := Parse(fl.String())
			if err != nil || again != fl {
				t.Fatalf("%q parsed as %v, which reads back as %v, %v", s, fl, again, err)
			}
		}
	})
}

func FuzzReadHost(f *testing.F) {
	f.Add("netdev eth0\n  trust dscp\n  pfc 0,0,0,1,0,0,0,0\n  dscp-prio 26:3 48:6\n  ecn roce_np enable 1,1,1,1,1,1,1,1\n")
	f.Fuzz(func(t *testing.T, s string) {
		for name, n := range readHost(s) {
			for d := 0; d < 64; d++ {
				if p := n.prioOf(d); p < 0 || p > 7 {
					t.Fatalf("%s: DSCP %d → priority %d", name, d, p)
				}
			}
		}
	})
}

func TestPortViewNeighbor(t *testing.T) {
	for _, c := range []struct {
		peer, sys, port string
		ok              bool
	}{
		{"spine1:Ethernet1/1", "spine1", "Ethernet1/1", true},
		{"leaf1:et-0/0/1:2", "leaf1", "et-0/0/1:2", true},
		{"", "", "", false},
		{"spine1:", "", "", false},
		{":eth0", "", "", false},
	} {
		p := PortView{Peer: c.peer}
		sys, port, ok := p.Neighbor()
		if ok != c.ok || (ok && (sys != c.sys || port != c.port)) {
			t.Errorf("Neighbor of %q = %q, %q, %v", c.peer, sys, port, ok)
		}
	}
}

// TestRealClock: a real-time clock moves with its wall source, adds what
// Advance adds, and never goes back when the wall does; a manual clock
// ignores the wall.
func TestRealClock(t *testing.T) {
	wall := Epoch
	src := func() time.Time { return wall }
	c := NewRealClock(src)
	steps := []struct {
		wall    time.Duration // wall clock moved by
		advance time.Duration
		want    time.Duration
	}{
		{0, 0, 0},
		{3 * time.Second, 0, 3 * time.Second},
		{0, 10 * time.Second, 13 * time.Second},
		{2 * time.Second, 0, 15 * time.Second},
		{-20 * time.Second, 0, 15 * time.Second},
		{30 * time.Second, 0, 25 * time.Second},
	}
	for i, st := range steps {
		wall = wall.Add(st.wall)
		c.Advance(st.advance)
		if got := c.Now(); got != st.want {
			t.Errorf("step %d: clock at %s, want %s", i, got, st.want)
		}
	}
	if !c.Real() || NewClock().Real() {
		t.Error("Real() does not tell the clocks apart")
	}
}

// TestGoodput: RC's go-back-N goodput is what arrives without loss, and
// falls as 1/(1 + p·W) with the loss ratio p and the window W of the
// path's bandwidth × round trip.
func TestGoodput(t *testing.T) {
	const arrived = 20e9 // bytes/s
	pkts := arrived / RoCEPacket
	cases := []struct {
		name        string
		lost, speed float64
		hops        int
		want        float64
	}{
		{"no loss", 0, 400e9, 4, arrived},
		// W = 50e9 × 16 µs / 4200 = 190.5 packets; p = 1/191.5.
		{"one loss per window at 400G", pkts / 190.476, 400e9, 4, arrived / (1 + 190.476/(190.476+1))},
		{"same loss at 100G: a quarter of the window", pkts / 190.476, 100e9, 4, arrived / (1 + 47.619/(190.476+1))},
		{"longer path, larger window", pkts / 190.476, 400e9, 8, arrived / (1 + 2*190.476/(190.476+1))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := goodput(arrived, c.lost, c.speed, c.hops)
			if math.Abs(got-c.want) > c.want*1e-3 {
				t.Errorf("goodput = %.4g, want %.4g", got, c.want)
			}
		})
	}
}
