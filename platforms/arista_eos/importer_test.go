package aristaeos_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/brownfield"
	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/textdiff"
	"github.com/fabricgen/fabricgen/platforms"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// importEOS is the platform's importer.
func importEOS(ctx context.Context, name string, data []byte) (*importer.Device, error) {
	return aristaeos.Platform().Import(ctx, name, data)
}

// fixtureGoldens loads the folder's fixture and each device's golden render.
func fixtureGoldens(t *testing.T) (*schema.Fabric, []*schema.Device, map[string][]byte) {
	t.Helper()
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string][]byte{}
	devs := fx.Devices(f)
	for _, d := range devs {
		b, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		texts[d.Name] = b
	}
	return f, devs, texts
}

// defaultRecoveryMS is the watchdog recovery time fabricgen renders when the
// intent sets none (view.go: always explicit).
const defaultRecoveryMS = 200

// portFacts lists, per fact, the intent's value and the import's, as text.
func portFacts(d *schema.Device, sp *schema.Port, ip *importer.Port) [][3]string {
	var out [][3]string
	add := func(fact string, want, got any) {
		out = append(out, [3]string{fact, fmt.Sprint(want), fmt.Sprint(got)})
	}
	q := sp.QoS
	iq := ip.QoS
	if iq == nil {
		iq = &importer.QoS{}
	}
	add("description", sp.Description, ip.Description)
	ipText := ""
	if sp.IP.Set {
		ipText = sp.IP.V.String()
	}
	add("ip", ipText, ip.IP)
	add("routed", sp.IsRouted(), ip.Routed)
	add("speed", sp.Speed.V, ip.Speed)
	fec := sp.FEC.V
	if fec == "none" { // rendered as no line: EOS's default
		fec = ""
	}
	add("fec", fec, ip.FEC)
	add("mtu", q.MTU.V, ip.MTU)
	names := func(as []*schema.ACL) []string {
		var n []string
		for _, a := range as {
			n = append(n, a.Name)
		}
		return n
	}
	add("acl_in", names(sp.ACLIn), ip.ACLIn)
	add("acl_out", names(sp.ACLOut), ip.ACLOut)
	add("trust", string(q.Trust.V), iq.Trust)
	for c := range 64 {
		add(fmt.Sprintf("dscp %d", c), q.DSCP[c].V, iq.DSCP[c])
	}
	for p := range 8 {
		add(fmt.Sprintf("queue of priority %d", p), q.Queue[p].V, iq.Queue[p])
	}
	add("pfc", q.Lossless.List(), iq.PFC)
	for i := range 8 {
		qq := q.Queues[i]
		got := iq.Queues[i]
		if got == nil {
			got = &importer.Queue{}
		}
		w := 0
		if got.Weight != nil {
			w = *got.Weight
		}
		add(fmt.Sprintf("queue %d scheduler", i), string(qq.Sched.V), got.Sched)
		add(fmt.Sprintf("queue %d weight", i), qq.Weight.V, w)
		add(fmt.Sprintf("queue %d shaper", i), qq.Shaper.V, got.ShaperBps)
		want, have := "none", "none"
		if e := qq.ECN.V; e != nil {
			want = fmt.Sprintf("%d-%d B p%d mark=%v", e.Min.V, e.Max.V, e.Probability.V, e.Mark.V)
		}
		if e := got.ECN; e != nil {
			have = fmt.Sprintf("%d-%d B p%d mark=%v", e.MinBytes, e.MaxBytes, e.Probability, e.Mark)
		}
		add(fmt.Sprintf("queue %d ecn", i), want, have)
	}
	wantWD, gotWD := "none", "none"
	if w := q.Watchdog.V; w != nil && q.Lossless != 0 {
		rec := int64(defaultRecoveryMS)
		if w.Restoration.Set {
			rec = w.Restoration.V.Milliseconds()
		}
		wantWD = fmt.Sprintf("%d/%d/%d %s", w.Detection.V.Milliseconds(), rec, w.PollInterval.V.Milliseconds(), w.Action.V)
	}
	if w := iq.Watchdog; w != nil {
		gotWD = fmt.Sprintf("%d/%d/%d %s", w.DetectionMS, w.RestorationMS, w.PollMS, w.Action)
	}
	add("watchdog", wantWD, gotWD)
	lp := iq.LinkPause != nil && *iq.LinkPause
	add("link_pause", q.LinkPause.V, lp)
	return out
}

