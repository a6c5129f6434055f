// Package hostimporttest holds the import tests both host platforms run
// (nvidia_mlnx, linux_dcb): their golden renders read back against the
// resolved intent, and the hostile inputs every importer must survive.
package hostimporttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
)

// fact is one QoS fact a port's import must give back: its value in the
// resolved intent and in the imported Device, both as text.
type fact struct {
	name string
	want func(c *portCase) string
	got  func(c *portCase) string
}

// portCase is one port of a fixture device and its import.
type portCase struct {
	mlnx bool
	dev  *schema.Device
	port *schema.Port
	q    *schema.PortQoS
	got  *importer.Port
	gq   *importer.QoS
}

// mlx5 says whether the device's script sets the PFC storm timeout.
func (c *portCase) mlx5() bool {
	return c.mlnx || c.dev.Driver.V == "" || c.dev.Driver.V == hostspec.DefaultDriver
}

// portFacts is what a host script says of a port, fact by fact.
var portFacts = []fact{
	{"mtu", func(c *portCase) string {
		if c.q == nil {
			return "0"
		}
		return fmt.Sprint(c.q.MTU.V)
	}, func(c *portCase) string { return fmt.Sprint(c.got.MTU) }},
	{"has qos", func(c *portCase) string { return fmt.Sprint(c.q != nil) }, func(c *portCase) string { return fmt.Sprint(c.gq != nil) }},
	{"link pause", func(c *portCase) string { return fmt.Sprint(c.q.LinkPause.V) }, func(c *portCase) string {
		if c.gq.LinkPause == nil {
			return "unset"
		}
		return fmt.Sprint(*c.gq.LinkPause)
	}},
	{"trust", func(c *portCase) string {
		if !c.mlnx {
			return "dscp" // linux_dcb trusts DSCP through its DSCP app entries
		}
		return string(c.q.Trust.V)
	}, func(c *portCase) string { return c.gq.Trust }},
	{"dscp map", func(c *portCase) string {
		if c.mlnx && c.q.Trust.V != schema.TrustDSCP {
			return "[]"
		}
		m := make([]int, 64)
		for d := range c.q.DSCP {
			m[d] = c.q.DSCP[d].V
		}
		return fmt.Sprint(m)
	}, func(c *portCase) string {
		if len(c.gq.DSCP) == 0 {
			return "[]"
		}
		m := make([]int, 64)
		for d := range m {
			m[d] = c.gq.DSCP[d]
		}
		return fmt.Sprint(m)
	}},
	{"queue map", func(c *portCase) string {
		m := make([]int, 8)
		for p := range m {
			m[p] = p
			if c.q.Queue[p].Set {
				m[p] = c.q.Queue[p].V
			}
		}
		return fmt.Sprint(m)
	}, func(c *portCase) string {
		m := make([]int, 8)
		for p := range m {
			m[p] = c.gq.Queue[p]
		}
		return fmt.Sprint(m)
	}},
	{"pfc", func(c *portCase) string { return fmt.Sprint(slices.Collect(c.q.Lossless.All())) }, func(c *portCase) string {
		if !c.gq.PFCSet {
			return "unset"
		}
		return fmt.Sprint(c.gq.PFC)
	}},
	{"queues", func(c *portCase) string {
		var b strings.Builder
		for tc, qq := range c.q.Queues {
			switch {
			case qq.Sched.V == schema.SchedStrict:
				fmt.Fprintf(&b, "%d:strict ", tc)
			case qq.Weight.V > 0:
				fmt.Fprintf(&b, "%d:dwrr/%d ", tc, qq.Weight.V)
			}
			if qq.Shaper.V > 0 {
				fmt.Fprintf(&b, "%d:shaper/%d ", tc, qq.Shaper.V)
			}
			if e := qq.ECN.V; e != nil {
				var minF, maxF string
				if e.MinFill.Set {
					minF = fmt.Sprint(e.MinFill.V)
				}
				if e.MaxFill.Set {
					maxF = fmt.Sprint(e.MaxFill.V)
				}
				fmt.Fprintf(&b, "%d:ecn/%s/%d-%d/p%d/fill%s-%s/mark=%v ", tc, e.Name, e.Min.V, e.Max.V, e.Probability.V, minF, maxF, !e.Mark.Set || e.Mark.V)
			}
		}
		return b.String()
	}, func(c *portCase) string {
		var b strings.Builder
		for tc := 0; tc < 8; tc++ {
			qq := c.gq.Queues[tc]
			if qq == nil {
				continue
			}
			switch {
			case qq.Sched == "strict":
				fmt.Fprintf(&b, "%d:strict ", tc)
			case qq.Sched == "dwrr" && qq.Weight != nil:
				fmt.Fprintf(&b, "%d:dwrr/%d ", tc, *qq.Weight)
			}
			if qq.ShaperBps > 0 {
				fmt.Fprintf(&b, "%d:shaper/%d ", tc, qq.ShaperBps)
			}
			if e := qq.ECN; e != nil {
				var minF, maxF string
				if e.MinFill != nil {
					minF = fmt.Sprint(*e.MinFill)
				}
				if e.MaxFill != nil {
					maxF = fmt.Sprint(*e.MaxFill)
				}
				fmt.Fprintf(&b, "%d:ecn/%s/%d-%d/p%d/fill%s-%s/mark=%v ", tc, e.Name, e.MinBytes, e.MaxBytes, e.Probability, minF, maxF, e.Mark)
			}
		}
		return b.String()
	}},
	{"watchdog", func(c *portCase) string {
		w := c.q.Watchdog.V
		if w == nil || c.q.Lossless == 0 {
			return "none"
		}
		// fabricgen's note names the watchdog and its values where the
		// NIC applies less than all of it; mlx5 applies the detection.
		noted := !c.mlx5() || w.Restoration.Set || w.PollInterval.Set || (w.Action.Set && w.Action.V != schema.WatchdogDrop)
		ms := func(v schema.Value[time.Duration]) time.Duration {
			if !v.Set {
				return 0
			}
			return v.V / time.Millisecond
		}
		switch {
		case noted:
			action := ""
			if w.Action.Set {
				action = string(w.Action.V)
			}
			return fmt.Sprintf("%s/%d/%d/%d/%s", w.Name, ms(w.Detection), ms(w.Restoration), ms(w.PollInterval), action)
		case ms(w.Detection) > 0:
			return fmt.Sprintf("/%d/0/0/", ms(w.Detection))
		}
		return "none"
	}, func(c *portCase) string {
		w := c.gq.Watchdog
		if w == nil {
			return "none"
		}
		return fmt.Sprintf("%s/%d/%d/%d/%s", w.Name, w.DetectionMS, w.RestorationMS, w.PollMS, w.Action)
	}},
}

