package sonic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/brownfield"
	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/platforms/sonic"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

func importSONiC(t testing.TB, file string, data []byte) (*importer.Device, error) {
	t.Helper()
	return sonic.Platform().Import(context.Background(), file, data)
}

// TestImportFixtureGoldens imports every golden render of the fixture
// and checks the device's facts against the resolved intent.
func TestImportFixtureGoldens(t *testing.T) {
	fx := platformtest.Of("../..", sonic.Platform())
	fab, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	devs := fx.Devices(fab)
	if len(devs) < 7 {
		t.Fatalf("the fixture has %d sonic devices, want 7", len(devs))
	}
	for _, d := range devs {
		t.Run(d.Name, func(t *testing.T) {
			path := fx.Golden(d.Name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := importSONiC(t, path, data)
			if err != nil {
				t.Fatal(err)
			}
			checkDevice(t, d, got)
		})
	}
}

// checkDevice compares what import read with the intent the render came
// from: a table of the facts that must come back.
func checkDevice(t *testing.T, d *schema.Device, got *importer.Device) {
	t.Helper()
	if got.Platform != "sonic" || got.Name != "" {
		t.Errorf("platform %q name %q, want sonic and no name (a render has no DEVICE_METADATA)", got.Platform, got.Name)
	}
	if got.ASIC == "" {
		t.Errorf("no asic: the intent written from it would not render")
	}
	if len(got.Ports) != len(d.Ports) {
		t.Fatalf("%d ports, want %d", len(got.Ports), len(d.Ports))
	}
	for i, sp := range d.Ports {
		p := got.Ports[i]
		q := p.QoS
		if q == nil {
			q = got.Default
		}
		if q == nil {
			t.Fatalf("port %s has no QoS", sp.Name)
		}
		want := sp.QoS
		ip := ""
		if sp.IP.Set {
			ip = sp.IP.V.String()
		}
		trust := string(want.Trust.V)
		if trust == "" {
			trust = "dscp"
		}
		facts := []struct {
			what      string
			got, want any
		}{
			{"name", p.Name, sp.Name},
			{"description", p.Description, sp.Description},
			{"ip", p.IP, ip},
			{"routed", p.Routed, sp.IsRouted()},
			{"speed", p.Speed, sp.Speed.V},
			{"fec", p.FEC, sp.FEC.V},
			{"mtu", p.MTU, want.MTU.V},
			{"trust", q.Trust, trust},
			{"pfc", fmt.Sprint(q.PFC), fmt.Sprint(want.Lossless.List())},
			{"acl_in", fmt.Sprint(p.ACLIn), fmt.Sprint(aclNames(sp.ACLIn))},
			{"acl_out", fmt.Sprint(p.ACLOut), fmt.Sprint(aclNames(sp.ACLOut))},
		}
		for dscp := range 64 {
			facts = append(facts, struct {
				what      string
				got, want any
			}{fmt.Sprintf("dscp %d", dscp), q.DSCP[dscp], want.DSCP[dscp].V})
		}
		for pr := range 8 {
			facts = append(facts, struct {
				what      string
				got, want any
			}{fmt.Sprintf("queue of priority %d", pr), q.Queue[pr], want.Queue[pr].V})
		}
		for _, f := range facts {
			if fmt.Sprint(f.got) != fmt.Sprint(f.want) {
				t.Errorf("port %s %s = %v, want %v", sp.Name, f.what, f.got, f.want)
			}
		}
		var gb importer.Buffer
		if q.Buffer != nil {
			gb = *q.Buffer
		}
		wb := want.Buffer
		wdt := "<nil>"
		if wb.DynamicThreshold.Set {
			wdt = fmt.Sprint(wb.DynamicThreshold.V)
		}
		gdt := "<nil>"
		if gb.DynamicThreshold != nil {
			gdt = fmt.Sprint(*gb.DynamicThreshold)
		}
		if g, w := fmt.Sprint(gb.Headroom, gb.XOFF, gb.XON, gb.IngressLosslessPool, gb.EgressLossyPool, gdt),
			fmt.Sprint(wb.Headroom.V, wb.XOFF.V, wb.XON.V, wb.IngressLosslessPool.V, wb.EgressLossyPool.V, wdt); g != w {
			t.Errorf("port %s buffer (headroom xoff xon pools dynamic_th) = %s, want %s", sp.Name, g, w)
		}
		checkQueues(t, sp.Name, q, want)
		checkWatchdog(t, sp.Name, q, want)
	}
	checkACLs(t, d, got)
}

func aclNames(as []*schema.ACL) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func checkQueues(t *testing.T, port string, q *importer.QoS, want *schema.PortQoS) {
	t.Helper()
	for id, wq := range want.Queues {
		gq := q.Queues[id]
		wantSched := string(wq.Sched.V)
		if wantSched == "" && wq.Weight.V > 0 {
			wantSched = "dwrr"
		}
		gotSched, gotWeight := "", 0
		var gotECN *importer.ECN
		if gq != nil {
			gotSched, gotECN = gq.Sched, gq.ECN
			if gq.Weight != nil {
				gotWeight = *gq.Weight
			}
		}
		if gotSched != wantSched || (wantSched == "dwrr" && gotWeight != wq.Weight.V) {
			t.Errorf("port %s queue %d: scheduler %q weight %d, want %q weight %d", port, id, gotSched, gotWeight, wantSched, wq.Weight.V)
		}
		e := wq.ECN.V
		switch {
		case e == nil && gotECN != nil:
			t.Errorf("port %s queue %d: ECN %+v, want none", port, id, *gotECN)
		case e != nil && gotECN == nil:
			t.Errorf("port %s queue %d: no ECN, want %s", port, id, e.Name)
		case e != nil:
			if gotECN.Name != e.Name || gotECN.MinBytes != e.Min.V || gotECN.MaxBytes != e.Max.V || gotECN.Probability != e.Probability.V || gotECN.Mark != e.Mark.V {
				t.Errorf("port %s queue %d: ECN %+v, want %s min %d max %d p %d mark %v", port, id, *gotECN, e.Name, e.Min.V, e.Max.V, e.Probability.V, e.Mark.V)
			}
		}
	}
}

func checkWatchdog(t *testing.T, port string, q *importer.QoS, want *schema.PortQoS) {
	t.Helper()
	w := want.Watchdog.V
	if w == nil || want.Lossless == 0 {
		if q.Watchdog != nil {
			t.Errorf("port %s: watchdog %+v, want none", port, *q.Watchdog)
		}
		return
	}
	if q.Watchdog == nil {
		t.Fatalf("port %s: no watchdog, want %s", port, w.Name)
	}
	g := q.Watchdog
	if g.DetectionMS != w.Detection.V.Milliseconds() || g.PollMS != w.PollInterval.V.Milliseconds() || g.Action != string(w.Action.V) {
		t.Errorf("port %s: watchdog %+v, want detection %v poll %v action %s", port, *g, w.Detection.V, w.PollInterval.V, w.Action.V)
	}
	if w.Restoration.Set && g.RestorationMS != w.Restoration.V.Milliseconds() {
		t.Errorf("port %s: watchdog restoration %d ms, want %v", port, g.RestorationMS, w.Restoration.V)
	}
	if g.RestorationMS <= 0 {
		t.Errorf("port %s: watchdog restoration %d ms: the render always writes one", port, g.RestorationMS)
	}
}

func checkACLs(t *testing.T, d *schema.Device, got *importer.Device) {
	t.Helper()
	var want []*schema.ACL
	for _, p := range d.Ports {
		for _, a := range slices.Concat(p.ACLIn, p.ACLOut) {
			if !slices.Contains(want, a) {
				want = append(want, a)
			}
		}
	}
	if len(got.ACLs) != len(want) {
		t.Fatalf("%d ACLs, want %d", len(got.ACLs), len(want))
	}
	for _, wa := range want {
		i := slices.IndexFunc(got.ACLs, func(a *importer.ACL) bool { return a.Name == wa.Name })
		if i < 0 {
			t.Errorf("ACL %s not imported", wa.Name)
			continue
		}
		ga := got.ACLs[i]
		if len(ga.Rules) != len(wa.Rules) {
			t.Errorf("ACL %s: %d rules, want %d", wa.Name, len(ga.Rules), len(wa.Rules))
			continue
		}
		for j, wr := range wa.Rules {
			gr := ga.Rules[j]
			pfx := func(v schema.Value[netip.Prefix]) string {
				if !v.Set {
					return ""
				}
				return v.V.String()
			}
			ports := func(v []schema.PortRange) string {
				var s []string
				for _, r := range v {
					s = append(s, fmt.Sprintf("%d-%d", r.From, r.To))
				}
				return strings.Join(s, ",")
			}
			gports := func(v [][2]int) string {
				var s []string
				for _, r := range v {
					s = append(s, fmt.Sprintf("%d-%d", r[0], r[1]))
				}
				return strings.Join(s, ",")
			}
			proto := wr.Protocol.V
			if proto == "" {
				proto = "ip"
			}
			g := fmt.Sprint(gr.Seq, gr.Action, gr.Protocol, gr.SrcPrefix, gr.DstPrefix, gports(gr.SrcPorts), gports(gr.DstPorts), gr.DSCP)
			w := fmt.Sprint(wr.Seq, wr.Action.V, proto, pfx(wr.SrcPrefix), pfx(wr.DstPrefix), ports(wr.SrcPorts.V), ports(wr.DstPorts.V), wr.DSCP.V)
			if g != w {
				t.Errorf("ACL %s rule %d:\n got %s\nwant %s", wa.Name, wr.Seq, g, w)
			}
		}
	}
}

// TestImportAttributes checks the device attributes import reads from
// the render's shape, where CONFIG_DB names none: each must render the
// same tables again.
func TestImportAttributes(t *testing.T) {
	for _, c := range []struct {
		golden, asic, release, hwsku string
	}{
		{"sonic1", "mellanox", "", ""},            // pfc_to_pg_map: mellanox or barefoot
		{"sonic2106", "broadcom", "202106", ""},   // "[TABLE|name]" references: before 202111
		{"sonic201911", "broadcom", "202106", ""}, // the same tables as 202106 on a marvell
		{"sonic2106sku", "broadcom", "202106", "DellEMC-Z9332f-M-O16C64"},
		{"sonic5", "mellanox", "", ""},
		{"sonic6", "broadcom", "", ""},
	} {
		t.Run(c.golden, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", c.golden+".json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := importSONiC(t, path, data)
			if err != nil {
				t.Fatal(err)
			}
			if d.ASIC != c.asic || d.OSVersion != c.release || d.HWSKU != c.hwsku {
				t.Errorf("asic %q os_version %q hwsku %q, want %q %q %q", d.ASIC, d.OSVersion, d.HWSKU, c.asic, c.release, c.hwsku)
			}
		})
	}
}