// TestImportFixtureGoldens imports each golden render of the fixture and
// compares every QoS fact of every port, and every ACL rule, with the
// resolved intent.
func TestImportFixtureGoldens(t *testing.T) {
	_, devs, texts := fixtureGoldens(t)
	for _, d := range devs {
		t.Run(d.Name, func(t *testing.T) {
			got, err := aristaeos.Platform().Import(context.Background(), d.Name+".cfg", texts[d.Name])
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Unmapped) > 0 || len(got.Twice) > 0 {
				t.Errorf("fabricgen's own render left lines unmapped: %+v %+v", got.Unmapped, got.Twice)
			}
			wantRel := ""
			if d.OSVersion.Set {
				wantRel = d.OSVersion.V.Raw
			}
			if got.Name != d.Name {
				t.Errorf("name %q, want %q (from fabricgen's header)", got.Name, d.Name)
			}
			if got.OSVersion != wantRel {
				t.Errorf("os version %q, want %q", got.OSVersion, wantRel)
			}
			if len(got.Ports) != len(d.Ports) {
				t.Fatalf("%d ports, want %d", len(got.Ports), len(d.Ports))
			}
			for i, sp := range d.Ports {
				ip := got.Ports[i]
				if ip.Name != sp.Name {
					t.Fatalf("port %d is %s, want %s", i, ip.Name, sp.Name)
				}
				for _, f := range portFacts(d, sp, ip) {
					if f[1] != f[2] {
						t.Errorf("%s %s: imported %s, intent %s", sp.Name, f[0], f[2], f[1])
					}
				}
			}
			checkACLs(t, d, got)
		})
	}
}