// deviceFacts is what a host script says of the device.
var deviceFacts = []struct {
	name      string
	want, got func(mlnx bool, d *schema.Device, g *importer.Device) string
}{
	{"name", func(_ bool, d *schema.Device, _ *importer.Device) string { return d.Name },
		func(_ bool, _ *schema.Device, g *importer.Device) string { return g.Name }},
	{"kind", func(bool, *schema.Device, *importer.Device) string { return "nic" },
		func(_ bool, _ *schema.Device, g *importer.Device) string { return g.Kind }},
	{"driver", func(_ bool, d *schema.Device, _ *importer.Device) string {
		if d.Driver.Set {
			return d.Driver.V
		}
		return ""
	}, func(_ bool, _ *schema.Device, g *importer.Device) string { return g.Driver }},
	{"rdma", func(mlnx bool, d *schema.Device, _ *importer.Device) string {
		rd := d.RDMA
		if rd == nil {
			return "none"
		}
		s := ""
		if mlnx && rd.RoCEMode.Set {
			s += "transport=roce_" + rd.RoCEMode.V + " "
		}
		if rd.PathMTU.Set {
			s += fmt.Sprintf("path_mtu=%d ", rd.PathMTU.V)
		}
		if rd.ToS.Set {
			s += fmt.Sprintf("tos=%d ", rd.ToS.V)
		}
		if mlnx && rd.CNPDSCP.Set {
			s += fmt.Sprintf("cnp_dscp=%d ", rd.CNPDSCP.V)
		}
		if mlnx && rd.CNPPriority.Set {
			s += fmt.Sprintf("cnp_priority=%d ", rd.CNPPriority.V)
		}
		if mlnx && rd.ECN.Set {
			s += fmt.Sprintf("ecn=%v ", rd.ECN.V)
		}
		return s
	}, func(_ bool, _ *schema.Device, g *importer.Device) string {
		rd := g.RDMA
		if rd == nil {
			return "none"
		}
		s := ""
		if rd.Transport != "" {
			s += "transport=" + rd.Transport + " "
		}
		for _, f := range []struct {
			n string
			v *int
		}{{"path_mtu", rd.PathMTU}, {"tos", rd.ToS}, {"cnp_dscp", rd.CNPDSCP}, {"cnp_priority", rd.CNPPriority}} {
			if f.v != nil {
				s += fmt.Sprintf("%s=%d ", f.n, *f.v)
			}
		}
		if rd.ECN != nil {
			s += fmt.Sprintf("ecn=%v ", *rd.ECN)
		}
		return s
	}},
}