// lineOf is the 1-based line of the first line of text containing s.
func lineOf(t *testing.T, text []byte, s string) int {
	t.Helper()
	i := bytes.Index(text, []byte(s))
	if i < 0 {
		t.Fatalf("%q is not in the file", s)
	}
	return bytes.Count(text[:i], []byte("\n")) + 1
}

// TestImportUnmapped imports hand-written configurations in SONiC's own
// syntax with QoS fabricgen does not render: each such line is reported
// at its line, with why.
func TestImportUnmapped(t *testing.T) {
	path := filepath.Join("testdata", "import", "leaf-201911.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := importSONiC(t, path, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		after, at, why string
	}{
		{``, `"AZURE_REWRITE": {`, "egress DSCP rewrite"},
		{``, `"EXP_AZURE": {`, "MPLS TC"},
		{``, `"tc_to_dscp_map": "[TC_TO_DSCP_MAP|AZURE_REWRITE]"`, "egress DSCP rewrite on the port"},
		{``, `"scheduler": "[SCHEDULER|port_shaper]"`, "port shaper"},
		{``, `"pir": "1250000000"`, "queue shaper"},
		{``, `"yellow_max_threshold": "1000000"`, "yellow curve differs"},
		{`"TC_TO_PRIORITY_GROUP_MAP"`, `"7": "7"`, "TC 7 in priority group 7"},
		{`"ACL_TABLE"`, `"PortChannel0001"`, "not a port of the PORT table"},
		{``, `"MIRROR_TBL": {`, "type MIRROR"},
		{``, `"MIRROR_ACTION": "everflow0"`, "MIRROR_ACTION"},
		{``, `"profile": "[BUFFER_PROFILE|custom_lossy_profile]"`, "custom_lossy_profile"},
		{``, `"custom_lossy_profile": {`, "stock buffers do not have"},
	} {
		if c.why == "" {
			continue
		}
		line := lineOf(t, data, c.after) - 1 + lineOf(t, data[bytes.Index(data, []byte(c.after)):], c.at)
		i := slices.IndexFunc(d.Unmapped, func(l importer.Line) bool { return l.Line == line })
		if i < 0 {
			t.Errorf("line %d (%s) is not reported; unmapped: %v", line, c.at, d.Unmapped)
			continue
		}
		if u := d.Unmapped[i]; !strings.Contains(u.Why, c.why) || u.File != path {
			t.Errorf("line %d reported as %+v, want a why with %q", line, u, c.why)
		}
	}
	// Nothing fabricgen maps or SONiC derives is reported.
	for _, l := range d.Unmapped {
		for _, quiet := range []string{"pg_lossless_", "ingress_lossy_profile", "\"dscp_to_tc_map\"", "\"pfc_enable\""} {
			if strings.Contains(string(bytes.Split(data, []byte("\n"))[l.Line-1]), quiet) {
				t.Errorf("line %d reported, but %s is SONiC's own or mapped: %+v", l.Line, quiet, l)
			}
		}
	}
	// The facts that are mapped.
	if d.Name != "leaf7" || d.HWSKU != "Force10-S6100" || d.ASIC != "broadcom" || d.OSVersion != "202106" || d.BufferModel != "dynamic" {
		t.Errorf("name %q hwsku %q asic %q os_version %q buffer_model %q, want leaf7 Force10-S6100 broadcom 202106 dynamic", d.Name, d.HWSKU, d.ASIC, d.OSVersion, d.BufferModel)
	}
	if d.Ports[0].CableM != 5 || d.Ports[1].CableM != 40 {
		t.Errorf("cable lengths %v and %v, want 5 and 40 (CABLE_LENGTH)", d.Ports[0].CableM, d.Ports[1].CableM)
	}
	for _, p := range d.Ports {
		if b := p.QoS.Buffer; b == nil || b.IngressLosslessPool != 12766208 || b.EgressLossyPool != 7326924 || b.Headroom != 0 {
			t.Errorf("port %s buffer %+v, want the two pool sizes of BUFFER_POOL (the lossless profile is the SKU's)", p.Name, b)
		}
	}
	if len(d.Twice) != 1 || d.Twice[0].Text != "PORT_QOS_MAP|Ethernet0" || d.Twice[0].Line <= lineOf(t, data, `"Ethernet0,Ethernet4": {`) {
		t.Errorf("twice = %+v, want Ethernet0's own PORT_QOS_MAP row, after the port list row", d.Twice)
	}
	e0 := d.Ports[0]
	if e0.Name != "Ethernet0" || e0.QoS == nil || fmt.Sprint(e0.QoS.PFC) != "[3 4]" || e0.QoS.DSCP[46] != 5 || e0.QoS.Queues[3] == nil ||
		e0.QoS.Queues[3].ECN == nil || e0.QoS.Queues[3].ECN.MinBytes != 250000 || e0.QoS.Watchdog == nil || e0.QoS.Watchdog.DetectionMS != 400 {
		t.Errorf("Ethernet0 = %+v, QoS %+v", e0, e0.QoS)
	}
	if len(d.ACLs) != 1 || d.ACLs[0].Name != "DATAACL" || len(d.ACLs[0].Rules) != 2 {
		t.Errorf("ACLs = %+v, want DATAACL with its two plain rules", d.ACLs)
	}
	// The same configuration on one line reports the same things, each
	// at line 1.
	var one bytes.Buffer
	if err := json.Compact(&one, data); err != nil {
		t.Fatal(err)
	}
	m, err := importSONiC(t, path, one.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Unmapped) != len(d.Unmapped) || len(m.Twice) != len(d.Twice) {
		t.Errorf("minified: %d unmapped and %d twice, want %d and %d", len(m.Unmapped), len(m.Twice), len(d.Unmapped), len(d.Twice))
	}
	for _, u := range m.Unmapped {
		if u.Line != 1 {
			t.Errorf("minified: %+v not at line 1", u)
		}
	}
}