// checkACLs compares the imported ACLs with the intent's ACLs bound on d.
func checkACLs(t *testing.T, d *schema.Device, got *importer.Device) {
	t.Helper()
	want := map[string]*schema.ACL{}
	for _, p := range d.Ports {
		for _, a := range append(append([]*schema.ACL(nil), p.ACLIn...), p.ACLOut...) {
			want[a.Name] = a
		}
	}
	have := map[string]*importer.ACL{}
	for _, a := range got.ACLs {
		have[a.Name] = a
	}
	if len(have) != len(want) {
		t.Errorf("imported ACLs %v, want %d", slices.Sorted(mapKeys(have)), len(want))
	}
	for name, a := range want {
		b := have[name]
		if b == nil {
			t.Errorf("ACL %s not imported", name)
			continue
		}
		if len(a.Rules) != len(b.Rules) {
			t.Errorf("ACL %s: %d rules, want %d", name, len(b.Rules), len(a.Rules))
			continue
		}
		for i, r := range a.Rules {
			if w, g := ruleText(r), importedRuleText(b.Rules[i]); w != g {
				t.Errorf("ACL %s rule %d:\n imported %s\n intent   %s", name, r.Seq, g, w)
			}
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func ruleText(r *schema.ACLRule) string {
	pfx := func(v schema.Value[netip.Prefix]) string {
		if !v.Set {
			return ""
		}
		return v.V.String()
	}
	ports := func(rs []schema.PortRange) string {
		var b strings.Builder
		for _, p := range rs {
			fmt.Fprintf(&b, "[%d %d]", p.From, p.To)
		}
		return b.String()
	}
	set := "keep"
	if r.SetDSCP.Set && r.SetDSCP.V >= 0 {
		set = fmt.Sprint(r.SetDSCP.V)
	}
	return fmt.Sprintf("%d %s %s %s %s>%s %s>%s dscp%v set=%s", r.Seq, r.Action.V, r.Family, r.Protocol.V,
		pfx(r.SrcPrefix), pfx(r.DstPrefix), ports(r.SrcPorts.V), ports(r.DstPorts.V), r.DSCP.V, set)
}

func importedRuleText(r *importer.ACLRule) string {
	ports := func(rs [][2]int) string {
		var b strings.Builder
		for _, p := range rs {
			fmt.Fprintf(&b, "[%d %d]", p[0], p[1])
		}
		return b.String()
	}
	set := "keep"
	if r.SetDSCP != nil {
		set = fmt.Sprint(*r.SetDSCP)
	}
	dscp := r.DSCP
	if dscp == nil {
		dscp = []int{}
	}
	return fmt.Sprintf("%d %s %s %s %s>%s %s>%s dscp%v set=%s", r.Seq, r.Action, r.Family, r.Protocol,
		r.SrcPrefix, r.DstPrefix, ports(r.SrcPorts), ports(r.DstPorts), dscp, set)
}

// TestImportFactsCanFail proves the fact comparison sees a drifted render.
func TestImportFactsCanFail(t *testing.T) {
	_, devs, texts := fixtureGoldens(t)
	d := devs[0]
	for _, c := range []struct{ from, to, fact string }{
		{"qos map dscp 26 to traffic-class 3", "qos map dscp 26 to traffic-class 1", "dscp 26"},
		{"priority-flow-control priority 3 no-drop", "priority-flow-control priority 4 no-drop", "pfc"},
		{"maximum-threshold 1500000 bytes", "maximum-threshold 1400000 bytes", "queue 3 ecn"},
		{"bandwidth percent 50", "bandwidth percent 40", "queue 0 weight"},
		{"priority-flow-control pause watchdog default timeout 0.2", "priority-flow-control pause watchdog default timeout 0.3", "watchdog"},
	} {
		broken := bytes.Replace(texts[d.Name], []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(broken, texts[d.Name]) {
			t.Fatalf("the render lacks %q", c.from)
		}
		got, err := importEOS(context.Background(), "x.cfg", broken)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range portFacts(d, d.Ports[0], got.Ports[0]) {
			if f[0] == c.fact && f[1] != f[2] {
				found = true
			}
		}
		if !found {
			t.Errorf("editing %q did not change fact %q", c.from, c.fact)
		}
	}
}

// eapiJSON prints a text configuration in the `show running-config | json`
// shape (leaf lines null, stanzas {"cmds": {...}, "comments": []}), with
// the header comments in "header".
func eapiJSON(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	var walk func(ns []*config.Node, depth int)
	walk = func(ns []*config.Node, depth int) {
		ind := strings.Repeat("  ", depth)
		for i, n := range ns {
			k, _ := json.Marshal(n.Line)
			fmt.Fprintf(&b, "%s%s: ", ind, k)
			if len(n.Children) == 0 {
				b.WriteString("null")
			} else {
				b.WriteString("{\n" + ind + "  \"comments\": [],\n" + ind + "  \"cmds\": {\n")
				walk(n.Children, depth+2)
				b.WriteString(ind + "  }\n" + ind + "}")
			}
			if i < len(ns)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
	}
	var hdr []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "!") || l == "!" {
			break
		}
		hdr = append(hdr, l)
	}
	hj, _ := json.Marshal(hdr)
	fmt.Fprintf(&b, "{\n\"header\": %s,\n\"cmds\": {\n", hj)
	walk(config.ParseAsPrinted(text, aristaeos.TextFormForTest()).Nodes, 1)
	b.WriteString("}\n}\n")
	return b.Bytes()
}

// stripLines zeroes a device's line numbers (the two forms number lines
// differently).
func stripLines(d *importer.Device) {
	for _, p := range d.Ports {
		p.Src = importer.Span{File: p.Src.File}
		if p.QoS != nil {
			p.QoS.Src = nil
		}
	}
	if d.Default != nil {
		d.Default.Src = nil
	}
	for _, a := range d.ACLs {
		a.Src = importer.Span{File: a.Src.File}
		for _, r := range a.Rules {
			r.Src = importer.Span{File: r.Src.File}
		}
	}
	for i := range d.Unmapped {
		d.Unmapped[i].Line = 0
	}
	for i := range d.Twice {
		d.Twice[i].Line = 0
	}
}

// TestImportJSONFormSameDevice imports each golden render and its `| json`
// form: the same Device, line numbers aside.
func TestImportJSONFormSameDevice(t *testing.T) {
	_, devs, texts := fixtureGoldens(t)
	for _, d := range devs {
		text := texts[d.Name]
		fromText, err := importEOS(context.Background(), "x", text)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON, err := importEOS(context.Background(), "x", eapiJSON(t, string(text)))
		if err != nil {
			t.Fatal(err)
		}
		stripLines(fromText)
		stripLines(fromJSON)
		if !reflect.DeepEqual(fromText, fromJSON) {
			a, _ := json.MarshalIndent(fromText, "", " ")
			b, _ := json.MarshalIndent(fromJSON, "", " ")
			t.Errorf("%s: the JSON form imports differently:\ntext %s\njson %s", d.Name, a, b)
		}
	}
}

// brownfieldEOS is a hand-written EOS running-config in the device's own
// shape (header, 3-space indentation, "!" separators), with QoS fabricgen
// does not render. Line numbers matter: the test names them.
const brownfieldEOS = `! Command: show running-config
! device: leaf-7 (DCS-7280SR3-48YC8, EOS-4.30.1F)
!
! boot system flash:/EOS-4.30.1F.swi
!
hostname leaf-7
!
qos map dscp 26 to traffic-class 3
qos map dscp 46 48 to traffic-class 6
qos map traffic-class 3 to tx-queue 3
qos map exp 3 to traffic-class 3
qos rewrite dscp
!
qos profile LOSSLESS
   qos trust dscp
!
hardware tcam
   profile qos-extended
!
platform trident mmu queue profile RDMA
!
priority-flow-control pause watchdog default timeout 0.05
priority-flow-control pause watchdog action notify-only
!
ip access-list MATCH-ROCE
   10 permit udp any any eq 4791 log
!
class-map type qos match-any CM-DSCP
   match dscp 46
!
class-map type qos match-any ROCEV2
   match ip access-group MATCH-ROCE
!
policy-map type quality-of-service MARK
   class ROCEV2
      set traffic-class 3
!
interface Ethernet1/1
   description spine-1 $(reboot) ${var} ` + "\x1b[31mred\x1b[0m" + `
   mtu 9214
   speed forced 100gfull
   no switchport
   ip address 10.0.0.1/31
   qos trust dscp
   shape rate 50 percent
   service-policy type qos input MARK
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control pause watchdog
   !
   tx-queue 3
      bandwidth percent 60
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 20 weight 0
   !
   mc-tx-queue 1
      priority strict
!
interface Ethernet1/2
   service-profile LOSSLESS
   flowcontrol send on
!
interface Ethernet1/1
   mtu 9000
!
interface Management1
   qos trust cos
   ip address 192.0.2.7/24
!
router bgp 65001
   neighbor 10.0.0.0 remote-as 65000
!
end
`

// TestImportBrownfieldUnmapped proves the lines no intent expresses are
// reported at their line numbers, the rest is read, and the second stanza
// of a port wins where it repeats a setting.
func TestImportBrownfieldUnmapped(t *testing.T) {
	d, err := importEOS(context.Background(), "leaf-7.cfg", []byte(brownfieldEOS))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "leaf-7" || d.OSVersion != "4.30.1F" {
		t.Errorf("name %q release %q, want leaf-7 4.30.1F", d.Name, d.OSVersion)
	}
	want := []struct {
		line int
		text string
	}{
		{8, "qos map dscp 26 to traffic-class 3"}, // a partial map
		{11, "qos map exp 3 to traffic-class 3"},
		{12, "qos rewrite dscp"},
		{17, "hardware tcam"},
		{18, "profile qos-extended"},
		{20, "platform trident mmu queue profile RDMA"},
		{23, "priority-flow-control pause watchdog action notify-only"},
		{26, "10 permit udp any any eq 4791 log"},
		{28, "class-map type qos match-any CM-DSCP"},
		{29, "match dscp 46"},
		{31, "class-map type qos match-any ROCEV2"},
		{34, "policy-map type quality-of-service MARK"},
		{35, "class ROCEV2"},
		{36, "set traffic-class 3"},
		{45, "shape rate 50 percent"},
		{53, "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 20 weight 0"},
		{55, "mc-tx-queue 1"},
		{56, "priority strict"},
		{60, "flowcontrol send on"},
		{66, "qos trust cos"},
	}
	got := map[string]bool{}
	for _, l := range d.Unmapped {
		if l.File != "leaf-7.cfg" || l.Why == "" {
			t.Errorf("unmapped line without file or reason: %+v", l)
		}
		got[fmt.Sprintf("%d %s", l.Line, l.Text)] = true
	}
	for _, w := range want {
		if !got[fmt.Sprintf("%d %s", w.line, w.text)] {
			t.Errorf("line %d %q not reported unmapped", w.line, w.text)
		}
	}
	if len(d.Unmapped) != len(want) {
		for _, l := range d.Unmapped {
			t.Logf("unmapped %d %q: %s", l.Line, l.Text, l.Why)
		}
		t.Errorf("%d unmapped lines, want %d", len(d.Unmapped), len(want))
	}
	if len(d.Twice) != 1 || d.Twice[0].Line != 62 {
		t.Errorf("twice = %+v, want Ethernet1/1 at line 62", d.Twice)
	}
	if len(d.Ports) != 2 {
		t.Fatalf("ports %d, want Ethernet1/1 and Ethernet1/2", len(d.Ports))
	}
	p := d.Ports[0]
	if p.MTU != 9000 || p.Speed != 100_000_000_000 || p.IP != "10.0.0.1/31" || !p.Routed {
		t.Errorf("Ethernet1/1 = %+v", p)
	}
	if want := "spine-1 $(reboot) ${var} \x1b[31mred\x1b[0m"; p.Description != want {
		t.Errorf("description %q, want it as the device has it: %q", p.Description, want)
	}
	q := p.QoS
	if q == nil || q.Trust != "dscp" || !slices.Equal(q.PFC, []int{3}) || q.Watchdog == nil || q.Watchdog.DetectionMS != 50 {
		t.Fatalf("Ethernet1/1 QoS = %+v", q)
	}
	if q3 := q.Queues[3]; q3 == nil || q3.ECN == nil || q3.ECN.MinBytes != 150*1024 || q3.ECN.Probability != 20 || *q3.Weight != 60 {
		t.Errorf("tx-queue 3 = %+v", q3)
	}
	if q.DSCP[26] != 3 || q.DSCP[46] != 6 || len(q.DSCP) != 3 {
		t.Errorf("DSCP map %v, want the three mapped code points", q.DSCP)
	}
	if q2 := d.Ports[1].QoS; q2 == nil || q2.Trust != "dscp" || len(q2.Src) == 0 || q2.Src[len(q2.Src)-1].From != 14 {
		t.Errorf("Ethernet1/2 QoS %+v, want the trust of the qos profile it applies (line 14)", q2)
	}
	if d.ClassNames[3] != "ROCEV2" {
		t.Errorf("class names %v, want 3: ROCEV2", d.ClassNames)
	}
	if len(d.ACLs) != 1 || d.ACLs[0].Name != "MATCH-ROCE" {
		t.Errorf("ACLs %+v", d.ACLs)
	}
}

// TestImportJSONLines reads a hand-written `| json` configuration (the
// envelope of aristanetworks/anta's VerifyRunningConfig fixtures) and
// reports an unmapped line at the line of its key.
func TestImportJSONLines(t *testing.T) {
	text := `{
  "cmds": {
    "hostname spine-2": null,
    "qos rewrite dscp": null,
    "interface Ethernet1": {
      "comments": [],
      "cmds": {
        "description to \u001b]0;x\u0007 leaf",
        "no switchport": null,
        "shape rate 1000000 kbps": null,
        "tx-queue 3": {"cmds": {"priority strict": null, "shape rate 10000000 kbps": null}}
      }
    }
  }
}`
	text = strings.Replace(text, `"description to \u001b]0;x\u0007 leaf",`, `"description to \u001b]0;x\u0007 leaf": null,`, 1)
	d, err := importEOS(context.Background(), "s.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "spine-2" || len(d.Ports) != 1 || d.Ports[0].Description != "to \x1b]0;x\a leaf" {
		t.Fatalf("device %+v", d)
	}
	var lines []string
	for _, l := range d.Unmapped {
		lines = append(lines, fmt.Sprintf("%d %s", l.Line, l.Text))
	}
	if want := []string{"4 qos rewrite dscp", "10 shape rate 1000000 kbps"}; !slices.Equal(lines, want) {
		t.Errorf("unmapped %q, want %q", lines, want)
	}
	q := d.Ports[0].QoS.Queues[3]
	if q.Sched != "strict" || q.ShaperBps != 10_000_000_000 {
		t.Errorf("tx-queue 3 = %+v", q)
	}
}

// TestImportHostile feeds inputs that must give a clean *importer.Error at
// a line, or a clean import, within a bounded time.
func TestImportHostile(t *testing.T) {
	deep := strings.Repeat(`{"cmds": {"x": `, 10000) + "null" + strings.Repeat("}}", 10000)
	deepComments := `{"cmds": {"interface Ethernet1": {"comments": ` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}}}`
	longDesc := "interface Ethernet1\n   description " + strings.Repeat("x", 2<<20) + "\n   mtu 9000\n"
	big := bigConfig(50 << 20)
	bigJSON := eapiJSON(t, string(bigConfig(10<<20)))
	for _, c := range []struct {
		name string
		data []byte
		line int    // the error's line; -1: a clean import
		msg  string // in the error
		port string // with a clean import: a port it has
	}{
		{"binary", []byte("hostname a\n\x7fELF\x00\x01\x02"), 2, "binary", ""},
		{"over the file limit", bytes.Repeat([]byte(" "), importer.MaxFileBytes+1), 0, "limit", ""},
		{"a 2 MB line", []byte(longDesc), -1, "", "Ethernet1"},
		{"a line over the limit", []byte("hostname a\n" + strings.Repeat("y", importer.MaxLineBytes+1)), 2, "limit", ""},
		{"a 50 MB config", big, -1, "", "Ethernet1/1"},
		{"a large JSON config", bigJSON, -1, "", "Ethernet1/1"},
		{"unterminated JSON", []byte("{\"cmds\": {\n\"interface Ethernet1\": {\"cmds\": {\n"), 3, "ends early", ""},
		{"JSON nested 10,000 deep", []byte(deep), 1, "deeper than", ""},
		{"JSON arrays nested 10,000 deep", []byte(deepComments), 1, "deeper than", ""},
		{"not JSON", []byte("{ hostname a\n"), 1, "not valid JSON", ""},
		{"two documents", []byte("{\"cmds\": {}}\n{\"cmds\": {}}"), 2, "after the JSON", ""},
		{"cmds not an object", []byte(`{"cmds": [1, 2]}`), 1, "must be an object", ""},
		{"a stanza value not an object", []byte(`{"cmds": {"interface Ethernet1": 7}}`), 1, "null or an object", ""},
		{"unterminated braces in text", []byte("interface Ethernet1\n   description {{{\ninterface Ethernet2 {\n"), -1, "", "Ethernet1"},
		{"shell and template syntax", []byte("interface Ethernet1\n   description $(rm -rf /) ${jndi} %{x}\n"), -1, "", "Ethernet1"},
		{"a byte-order mark before JSON", []byte("\ufeff{\"cmds\": {\"interface Ethernet1\": null}}"), -1, "", "Ethernet1"},
		{"CRLF lines", []byte("hostname a\r\ninterface Ethernet1\r\n   mtu 9000\r\n"), -1, "", "Ethernet1"},
		{"empty", nil, -1, "", ""},
		{"deep indentation", []byte("interface Ethernet1\n" + indentStair(3000)), -1, "", "Ethernet1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			d, err := importEOS(context.Background(), "h.cfg", c.data)
			// Generous: the bound catches a hang or a quadratic walk, not a
			// slow shared machine.
			if el := time.Since(start); el > 2*time.Minute {
				t.Errorf("took %v", el)
			}
			if c.line < 0 {
				if err != nil {
					t.Fatalf("want a clean import, got %v", err)
				}
				if c.port != "" && (len(d.Ports) == 0 || d.Ports[0].Name != c.port) {
					t.Errorf("ports %d, want %s first", len(d.Ports), c.port)
				}
				return
			}
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("want an *importer.Error, got %T %v", err, err)
			}
			if ie.File != "h.cfg" || ie.Line != c.line || !strings.Contains(ie.Msg, c.msg) {
				t.Errorf("error %q (line %d), want line %d with %q", err, ie.Line, c.line, c.msg)
			}
		})
	}
}

// bigConfig is a running-config of at least n bytes: interface stanzas
// with the QoS fabricgen renders.
func bigConfig(n int) []byte {
	var b bytes.Buffer
	b.WriteString("hostname big\nqos map dscp 26 to traffic-class 3\n!\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "interface Ethernet%d/%d\n   description port %d\n   mtu 9214\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   !\n   tx-queue 3\n      no priority\n      bandwidth percent 50\n      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100\n!\n", i/64+1, i%64+1, i)
	}
	return b.Bytes()
}

// indentStair is n lines, each indented one space deeper.
func indentStair(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i+1))
		b.WriteString("x\n")
	}
	return b.String()
}

// TestImportCancelled stops at a cancelled context.
func TestImportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := importEOS(ctx, "c.cfg", []byte("hostname a\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

// FuzzImport: no input panics or hangs, and every error is an *importer.Error
// (or the context's).
func FuzzImport(f *testing.F) {
	for _, b := range goldenSeeds(f) {
		f.Add(b)
	}
	f.Add([]byte(brownfieldEOS))
	f.Add([]byte(`{"cmds": {"interface Ethernet1": {"cmds": {"tx-queue 3": {"cmds": {"priority strict": null}}}}}}`))
	f.Add([]byte("ip access-list a\n   10 permit udp host 10.0.0.1 range 1 9 any eq 4791 4792 dscp af31\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := importEOS(context.Background(), "f.cfg", data)
		if err != nil {
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v is not an *importer.Error", err, err)
			}
			return
		}
		if d == nil {
			t.Fatal("nil device without an error")
		}
	})
}

// goldenSeeds reads the golden renders for the fuzz seeds.
func goldenSeeds(f *testing.F) [][]byte {
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	entries, err := os.ReadDir(fx.GoldenDir())
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fx.GoldenDir(), e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestImportSnippets reads small configurations, each proving one rule of
// the reverse view: what is mapped, what is reported at which line.
func TestImportSnippets(t *testing.T) {
	for _, c := range []struct {
		name, text string
		unmapped   []int // the reported lines, in order
		check      func(d *importer.Device) string
	}{
		{
			name:     "a qos profile is read as the port's own lines and beats them",
			text:     "qos profile P\n   qos trust cos\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   !\n   uc-tx-queue 3\n      random-detect ecn minimum-threshold 2000 segments maximum-threshold 10000 segments\n      random-detect ecn count\n!\ninterface Ethernet1\n   qos trust dscp\n   service-profile P\ninterface Ethernet2\n   service-profile P\n",
			unmapped: []int{6, 7, 8},
			check: func(d *importer.Device) string {
				for _, p := range d.Ports {
					if p.QoS == nil || p.QoS.Trust != "pcp" || !slices.Equal(p.QoS.PFC, []int{3}) {
						return fmt.Sprintf("%s QoS %+v, want the profile's trust cos and PFC 3", p.Name, p.QoS)
					}
				}
				return ""
			},
		},
		{
			name:     "a qos profile no port applies is reported whole",
			text:     "qos profile UNUSED\n   qos trust dscp\n   !\n   tx-queue 1\n      priority strict\n",
			unmapped: []int{1, 2, 4, 5},
		},
		{
			name: "defaults spelled out by show running-config all are not reported",
			text: "interface Ethernet1\n   qos cos 0\n   qos dscp 0\n   no shape rate\n   service-policy type pdp input default-pdp-policy\n   no priority-flow-control\n   no priority-flow-control priority 3\n   !\n   tx-queue 0\n      no bandwidth guaranteed\n      no random-detect ecn\n      no shape rate\n",
			check: func(d *importer.Device) string {
				if q := d.Ports[0].QoS; q == nil || !q.PFCSet || len(q.PFC) != 0 {
					return fmt.Sprintf("QoS %+v, want PFC explicitly off", q)
				}
				return ""
			},
		},
		{
			name:     "a binding of an undefined list is reported and dropped",
			text:     "ip access-list A\n   10 permit ip any any\ninterface Ethernet1\n   ip access-group A in\n   ipv6 access-group B out\n",
			unmapped: []int{5},
			check: func(d *importer.Device) string {
				p := d.Ports[0]
				if !slices.Equal(p.ACLIn, []string{"A"}) || len(p.ACLOut) != 0 {
					return fmt.Sprintf("bindings in %v out %v, want A and none", p.ACLIn, p.ACLOut)
				}
				return ""
			},
		},
		{
			name:     "two lists in one direction: the ipv6 one is reported",
			text:     "ip access-list A\n   10 permit ip any any\nipv6 access-list B\n   10 permit ipv6 any any\ninterface Ethernet1\n   ip access-group A in\n   ipv6 access-group B in\n",
			unmapped: []int{7},
		},
		{
			name: "an ip and an ipv6 list of one name are one ACL; a prefix-free rule in both is of family any",
			text: "ip access-list A\n   10 permit udp any any eq 4791\n   20 deny ip 10.0.0.0/8 any\nipv6 access-list A\n   10 permit udp any any eq 4791\n   30 deny ipv6 host 2001:db8::1 any\ninterface Ethernet1\n   ip access-group A in\n   ipv6 access-group A in\n",
			check: func(d *importer.Device) string {
				if len(d.ACLs) != 1 || len(d.ACLs[0].Rules) != 3 {
					return fmt.Sprintf("ACLs %+v, want one with 3 rules", d.ACLs)
				}
				var got []string
				for _, r := range d.ACLs[0].Rules {
					got = append(got, fmt.Sprintf("%d %s %s%s", r.Seq, r.Family, r.SrcPrefix, r.Protocol))
				}
				if want := []string{"10 any udp", "20 ipv4 10.0.0.0/8ip", "30 ipv6 2001:db8::1/128ip"}; !slices.Equal(got, want) {
					return fmt.Sprintf("rules %q, want %q", got, want)
				}
				if !slices.Equal(d.Ports[0].ACLIn, []string{"A"}) {
					return fmt.Sprintf("acl_in %v", d.Ports[0].ACLIn)
				}
				return ""
			},
		},
		{
			name: "entries without numbers are numbered 10 after the last, as EOS does",
			text: "ip access-list A\n   remark no numbers\n   permit udp any any eq 4791\n   deny ip any any\n   35 permit tcp any any\n   permit icmp any any\n",
			check: func(d *importer.Device) string {
				var seqs []int
				for _, r := range d.ACLs[0].Rules {
					seqs = append(seqs, r.Seq)
				}
				if !slices.Equal(seqs, []int{10, 20, 35, 45}) {
					return fmt.Sprintf("seqs %v, want 10 20 35 45", seqs)
				}
				return ""
			},
		},
		{
			name:     "ports disagreeing on trust: the most common wins, the others are reported",
			text:     "interface Ethernet1\n   qos trust dscp\ninterface Ethernet2\n   qos trust dscp\ninterface Ethernet3\n   qos trust cos\ninterface Ethernet4\n   mtu 9000\n",
			unmapped: []int{6, 7},
			check: func(d *importer.Device) string {
				for _, p := range d.Ports {
					if p.QoS == nil || p.QoS.Trust != "dscp" {
						return fmt.Sprintf("%s QoS %+v, want trust dscp", p.Name, p.QoS)
					}
				}
				return ""
			},
		},
		{
			name:     "lossless ports disagreeing on the watchdog: the most common wins",
			text:     "priority-flow-control pause watchdog default timeout 0.2\ninterface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\ninterface Ethernet2\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\ninterface Ethernet3\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n",
			unmapped: []int{10},
			check: func(d *importer.Device) string {
				for _, p := range d.Ports {
					if w := p.QoS.Watchdog; w == nil || w.DetectionMS != 200 || p.QoS.WatchdogOff {
						return fmt.Sprintf("%s watchdog %+v, want the 200 ms one", p.Name, w)
					}
				}
				return ""
			},
		},
		{
			name:     "values the EOS render cannot write are reported, not imported",
			text:     "priority-flow-control pause watchdog default timeout 0.005\nip access-list A\n   10 permit ospf any any\n   20 permit udp any any eq 4791 4792\ninterface Ethernet1\n   speed 2.5g\n   mtu 9216\n   ip access-group A in\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 300000 kbytes maximum-threshold 400000 kbytes\n",
			unmapped: []int{1, 3, 4, 6, 7, 11},
			check: func(d *importer.Device) string {
				p := d.Ports[0]
				if p.Speed != 0 || p.MTU != 0 || p.QoS != nil && p.QoS.Queues[3].ECN != nil {
					return fmt.Sprintf("port %+v kept a value the render refuses", p)
				}
				if r := d.ACLs[0].Rules; len(r) != 1 || len(r[0].DstPorts) != 1 {
					return fmt.Sprintf("rules %+v, want rule 20 with its first port only", r)
				}
				return ""
			},
		},
		{
			name:     "drop precedence is reported, the traffic class kept",
			text:     "qos map dscp 26 to traffic-class 3 drop-precedence 2\n",
			unmapped: []int{1}, // two reasons: the drop precedence, the partial map
			check: func(d *importer.Device) string {
				if d.Default == nil || d.Default.DSCP[26] != 3 {
					return fmt.Sprintf("default %+v, want DSCP 26 in class 3", d.Default)
				}
				if why := d.Unmapped[0].Why; !strings.Contains(why, "drop-precedence") || !strings.Contains(why, "some code points only") {
					return "reason " + why + ", want both the drop precedence and the partial map"
				}
				return ""
			},
		},
		{
			name: "a fabricgen-shaped re-marking policy whose traffic class is not the map's is reported",
			text: "qos map dscp 26 to traffic-class 3\nip access-list R\n   10 permit udp any any eq 4791\nip access-list R-10\n   10 permit udp any any eq 4791\nclass-map type qos match-any R-10\n   match ip access-group R-10\npolicy-map type quality-of-service PM-R\n   class R-10\n      set dscp 26\n      set traffic-class 5\ninterface Ethernet1\n   ip access-group R in\n   service-policy type qos input PM-R\n",
			// the partial map (1) and the class (11)
			unmapped: []int{1, 11},
			check: func(d *importer.Device) string {
				if len(d.ACLs) != 1 || d.ACLs[0].Rules[0].SetDSCP == nil || *d.ACLs[0].Rules[0].SetDSCP != 26 {
					return fmt.Sprintf("ACLs %+v, want R with set_dscp 26 and no R-10", d.ACLs)
				}
				return ""
			},
		},
		{
			name:     "watchdog timers no PFC port enables are reported",
			text:     "priority-flow-control pause watchdog default timeout 0.2\ninterface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n",
			unmapped: []int{1},
			check: func(d *importer.Device) string {
				if q := d.Ports[0].QoS; q == nil || !q.WatchdogOff {
					return fmt.Sprintf("QoS %+v, want the watchdog explicitly off", q)
				}
				return ""
			},
		},
		{
			name: "a banner's lines are not configuration",
			text: "banner motd\ninterface Ethernet9\n   qos rewrite dscp\nEOF\ninterface Ethernet1\n   mtu 9000\n",
			check: func(d *importer.Device) string {
				if len(d.Ports) != 1 || d.Ports[0].Name != "Ethernet1" {
					return fmt.Sprintf("ports %+v, want Ethernet1 only", d.Ports)
				}
				return ""
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := importEOS(context.Background(), "s.cfg", []byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, l := range d.Unmapped {
				lines = append(lines, l.Line)
			}
			if !slices.Equal(lines, c.unmapped) {
				for _, l := range d.Unmapped {
					t.Logf("unmapped %d %q: %s", l.Line, l.Text, l.Why)
				}
				t.Errorf("unmapped lines %v, want %v", lines, c.unmapped)
			}
			if c.check != nil {
				if msg := c.check(d); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

// digestLine is the one header line a round trip may change.
var digestLine = regexp.MustCompile(`(?m)^(.*intent digest )[0-9a-f]{64}`)

// TestImportJSONRoundTrip: the `| json` form of each golden render, imported
// and written as intent, renders the golden again line for line (the
// text form's round trip is internal/brownfield's TestRoundTrip).
func TestImportJSONRoundTrip(t *testing.T) {
	_, devs, texts := fixtureGoldens(t)
	var srcs []brownfield.Source
	for _, d := range devs {
		srcs = append(srcs, brownfield.Source{Name: d.Name + ".json", Data: eapiJSON(t, string(texts[d.Name]))})
	}
	in, _, err := brownfield.Import(context.Background(), srcs, brownfield.Options{Platform: aristaeos.Platform().Name})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := brownfield.WriteDir(dir, in); err != nil {
		t.Fatal(err)
	}
	g, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("the imported intent does not load: %v", diags)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range g.Devices {
		want, ok := texts[d.Name]
		if !ok {
			continue
		}
		seen++
		out, err := r.Render(g, d)
		if err != nil {
			t.Errorf("%s: the imported intent does not render: %v", d.Name, err)
			continue
		}
		got := digestLine.ReplaceAllString(string(out.Text), "${1}X")
		exp := digestLine.ReplaceAllString(string(want), "${1}X")
		if got != exp {
			t.Errorf("%s: render(import(json(render))) differs:\n%s", d.Name, textdiff.Unified("golden", "round trip", exp, got).Text)
		}
	}
	if seen != len(devs) {
		t.Errorf("%d of %d devices came back", seen, len(devs))
	}
}

// TestImportWritesRenderableIntent: configurations with what the EOS
// render cannot take back (ports disagreeing on trust and on the watchdog,
// speeds, MTUs, curves and ACL entries it cannot write, qos profiles)
// import into intent that loads and renders.
func TestImportWritesRenderableIntent(t *testing.T) {
	mixed := "hostname mixed\nqos map dscp 26 to traffic-class 3\npriority-flow-control pause watchdog default timeout 0.2\n" +
		"ip access-list A\n   10 permit gre any any\n   20 permit udp any any eq 4791 4792\n   30 permit tcp any any established\n" +
		"qos profile P\n   qos trust cos\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n" +
		"interface Ethernet1\n   service-profile P\n   ip access-group A in\n   speed 2.5g\n" +
		"interface Ethernet2\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   mtu 9216\n" +
		"interface Ethernet3\n   no qos trust\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 300000 kbytes maximum-threshold 400000 kbytes\n" +
		"interface Ethernet4\n   description plain\n"
	for _, c := range []struct{ name, text string }{
		{"leaf-7.cfg", brownfieldEOS},
		{"mixed.cfg", mixed},
		{"no-maps.cfg", "interface Ethernet1\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100\n   qos rewrite dscp\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, devs, err := brownfield.Import(context.Background(), []brownfield.Source{{Name: c.name, Data: []byte(c.text)}}, brownfield.Options{Platform: aristaeos.Platform().Name})
			if err != nil {
				t.Fatal(err)
			}
			if len(devs) != 1 || len(devs[0].Unmapped) == 0 {
				t.Fatalf("devices %d, want one with unmapped lines", len(devs))
			}
			dir := t.TempDir()
			if err := brownfield.WriteDir(dir, in); err != nil {
				t.Fatal(err)
			}
			g, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("the imported intent does not load: %v", diags)
			}
			r, err := templates.NewRenderer(templates.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range g.Devices {
				if _, err := r.Render(g, d); err != nil {
					t.Errorf("%s: the imported intent does not render: %v", d.Name, err)
				}
			}
		})
	}
}