// CheckGoldens imports every golden render of platform p's fixture
// (root is the repository) and compares the Device's facts with the
// resolved intent, fact by fact; a fixture render has nothing unmapped
// and nothing set twice.
func CheckGoldens(t *testing.T, root string, p platform.Platform, mlnx bool) {
	t.Helper()
	fx := platformtest.Of(root, p)
	fab, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(fab) {
		t.Run(d.Name, func(t *testing.T) {
			path := fx.Golden(d.Name)
			data, err := readlimit.File(path, importer.MaxFileBytes)
			if err != nil {
				t.Fatal(err)
			}
			g, err := p.Import(context.Background(), filepath.Base(path), data)
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			for _, f := range deviceFacts {
				if w, h := f.want(mlnx, d, g), f.got(mlnx, d, g); w != h {
					t.Errorf("%s: intent %q, import %q", f.name, w, h)
				}
			}
			if g.Fabric != fab.Name {
				t.Errorf("fabric: intent %q, import %q", fab.Name, g.Fabric)
			}
			if len(g.Unmapped) > 0 || len(g.Twice) > 0 {
				t.Errorf("a fixture render has unmapped lines %v or twice %v", g.Unmapped, g.Twice)
			}
			if len(g.Ports) != len(d.Ports) {
				t.Fatalf("%d ports imported, the intent has %d", len(g.Ports), len(d.Ports))
			}
			for _, sp := range d.Ports {
				var gp *importer.Port
				for _, x := range g.Ports {
					if x.Name == sp.Name {
						gp = x
					}
				}
				if gp == nil {
					t.Errorf("port %s not imported", sp.Name)
					continue
				}
				c := &portCase{mlnx: mlnx, dev: d, port: sp, q: sp.QoS, got: gp, gq: gp.QoS}
				for _, f := range portFacts {
					if f.name != "mtu" && f.name != "has qos" && (c.q == nil || c.gq == nil) {
						continue
					}
					if w, h := f.want(c), f.got(c); w != h {
						t.Errorf("port %s %s: intent %q, import %q", sp.Name, f.name, w, h)
					}
				}
			}
		})
	}
}

// HostileCase is one hostile input and what must come of it.
type HostileCase struct {
	Name string
	Data func() []byte
	// ErrLine is the line of the *importer.Error it must give (0: it must
	// import cleanly).
	ErrLine int
	// Check looks at a clean import.
	Check func(t *testing.T, d *importer.Device)
}