// TestImportHostile feeds inputs that must give a clean *importer.Error
// at FILE:LINE, or a clean import, never a panic or a hang.
func TestImportHostile(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	bigLine := `{"PORT": {"Ethernet0": {"description": "` + strings.Repeat("x", 2<<20) + `"}}}`
	var big bytes.Buffer
	big.WriteString("{\"PORT\": {\n")
	for i := 0; big.Len() < 50<<20; i++ {
		fmt.Fprintf(&big, "\"Ethernet%d\": {\"mtu\": \"9100\", \"description\": \"port %d\"},\n", i, i)
	}
	big.WriteString("\"Ethernet999999999\": {}\n}}\n")
	for _, c := range []struct {
		name, text string
		line       int    // the error's line; -1: a clean import
		msg        string // in the error
	}{
		{"binary", "\x00\x01\x02\xff\xfe{}", 1, "does not start with '{'"},
		{"binary inside", "{\n\"PORT\": {\x00}}", 2, "expected a string, found '\\x00'"},
		{"empty", "", 0, "empty"},
		{"not an object", "[1, 2]", 1, "does not start with '{'"},
		{"unterminated", "{\n\"PORT\": {\n\"Ethernet0\": {\"mtu\": \"9100\"\n", 4, "cut short"},
		{"deep", "{\"A\": {\"B\": " + deep + "}}", 1, "nested more than 200 levels"},
		{"deep objects", strings.Repeat("{\"a\":", 10000) + "1" + strings.Repeat("}", 10000), 1, "nested more than 200 levels"},
		{"text after", "{}\n{}", 2, "text after"},
		{"wrapped", "{\n\"SAMPLE_CONFIG_DB_JSON\": {\"PORT\": {}}}", 2, "is a CONFIG_DB table"},
		{"table not an object", "{\n\"PORT\": \"x\"}", 2, "not an object of rows"},
		{"row not an object", "{\"PORT\": {\n\"Ethernet0\": 1}}", 2, "not an object of fields"},
		{"2 MB line", bigLine, -1, ""},
		{"50 MB config", big.String(), -1, ""},
		{"shell and template text", `{"DEVICE_METADATA": {"localhost": {"hostname": "$(reboot)"}}, "PORT": {"Ethernet0": {"description": "${file(\"/etc/passwd\")} %{ if 1 } $(rm -rf /)"}}}`, -1, ""},
		{"terminal escapes", "{\"PORT\": {\"Ethernet0\": {\"description\": \"\\u001b[2J\\u001b]0;pwned\\u0007\"}}}", -1, ""},
		{"escape in a key", "{\"PORT\": {\"Ethernet0\\u001b[2J\": 1}}", 1, `Ethernet0\x1b[2J`},
		{"other tables any shape", "{\"VERSIONS|DATABASE\": {\"VERSION\": \"version_3_0_1\"}, \"PORT\": {\"Ethernet0\": {}}}", -1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var d *importer.Device
			var err error
			go func() {
				defer close(done)
				d, err = importSONiC(t, "leaf.json", []byte(c.text))
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Minute):
				t.Fatal("import did not finish in 5 minutes")
			}
			if c.line < 0 {
				if err != nil {
					t.Fatalf("error %v, want a clean import", err)
				}
				if len(d.Ports) == 0 {
					t.Errorf("no ports read")
				}
				return
			}
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want an *importer.Error", err, err)
			}
			if ie.File != "leaf.json" || ie.Line != c.line || !strings.Contains(ie.Msg, c.msg) {
				t.Errorf("error %q at line %d, want line %d with %q", ie.Error(), ie.Line, c.line, c.msg)
			}
			if strings.ContainsAny(ie.Error(), "\x00\x1b\x07") {
				t.Errorf("error %q carries raw control characters", ie.Error())
			}
		})
	}
	// Strings from the device stay data, as they are.
	d, err := importSONiC(t, "leaf.json", []byte("{\"PORT\": {\"Ethernet0\": {\"description\": \"\\u001b[2J${x}\"}}}"))
	if err != nil || d.Ports[0].Description != "\x1b[2J${x}" {
		t.Errorf("description %q, %v: want the device's string as it is", d.Ports[0].Description, err)
	}
}