// Hostile are the hostile inputs of issue 24, for a host importer.
var Hostile = []HostileCase{
	{Name: "binary", Data: func() []byte { return []byte("mlnx_qos -i eth0 --trust dscp\n\x7fELF\x00\x01\x02") }, ErrLine: 2},
	{Name: "50 MB config", Data: func() []byte {
		var b bytes.Buffer
		line := "mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0 # " + strings.Repeat("x", 60) + "\n"
		for b.Len() < 50<<20 {
			b.WriteString(line)
		}
		return b.Bytes()
	}, Check: func(t *testing.T, d *importer.Device) {
		if len(d.Ports) != 1 || len(d.Twice) > 10001 {
			t.Errorf("ports %d twice %d: want one port and a bounded report", len(d.Ports), len(d.Twice))
		}
	}},
	{Name: "2 MB line", Data: func() []byte {
		return []byte("ip link set dev eth0 mtu 9000\necho " + strings.Repeat("A", 2<<20) + " > /sys/class/net/eth0/ecn/roce_np/cnp_dscp\n")
	}, Check: func(t *testing.T, d *importer.Device) {
		if len(d.Unmapped) != 1 || d.Unmapped[0].Line != 2 || len(d.Unmapped[0].Text) > 1024 {
			t.Errorf("unmapped %d lines: want the long line reported once, its text bounded", len(d.Unmapped))
		}
	}},
	{Name: "5 MB line", Data: func() []byte { return []byte("set -eu\n# " + strings.Repeat("A", 5<<20) + "\n") }, ErrLine: 2},
	{Name: "unterminated quote", Data: func() []byte { return []byte("set -eu\nmlnx_qos -i \"eth0 --trust dscp\n\n") }, ErrLine: 2},
	{Name: "unterminated substitution", Data: func() []byte { return []byte("x=1\nIF=$(ls /sys/class/net | head -1\nmlnx_qos -i eth0 --trust dscp\n") }, ErrLine: 2},
	{Name: "unterminated brace", Data: func() []byte { return []byte("{\nmlnx_qos -i eth0 --trust dscp\n") }, Check: func(t *testing.T, d *importer.Device) {
		if len(d.Ports) != 1 {
			t.Errorf("want eth0 read inside the open group, got %d ports", len(d.Ports))
		}
	}},
	{Name: "json nested 10000 deep", Data: func() []byte {
		return []byte("$ dcb -j app show dev eth0\n" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n")
	}, ErrLine: 2},
	{Name: "command substitution and variables", Data: func() []byte {
		return []byte("IF=eth0\nmlnx_qos -i $(ls /sys/class/net | head -1) --trust dscp\nmlnx_qos -i \"${IF}\" --pfc 0,0,0,1,0,0,0,0\nmlnx_qos -i eth1 --pfc `cat /tmp/pfc`\n")
	}, Check: func(t *testing.T, d *importer.Device) {
		var lines []int
		for _, u := range d.Unmapped {
			lines = append(lines, u.Line)
		}
		if fmt.Sprint(lines) != "[2 3 4]" {
			t.Errorf("unmapped lines %v, want [2 3 4] (each needs an expansion)", lines)
		}
	}},
	{Name: "terminal escapes", Data: func() []byte {
		return []byte("hostnamectl set-hostname 'h\x1b[2Jx'\nmlnx_qos -i eth0 --cable_len '\x1b]0;pwned\x07'\n")
	}, Check: func(t *testing.T, d *importer.Device) {
		if d.Name != "h\x1b[2Jx" {
			t.Errorf("name %q: want the device's string as it is (the writer escapes it)", d.Name)
		}
		if len(d.Unmapped) != 1 || strings.Contains(importer.Clean(d.Unmapped[0].Text), "\x1b") {
			t.Errorf("unmapped %v: want one line, clean once reported", d.Unmapped)
		}
	}},
	{Name: "crlf and continuations", Data: func() []byte {
		return []byte("mlnx_qos -i eth0 \\\r\n  --trust dscp\r\nmlnx_qos -i eth0 --pfc \\\n0,0,0,1,0,0,0,0\r\n")
	}, Check: func(t *testing.T, d *importer.Device) {
		if len(d.Ports) != 1 || d.Ports[0].QoS == nil || d.Ports[0].QoS.Trust != "dscp" || fmt.Sprint(d.Ports[0].QoS.PFC) != "[3]" {
			t.Errorf("want eth0 trust dscp pfc [3], got %+v", d.Ports)
		}
	}},
	{Name: "one command over 50 MB", Data: func() []byte {
		var b bytes.Buffer
		b.WriteString("mlnx_qos -i eth0")
		for b.Len() < 50<<20 {
			b.WriteString(" --trust dscp \\\n")
		}
		return b.Bytes()
	}, Check: func(t *testing.T, d *importer.Device) {
		if len(d.Unmapped) != 1 || d.Unmapped[0].Line != 1 || len(d.Unmapped[0].Text) > 1024 {
			t.Errorf("unmapped %v: want the huge command reported once at line 1, its text bounded", len(d.Unmapped))
		}
	}},
	{Name: "many interfaces", Data: func() []byte {
		var b bytes.Buffer
		for i := 0; i < 5000; i++ {
			fmt.Fprintf(&b, "ip link set dev eth%d mtu 9000\n", i)
		}
		return b.Bytes()
	}, ErrLine: 4097},
}

// CheckHostile runs the hostile inputs through the platform's importer.
func CheckHostile(t *testing.T, imp importer.Func) {
	t.Helper()
	for _, tc := range Hostile {
		t.Run(tc.Name, func(t *testing.T) {
			d, err := imp(context.Background(), "host.sh", tc.Data())
			var ie *importer.Error
			switch {
			case tc.ErrLine > 0 && !errors.As(err, &ie):
				t.Fatalf("want an *importer.Error at line %d, got %v", tc.ErrLine, err)
			case tc.ErrLine > 0 && ie.Line != tc.ErrLine:
				t.Fatalf("error at line %d, want %d: %v", ie.Line, tc.ErrLine, err)
			case tc.ErrLine > 0:
				if ie.File != "host.sh" {
					t.Errorf("error names file %q", ie.File)
				}
			case err != nil:
				t.Fatalf("want a clean import, got %v", err)
			case tc.Check != nil:
				tc.Check(t, d)
			}
		})
	}
}

// FuzzSeeds adds the platform's golden renders and small hostile inputs.
func FuzzSeeds(f *testing.F, root string, p platform.Platform) {
	fx := platformtest.Of(root, p)
	goldens, _ := filepath.Glob(filepath.Join(fx.GoldenDir(), "*"))
	for _, g := range goldens {
		if data, err := readlimit.File(g, importer.MaxFileBytes); err == nil {
			f.Add(data)
		}
	}
	for _, tc := range Hostile {
		if data := tc.Data(); len(data) < 4096 {
			f.Add(data)
		}
	}
	f.Add([]byte("$ mlnx_qos -i eth0\nPriority trust state: dscp\n\tprio:3 dscp:26,\ntc: 0 ratelimit: unlimited, tsa: ets, bw: 50%\n\t priority:  0\n$ dcb -j pfc show dev eth0\n{\"prio_pfc\":[false,false,false,true,false,false,false,false]}\n"))
}

// FuzzOne is one fuzz execution: no panic, and every error an
// *importer.Error.
func FuzzOne(t *testing.T, imp importer.Func, data []byte) {
	d, err := imp(context.Background(), "fuzz.sh", data)
	var ie *importer.Error
	if err != nil && !errors.As(err, &ie) {
		t.Fatalf("error %T is not an *importer.Error: %v", err, err)
	}
	if err == nil && d == nil {
		t.Fatal("no device and no error")
	}
}