// FuzzImport: any input imports cleanly or fails with an *importer.Error.
func FuzzImport(f *testing.F) {
	for _, g := range []string{"sonic1", "sonic2106sku", "sonic5"} {
		data, err := os.ReadFile(filepath.Join("testdata", "golden", g+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "import", "leaf-201911.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"PORT_QOS_MAP": {"Ethernet0,Ethernet4": {"pfc_enable": "3,4"}}, "QUEUE": {"Ethernet0|0-9": {}}}`))
	f.Add([]byte(`{"ACL_TABLE": {"T": {"type": "L3", "ports": "Ethernet0"}}, "ACL_RULE": {"T|R": {"PRIORITY": "x"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := importSONiC(t, "f.json", data)
		if err != nil {
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *importer.Error", err)
			}
			return
		}
		if d == nil {
			t.Fatal("nil device without an error")
		}
	})
}

// TestImportPublic imports CONFIG_DB texts SONiC's own test suite
// publishes (testdata/import/public, with their source and licence):
// what must be read, and every line that must be reported.
func TestImportPublic(t *testing.T) {
	for _, c := range []struct {
		file     string
		ports    int
		reported []string // the texts of every Unmapped line, in order
		check    func(t *testing.T, d *importer.Device)
	}{
		{"qos-dell6100.json", 44, []string{
			"TC_TO_PRIORITY_GROUP_MAP|AZURE|7 = 7",
			"WRED_PROFILE|AZURE_LOSSLESS|yellow_min_threshold = 1048576",
			"WRED_PROFILE|AZURE_LOSSLESS|red_min_threshold = 1048576",
		}, func(t *testing.T, d *importer.Device) {
			q := d.Ports[0].QoS
			if d.Default == nil || d.Default.DSCP[46] != 5 || q == nil || q.Trust != "dscp" || q.DSCP[3] != 3 || q.DSCP[0] != 1 ||
				fmt.Sprint(q.PFC) != "[3 4]" || q.Watchdog != nil || q.WatchdogOff != true {
				t.Errorf("Ethernet0 QoS %+v, default %+v", q, d.Default)
			}
			q3 := q.Queues[3]
			if q3 == nil || q3.Sched != "dwrr" || *q3.Weight != 15 || q3.ECN == nil || q3.ECN.Name != "AZURE_LOSSLESS" ||
				q3.ECN.MinBytes != 250000 || q3.ECN.MaxBytes != 2097152 || q3.ECN.Probability != 5 || !q3.ECN.Mark {
				t.Errorf("Ethernet0 queue 3 %+v", q3)
			}
		}},
		{"qos-mellanox4600c-c64.json", 28, nil, func(t *testing.T, d *importer.Device) {
			var lossless2 []string
			for _, p := range d.Ports {
				if p.QoS != nil && slices.Contains(p.QoS.PFC, 2) {
					lossless2 = append(lossless2, p.Name)
				}
			}
			// 20 ports have pfc_enable 2,3,4,6 and 8 (the uplinks, on
			// DSCP map AZURE_UPLINK) 3,4: one set of maps per device
			// gives all 28 the 20's, and reports the 8.
			if len(lossless2) != 28 {
				t.Errorf("%d ports with PFC on priority 2 (%v), want all 28", len(lossless2), lossless2)
			}
			wd, differ := 0, 0
			for _, u := range d.Unmapped {
				if strings.Contains(u.Text, "pfcwd_sw_enable = 3,4") {
					wd++
				}
				if strings.Contains(u.Why, "QoS differs in DSCP map, PFC priorities") && strings.Contains(u.Why, "from 20 of the 28 ports") {
					differ++
				}
			}
			if wd != 20 || differ != 8 {
				t.Errorf("%d pfcwd_sw_enable lines and %d differing ports reported, want the 20 that guard fewer priorities than pfc_enable and the 8 uplinks", wd, differ)
			}
		}},
		{"buffers-dell6100.json", 0, []string{
			"BUFFER_POOL|ingress_lossless_pool|xoff = 4194112", "BUFFER_POOL|egress_lossless_pool",
		}, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "import", "public", c.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := importSONiC(t, path, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Ports) != c.ports {
				t.Errorf("%d ports, want %d", len(d.Ports), c.ports)
			}
			if c.reported != nil {
				var got []string
				for _, u := range d.Unmapped {
					got = append(got, u.Text)
				}
				if !slices.Equal(got, c.reported) {
					t.Errorf("unmapped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.reported, "\n"))
				}
			}
			for _, u := range d.Unmapped {
				if u.Line < 1 || !strings.Contains(lineText(data, u.Line), strings.Split(strings.Split(u.Text, " = ")[0], "|")[len(strings.Split(strings.Split(u.Text, " = ")[0], "|"))-1]) {
					t.Errorf("%+v: line %d is %q", u, u.Line, lineText(data, u.Line))
				}
			}
			if c.check != nil {
				c.check(t, d)
			}
		})
	}
}

// lineText is line n (1-based) of data.
func lineText(data []byte, n int) string {
	lines := bytes.Split(data, []byte("\n"))
	if n < 1 || n > len(lines) {
		return ""
	}
	return string(lines[n-1])
}

// TestImportReferenceStyles imports the same device in both reference
// styles (sonic-utilities' db_migrator test input before and after the
// 202111 migration, internal/importer/testdata/corpus/sonic): the facts
// are the same; only the release the style shows differs.
func TestImportReferenceStyles(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "importer", "testdata", "corpus", "sonic")
	var devs []*importer.Device
	for _, f := range []string{"sonic-utilities-qos_tables_reference_format_3_0_1.json", "sonic-utilities-qos_tables_reference_format_3_0_3.json"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		d, err := importSONiC(t, f, data)
		if err != nil {
			t.Fatal(err)
		}
		devs = append(devs, d)
	}
	old, cur := devs[0], devs[1]
	if old.OSVersion != "202106" || cur.OSVersion != "" {
		t.Errorf("os_version %q and %q, want 202106 (bracketed references) and the default", old.OSVersion, cur.OSVersion)
	}
	if len(old.Ports) != 66 || len(old.Ports) != len(cur.Ports) {
		t.Fatalf("%d and %d ports, want 66", len(old.Ports), len(cur.Ports))
	}
	facts := func(d *importer.Device) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s %s %s\n", d.Name, d.ASIC, d.HWSKU, d.BufferModel)
		for _, p := range d.Ports {
			q := *p.QoS
			q.Src = nil
			fmt.Fprintf(&b, "%s %q %d %d %s %v trust=%s dscp=%v queue=%v pfc=%v wd=%v off=%v buf=%v dt=%d\n", p.Name, p.Description, p.MTU, p.Speed, p.FEC, p.CableM,
				q.Trust, q.DSCP, q.Queue, q.PFC, q.Watchdog, q.WatchdogOff, []int64{q.Buffer.Headroom, q.Buffer.XOFF, q.Buffer.XON, q.Buffer.IngressLosslessPool, q.Buffer.EgressLossyPool}, *q.Buffer.DynamicThreshold)
			for id := range 8 {
				if qu := q.Queues[id]; qu != nil {
					w, e := "-", "-"
					if qu.Weight != nil {
						w = fmt.Sprint(*qu.Weight)
					}
					if qu.ECN != nil {
						e = fmt.Sprintf("%+v", *qu.ECN)
					}
					fmt.Fprintf(&b, "  q%d %s %s %s\n", id, qu.Sched, w, e)
				}
			}
		}
		for _, u := range d.Unmapped {
			fmt.Fprintf(&b, "unmapped %s: %s\n", u.Text, u.Why)
		}
		return b.String()
	}
	if a, b := facts(old), facts(cur); a != b {
		t.Errorf("the two styles import differently (-[TABLE|name] +name):\n%s", textdiffLines(a, b))
	}
	if q := cur.Ports[0].QoS; q.Trust != "dscp" || fmt.Sprint(q.PFC) != "[3 4]" || q.Queues[3] == nil || q.Queues[3].ECN == nil || q.Queues[3].ECN.MinBytes != 1048576 {
		t.Errorf("Ethernet0 QoS %+v", q)
	}
}

// textdiffLines lists the lines of a and b that differ.
func textdiffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, "-"+x, "+"+y)
		}
	}
	return strings.Join(out, "\n")
}

// TestImportWritesIntentThatRenders runs whole imports of configurations
// fabricgen did not write (brownfield.Import: this importer, then the
// writer): the intent loads and every device renders (ports that differ
// from the others were given their QoS, and reported), and a description
// with template and shell text comes back as the same string. (The
// sonic-buildimage QoS renders are fragments without PORT rows, so
// without the speeds a lossless port renders from: not here.)
func TestImportWritesIntentThatRenders(t *testing.T) {
	hostile := `{"DEVICE_METADATA": {"localhost": {"hostname": "leaf9", "hwsku": "Force10-S6100"}},
"PORT": {"Ethernet0": {"description": "${file(\"/etc/passwd\")} %{ if true }x%{ endif } $(reboot) \"q\" \\", "speed": "100000", "mtu": "9100"},
	"Ethernet4": {"description": "\u001b[2J\u001b]0;pwned\u0007", "speed": "100000"}},
"DSCP_TO_TC_MAP": {"AZURE": {"26": "3", "48": "6"}},
"PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_enable": "3"}, "Ethernet4": {"dscp_to_tc_map": "AZURE", "pfc_enable": "3"}}}`
	inputs := map[string][]byte{"hostile.json": []byte(hostile)}
	for _, g := range []string{
		filepath.Join("testdata", "import", "leaf-201911.json"),
		filepath.Join("..", "..", "internal", "importer", "testdata", "corpus", "sonic", "sonic-utilities-qos_tables_reference_format_3_0_3.json"),
	} {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		inputs[g] = data
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range inputs {
		t.Run(filepath.Base(name), func(t *testing.T) {
			in, devs, err := brownfield.Import(context.Background(), []brownfield.Source{{Name: name, Data: data}}, brownfield.Options{Platform: "sonic"})
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "fabric")
			if err := brownfield.WriteDir(dir, in); err != nil {
				t.Fatal(err)
			}
			f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("the imported intent does not load: %v", diags)
			}
			for _, d := range f.Devices {
				if _, err := r.Render(f, d); err != nil {
					t.Errorf("%s: the imported intent does not render: %v", d.Name, err)
				}
			}
			if name == "hostile.json" {
				want := devs[0].Ports[0].Description
				if got := f.Devices[0].Ports[0].Description; got != want || !strings.Contains(got, "${file(") || !strings.Contains(got, "$(reboot)") {
					t.Errorf("description %q, want the device's %q as it is", got, want)
				}
			}
		})
	}
}

// TestImportValuesTheRenderRefuses: values outside what fabricgen renders
// on SONiC are reported and left out of the model, so the intent written
// from it renders.
func TestImportValuesTheRenderRefuses(t *testing.T) {
	const head = `{"PORT": {"Ethernet0": {"speed": "100000", "mtu": "%s"}},
"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3"}},
"PFC_WD": {"Ethernet0": {"action": "drop", "detection_time": "%s", "restoration_time": "200"}, "GLOBAL": {"POLL_INTERVAL": "100"}},
"ACL_TABLE": {"BOTH": {"type": "L3V4V6", "stage": "ingress", "ports": ["Ethernet0"]}},
"ACL_RULE": {"BOTH|RULE_1": {"PRIORITY": "9999", "PACKET_ACTION": "FORWARD", "IP_PROTOCOL": "1"}}}`
	for _, c := range []struct {
		name, mtu, detection string
		reported             string
		mtuWant              int
		watchdog             bool
	}{
		{"in range", "9100", "200", "", 9100, true},
		{"mtu too large", "10000", "200", "PORT|Ethernet0|mtu = 10000", 0, true},
		{"detection too short", "9100", "50", "PFC_WD|Ethernet0", 9100, false},
		{"detection below poll", "9100", "99", "PFC_WD|Ethernet0", 9100, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := importSONiC(t, "leaf.json", []byte(fmt.Sprintf(head, c.mtu, c.detection)))
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, u := range d.Unmapped {
				texts = append(texts, u.Text)
			}
			if got := strings.Join(texts, "; "); got != c.reported {
				t.Errorf("reported %q, want %q", got, c.reported)
			}
			p := d.Ports[0]
			if p.MTU != c.mtuWant || (p.QoS.Watchdog != nil) != c.watchdog || p.QoS.WatchdogOff == c.watchdog {
				t.Errorf("mtu %d watchdog %+v off %v, want mtu %d watchdog %v", p.MTU, p.QoS.Watchdog, p.QoS.WatchdogOff, c.mtuWant, c.watchdog)
			}
			// IP_PROTOCOL 1 in an L3V4V6 table is ICMPv4 only: family ipv4,
			// which the render accepts there (icmp for both is refused).
			if r := d.ACLs[0].Rules[0]; r.Protocol != "icmp" || r.Family != "ipv4" {
				t.Errorf("rule %+v, want icmp over ipv4", r)
			}
		})
	}
}
