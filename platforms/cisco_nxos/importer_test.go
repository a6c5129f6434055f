package cisconxos_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// nxImport imports text with the platform's importer.
func nxImport(t testing.TB, file string, text []byte) (*importer.Device, error) {
	t.Helper()
	return cisconxos.Platform().Import(context.Background(), file, text)
}

// effective is port p's effective imported QoS.
func effective(d *importer.Device, p *importer.Port) *importer.QoS {
	if p.QoS != nil {
		return p.QoS
	}
	return d.Default
}

// TestImportFixture imports the fixture's golden renders and compares the
// QoS facts, ports and ACLs with the resolved intent, fact by fact.
func TestImportFixture(t *testing.T) {
	fx := platformtest.Of("../..", cisconxos.Platform())
	fab, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, sd := range fx.Devices(fab) {
		path := fx.Golden(sd.Name)
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := nxImport(t, path, text)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(d.Unmapped) > 0 || len(d.Twice) > 0 {
			t.Errorf("%s: a render of fabricgen's own has unmapped lines %v, twice %v", sd.Name, d.Unmapped, d.Twice)
		}
		if d.Platform != "cisco_nxos" || d.Default == nil {
			t.Fatalf("%s: platform %q, default %v", sd.Name, d.Platform, d.Default)
		}
		if d.Name != sd.Name || d.Fabric != fab.Name {
			t.Errorf("device %q of fabric %q, want %q of %q (the render's header)", d.Name, d.Fabric, sd.Name, fab.Name)
		}
		got := map[string]*importer.Port{}
		for _, p := range d.Ports {
			got[p.Name] = p
		}
		if len(d.Ports) != len(sd.Ports) {
			t.Errorf("%s: %d ports imported, the intent has %d", sd.Name, len(d.Ports), len(sd.Ports))
		}
		for _, sp := range sd.Ports {
			ip := got[sp.Name]
			if ip == nil {
				t.Errorf("%s: port %s not imported", sd.Name, sp.Name)
				continue
			}
			checkPort(t, sd.Name+" "+sp.Name, sp, ip, effective(d, ip))
		}
		checkACLs(t, sd, d)
		for p, c := range fab.Classes {
			if n := d.ClassNames[c.Priority.V]; n != c.Name {
				t.Errorf("%s: class %d: priority %d named %q, want %q", sd.Name, p, c.Priority.V, n, c.Name)
			}
		}
	}
}

// checkPort compares one port's facts.
func checkPort(t *testing.T, where string, sp *schema.Port, ip *importer.Port, q *importer.QoS) {
	t.Helper()
	sq := sp.QoS
	mtu := ip.MTU
	if mtu == 0 {
		mtu = q.MTU
	}
	want := func(v bool) string { return fmt.Sprint(v) }
	used := map[int]bool{}
	for p := range 8 {
		for v := range 64 {
			if sq.DSCP[v].V == p {
				used[sq.Queue[p].V] = true
			}
		}
	}
	for _, c := range []struct {
		fact      string
		got, want string
	}{
		{"description", ip.Description, sp.Description},
		{"ip", ip.IP, map[bool]string{true: sp.IP.V.String(), false: ""}[sp.IP.Set]},
		{"routed", want(ip.Routed), want(sp.IsRouted())},
		{"speed", fmt.Sprint(ip.Speed), fmt.Sprint(sp.Speed.V)},
		{"fec", ip.FEC, nxFEC(sp)},
		{"mtu", fmt.Sprint(mtu), fmt.Sprint(sq.MTU.V)},
		{"trust", q.Trust, string(sq.Trust.V)},
		{"dscp → queue", fmt.Sprint(toQueue(mapOf(q.DSCP, 64), queueMap(q, sq))), fmt.Sprint(toQueue(trusted(sq, schema.TrustDSCP, sq.DSCP[:]), valuesOf(sq.Queue[:])))},
		{"pcp → queue", fmt.Sprint(toQueue(mapOf(q.PCP, 8), queueMap(q, sq))), fmt.Sprint(toQueue(trusted(sq, schema.TrustPCP, sq.PCP[:]), valuesOf(sq.Queue[:])))},
		{"queue map", fmt.Sprint(queueMap(q, sq)), fmt.Sprint(valuesOf(sq.Queue[:]))},
		{"pfc", fmt.Sprint(q.PFC), fmt.Sprint(sq.Lossless.List())},
		{"queues", queuesOf(q, used), schemaQueues(sq, used)},
		{"watchdog", watchdogOf(q), schemaWatchdog(sq)},
		{"link pause", fmt.Sprint(q.LinkPause != nil && *q.LinkPause), fmt.Sprint(sq.LinkPause.V)},
		{"acl in", fmt.Sprint(ip.ACLIn), fmt.Sprint(aclNames(sp.ACLIn))},
		{"acl out", fmt.Sprint(ip.ACLOut), fmt.Sprint(aclNames(sp.ACLOut))},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s %s, want %s", where, c.fact, c.got, c.want)
		}
	}
	if ip.Src.From == 0 || ip.Src.To < ip.Src.From {
		t.Errorf("%s: span %+v", where, ip.Src)
	}
}

// nxFEC is the fec a render says of port sp: none on a 200G or faster
// port whose fec is rs (RS-FEC(544,514) is its default: no line).
func nxFEC(sp *schema.Port) string {
	if sp.FEC.V == "rs" && sp.Speed.V >= 200_000_000_000 {
		return ""
	}
	return sp.FEC.V
}

// toQueue maps code points through their priorities to queues (-1 stays):
// NX-OS classifies into qos-groups, the queues, and a priority shows in
// the render only where PFC pauses it (the pfc fact compares those).
func toQueue(prio, queue []int) []int {
	out := make([]int, len(prio))
	for i, p := range prio {
		out[i] = -1
		if p >= 0 {
			out[i] = queue[p]
		}
	}
	return out
}

// trusted is the map vs of the port's trust field, or -1s when the port
// does not trust that field (the render has no classes for it).
func trusted(sq *schema.PortQoS, field schema.Trust, vs []schema.Value[int]) []int {
	if sq.Trust.V == field || sq.Trust.V == schema.TrustBoth || field == schema.TrustDSCP && sq.Trust.V == "" {
		return valuesOf(vs)
	}
	return mapOf(nil, len(vs))
}

func mapOf(m map[int]int, n int) []int {
	out := make([]int, n)
	for i := range n {
		out[i] = -1
		if v, ok := m[i]; ok {
			out[i] = v
		}
	}
	return out
}

func valuesOf(vs []schema.Value[int]) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = v.V
	}
	return out
}

// queueMap is the imported priority→queue map, with the intent's value
// where the configuration says nothing (a priority no class uses).
func queueMap(q *importer.QoS, sq *schema.PortQoS) []int {
	out := valuesOf(sq.Queue[:])
	for p := range 8 {
		if v, ok := q.Queue[p]; ok {
			out[p] = v
		}
	}
	return out
}

// queuesOf prints the used queues' treatment: scheduler, weight, shaper
// and the ECN curve in NX-OS kbytes.
func queuesOf(q *importer.QoS, used map[int]bool) string {
	var b strings.Builder
	for id := range 8 {
		if !used[id] {
			continue
		}
		qu := q.Queues[id]
		if qu == nil {
			qu = &importer.Queue{}
		}
		w := 0
		if qu.Weight != nil {
			w = *qu.Weight
		}
		fmt.Fprintf(&b, "q%d %s w%d s%d", id, strictOr(qu.Sched == "strict"), w, qu.ShaperBps)
		if e := qu.ECN; e != nil {
			fmt.Fprintf(&b, " ecn %d-%dK p%d mark %v", e.MinBytes/1024, e.MaxBytes/1024, e.Probability, e.Mark)
		}
		b.WriteString("; ")
	}
	return b.String()
}

func schemaQueues(sq *schema.PortQoS, used map[int]bool) string {
	var b strings.Builder
	for id := range 8 {
		if !used[id] {
			continue
		}
		qu := sq.Queues[id]
		w := qu.Weight.V
		if qu.Sched.V == schema.SchedStrict {
			w = 0
		}
		fmt.Fprintf(&b, "q%d %s w%d s%d", id, strictOr(qu.Sched.V == schema.SchedStrict), w, qu.Shaper.V)
		if e := qu.ECN.V; e != nil {
			fmt.Fprintf(&b, " ecn %d-%dK p%d mark %v", e.Min.V/1024, e.Max.V/1024, e.Probability.V, e.Mark.V)
		}
		b.WriteString("; ")
	}
	return b.String()
}

func strictOr(s bool) string {
	if s {
		return "strict"
	}
	return "dwrr"
}

func watchdogOf(q *importer.QoS) string {
	if q.Watchdog == nil {
		return "off"
	}
	w := q.Watchdog
	return fmt.Sprintf("%s detect %d restore %d poll %d", w.Name, w.DetectionMS, w.RestorationMS, w.PollMS)
}

func schemaWatchdog(sq *schema.PortQoS) string {
	w := sq.Watchdog.V
	if w == nil || sq.Lossless.Len() == 0 {
		return "off"
	}
	return fmt.Sprintf("%s detect %d restore %d poll %d", w.Name, w.Detection.V/time.Millisecond, w.Restoration.V/time.Millisecond, w.PollInterval.V/time.Millisecond)
}

func aclNames(as []*schema.ACL) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

// checkACLs compares the imported access lists with the intent's ACLs the
// device binds, rule by rule.
func checkACLs(t *testing.T, sd *schema.Device, d *importer.Device) {
	t.Helper()
	want := map[string]*schema.ACL{}
	for _, p := range sd.Ports {
		for _, a := range slices.Concat(p.ACLIn, p.ACLOut) {
			want[a.Name] = a
		}
	}
	if len(d.ACLs) != len(want) {
		t.Errorf("%s: %d ACLs imported, the device binds %d", sd.Name, len(d.ACLs), len(want))
	}
	for _, a := range d.ACLs {
		sa := want[a.Name]
		if sa == nil {
			t.Errorf("%s: acl %s imported, not bound in the intent", sd.Name, a.Name)
			continue
		}
		var got, exp []string
		for _, r := range a.Rules {
			set := -1
			if r.SetDSCP != nil {
				set = *r.SetDSCP
			}
			got = append(got, fmt.Sprint(r.Seq, r.Action, r.Protocol, r.SrcPrefix, r.DstPrefix, r.SrcPorts, r.DstPorts, r.DSCP, set))
		}
		for _, r := range sa.Rules {
			var sp, dp [][2]int
			for _, x := range r.SrcPorts.V {
				sp = append(sp, [2]int{x.From, x.To})
			}
			for _, x := range r.DstPorts.V {
				dp = append(dp, [2]int{x.From, x.To})
			}
			pfx := func(v schema.Value[netip.Prefix]) string {
				if !v.Set {
					return ""
				}
				return v.V.String()
			}
			set := -1
			if r.SetDSCP.Set {
				set = r.SetDSCP.V
			}
			var dscp []int
			if len(r.DSCP.V) > 0 {
				dscp = r.DSCP.V
			}
			exp = append(exp, fmt.Sprint(r.Seq, r.Action.V, r.Protocol.V, pfx(r.SrcPrefix), pfx(r.DstPrefix), sp, dp, dscp, set))
		}
		if strings.Join(got, "\n") != strings.Join(exp, "\n") {
			t.Errorf("%s: acl %s rules\n%s\nwant\n%s", sd.Name, a.Name, strings.Join(got, "\n"), strings.Join(exp, "\n"))
		}
	}
}

// nxBrownfield is a hand-written NX-OS running configuration in the
// vendor's syntax (the Nexus 9000 QoS guide's RoCE example, grown with
// things fabricgen does not render). Line numbers matter: the test names
// them.
const nxBrownfield = `!Command: show running-config
!Running configuration last done at: Mon Nov 30 10:00:00 2026
!Time: Mon Nov 30 10:05:00 2026

version 9.3(8) Bios:version 05.45
hostname leaf-07
feature lldp
hardware access-list tcam region ing-racl 1536
hardware qos ns-buffer-profile mesh

class-map type qos match-all RoCE
  match dscp 24,26
class-map type qos match-all CNP
  match dscp 48
class-map type qos match-any VOICE
  match precedence 5
policy-map type qos QOS_CLASSIFICATION
  class RoCE
    set qos-group 3
  class CNP
    set qos-group 7
  class VOICE
    set qos-group 5
  class class-default
    set qos-group 0
    set cos 1
policy-map type queuing QOS_EGRESS_PORT
  class type queuing c-out-8q-q3
    bandwidth remaining percent 50
    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn
  class type queuing c-out-8q-q-default
    bandwidth remaining percent 50
  class type queuing c-out-8q-q7
    priority level 1
    shape min 0 kbps max 10000000 kbps
  class type queuing c-out-8q-q5
    bandwidth remaining percent 0
    queue-limit percent 10
policy-map type network-qos QOS_NETWORK
  class type network-qos c-8q-nq3
    pause pfc-cos 3
    mtu 9216
  class type network-qos c-8q-nq-default
    mtu 9216
system qos
  service-policy type network-qos QOS_NETWORK
  service-policy type queuing output QOS_EGRESS_PORT
priority-flow-control watch-dog-interval on
priority-flow-control auto-restore multiplier 10

interface Ethernet1/1
  description host-1 $(reboot) ${x}
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  mtu 9216
  service-policy type qos input QOS_CLASSIFICATION
  service-policy type queuing output QOS_EGRESS_PORT
  no shutdown

interface Ethernet1/2
  priority-flow-control mode on
  mtu 9216
  service-policy type qos input QOS_CLASSIFICATION

interface Ethernet1/1
  speed 100000

interface mgmt0
  vrf member management
  ip address 192.168.0.7/24

interface Ethernet1/3
  priority-flow-control mode off
  mtu 9216
`

// TestImportBrownfield: a real-syntax configuration imports its QoS, and
// every QoS line no intent expresses is reported at its line.
func TestImportBrownfield(t *testing.T) {
	d, err := nxImport(t, "leaf-07.cfg", []byte(nxBrownfield))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(nxBrownfield, "\n")
	var unmapped []string
	for _, l := range d.Unmapped {
		if l.File != "leaf-07.cfg" || l.Line < 1 || l.Line > len(lines) {
			t.Errorf("unmapped %+v: not a line of the file", l)
			continue
		}
		unmapped = append(unmapped, strings.TrimSpace(lines[l.Line-1]))
		if !strings.Contains(lines[l.Line-1], strings.TrimSpace(l.Text)) && !strings.HasPrefix(l.Text, "class ") {
			t.Errorf("unmapped line %d text %q is not the file's %q", l.Line, l.Text, lines[l.Line-1])
		}
		if l.Why == "" {
			t.Errorf("unmapped line %d has no why", l.Line)
		}
	}
	wantUnmapped := []string{
		"hardware access-list tcam region ing-racl 1536",
		"hardware qos ns-buffer-profile mesh",
		"match precedence 5",
		"set cos 1",
		"queue-limit percent 10",
		"priority-flow-control auto-restore multiplier 10",
		"service-policy type queuing output QOS_EGRESS_PORT",
		"interface Ethernet1/2",
		"interface Ethernet1/3",
	}
	if strings.Join(unmapped, "\n") != strings.Join(wantUnmapped, "\n") {
		t.Errorf("unmapped lines\n%s\nwant\n%s", strings.Join(unmapped, "\n"), strings.Join(wantUnmapped, "\n"))
	}
	if len(d.Twice) != 1 || d.Twice[0].Line != 65 {
		t.Errorf("twice %+v, want interface Ethernet1/1 again at line 65", d.Twice)
	}
	q := d.Default
	for _, c := range []struct{ fact, got, want string }{
		{"name", d.Name, "leaf-07"},
		{"release", d.OSVersion, "9.3(8)"},
		{"ports", fmt.Sprint(len(d.Ports)), "3"},
		{"trust", q.Trust, "dscp"},
		{"dscp 26", fmt.Sprint(q.DSCP[26]), "3"},
		{"dscp 24", fmt.Sprint(q.DSCP[24]), "3"},
		{"dscp 48 (qos-group 7)", fmt.Sprint(q.DSCP[48]), "7"},
		{"dscp 0", fmt.Sprint(q.DSCP[0]), "0"},
		{"pfc", fmt.Sprint(q.PFC), "[3]"},
		{"queue 3", queuesOf(q, map[int]bool{3: true}), "q3 dwrr w50 s0 ecn 150-3000K p7 mark true; "},
		{"queue 7", queuesOf(q, map[int]bool{7: true}), "q7 strict w0 s10000000000; "},
		{"watchdog", fmt.Sprint(q.Watchdog != nil), "true"},
		{"mtu", fmt.Sprint(q.MTU), "9216"},
		{"description kept as data", d.Ports[0].Description, "host-1 $(reboot) ${x}"},
		{"twice: later stanza's speed", fmt.Sprint(d.Ports[0].Speed), "100000000000"},
		{"port 2 without its watchdog line: the switch's", fmt.Sprint(d.Ports[1].QoS), "<nil>"},
		{"port 3 lossy, with the switch's classification", fmt.Sprintf("%v %v %v %v", d.Ports[2].QoS.PFC, d.Ports[2].QoS.PFCSet, d.Ports[2].QoS.Trust, d.Ports[2].QoS.WatchdogOff), "[] true dscp true"},
		{"class names", fmt.Sprint(d.ClassNames), "map[3:RoCE 7:CNP]"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.fact, c.got, c.want)
		}
	}
}

// TestImportHostile: input that is no running-config gives an
// *importer.Error at the line, or a clean import; never a panic or hang.
func TestImportHostile(t *testing.T) {
	big := bytes.Repeat([]byte("interface Ethernet1/1\n  description "+strings.Repeat("x", 1000)+"\n"), 50<<10) // ~50 MB
	for _, c := range []struct {
		name string
		data []byte
		line int // the error's line; 0: a clean import
	}{
		{"binary", []byte("hostname a\n\x00\x01\x02\xff"), 2},
		{"invalid utf-8", []byte("hostname a\ninterface Ethernet1/1\n  description \xff\xfe\n"), 3},
		{"2 MB line", []byte("hostname a\n  description " + strings.Repeat("y", 2<<20) + "\n"), 0},
		{"line over the limit", []byte("hostname a\n" + strings.Repeat("y", importer.MaxLineBytes+1)), 2},
		{"json nested 10000 deep", []byte(strings.Repeat("[", 10000) + strings.Repeat("]", 10000)), 1},
		{"json object", []byte("\n\n  {\"cmds\": {}}"), 3},
		{"unterminated braces", []byte("policy-map type qos P {\n  class X {\n"), 0},
		{"indentation 10000 deep", func() []byte {
			var b bytes.Buffer
			for i := range 10000 {
				b.WriteString(strings.Repeat(" ", i) + "class-map type qos match-any X\n")
			}
			return b.Bytes()
		}(), 0},
		{"terminal escapes", []byte("interface Ethernet1/1\n  description \x1b[2J\x1b]0;pwned\x07 $(rm -rf /) ${var} %{x}\n"), 0},
		{"banner without its end", []byte("banner motd #\nunterminated\n"), 0},
		{"empty", nil, 0},
		{"50 MB config", big, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var d *importer.Device
			var err error
			go func() {
				defer close(done)
				d, err = nxImport(t, "x.cfg", c.data)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("import did not finish in 2 minutes")
			}
			if c.line == 0 {
				if err != nil || d == nil {
					t.Fatalf("want a clean import, got %v", err)
				}
				return
			}
			var ie *importer.Error
			if !errors.As(err, &ie) || ie.Line != c.line || ie.File != "x.cfg" {
				t.Fatalf("error %v, want an *importer.Error at x.cfg:%d", err, c.line)
			}
		})
	}
	// A description's control characters stay data in the model (the
	// writer and the report escape them).
	d, err := nxImport(t, "x.cfg", []byte("interface Ethernet1/1\n  description a\x1b[31mb\n"))
	if err != nil || d.Ports[0].Description != "a\x1b[31mb" {
		t.Errorf("description %q, %v", d.Ports[0].Description, err)
	}
}

// TestImportCancelled: a cancelled context stops the import.
func TestImportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cisconxos.Platform().Import(ctx, "x.cfg", []byte("hostname a\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func FuzzImport(f *testing.F) {
	for _, s := range []string{nxBrownfield, "hostname a\n", "interface Ethernet1/1\n  fec rs-fec\n  speed 400000\n",
		"ip access-list a\n  10 permit udp any any eq 4791 dscp af31\n", "policy-map type queuing Q\n  class type queuing c-out-8q-q3\n    random-detect minimum-threshold 1 mbytes maximum-threshold 2 mbytes drop-probability 5 weight 3\n"} {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/golden/nxos1.cfg"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := cisconxos.Platform().Import(context.Background(), "f.cfg", data)
		if err != nil {
			var ie *importer.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v is no *importer.Error", err, err)
			}
			return
		}
		if d == nil {
			t.Fatal("nil device without an error")
		}
	})
}

// TestImportAzureLocal imports Microsoft's Azure Local reference ToR QoS
// (testdata/import/SOURCE.md): CoS classification, the no-drop class,
// ECN and bandwidth per queue; "send-tlv" is the one line reported.
func TestImportAzureLocal(t *testing.T) {
	const path = "testdata/import/azurelocal-tor.cfg"
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := nxImport(t, path, text)
	if err != nil {
		t.Fatal(err)
	}
	var unmapped []string
	for _, l := range d.Unmapped {
		unmapped = append(unmapped, fmt.Sprintf("%d %s", l.Line, l.Text))
	}
	q := d.Default
	if q == nil || len(d.Ports) != 1 {
		t.Fatalf("default %v, %d ports", q, len(d.Ports))
	}
	p := d.Ports[0]
	for _, c := range []struct{ fact, got, want string }{
		{"unmapped", strings.Join(unmapped, "; "), "48 priority-flow-control mode on send-tlv"},
		{"trust", q.Trust, "pcp"},
		{"pcp map", fmt.Sprint(mapOf(q.PCP, 8)), "[0 0 0 3 0 0 0 7]"},
		{"dscp map", fmt.Sprint(q.DSCP), "map[]"},
		{"queue map", fmt.Sprint(q.Queue), "map[3:3 7:7]"},
		{"pfc", fmt.Sprint(q.PFC, q.PFCSet), "[3] true"},
		{"queues", queuesOf(q, map[int]bool{0: true, 3: true, 7: true}), "q0 dwrr w48 s0; q3 dwrr w50 s0 ecn 300-300K p100 mark true; q7 dwrr w1 s0; "},
		{"unused queues left to the default", fmt.Sprint(len(q.Queues)), "3"},
		{"mtu", fmt.Sprint(q.MTU, p.MTU), "9216 9216"},
		{"watchdog", fmt.Sprint(q.Watchdog, q.WatchdogOff), "<nil> false"},
		{"port", fmt.Sprint(p.Name, " ", p.Description, " routed ", p.Routed), "Ethernet1/17 Storage Intent routed false"},
		{"class names", fmt.Sprint(d.ClassNames), "map[3:RDMA 7:CLUSTER]"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.fact, c.got, c.want)
		}
	}
}

// TestImportPortLines: the port lines the intent holds one of, or none,
// are reported at their line; the first address is kept.
func TestImportPortLines(t *testing.T) {
	const text = "interface Ethernet1/1\n  no switchport\n  ip address 10.0.0.0/31\n  ip address 10.0.1.0/31 secondary\n  ipv6 address 2001:db8::/127\n  fec cl108\n  flowcontrol receive on\n"
	d, err := nxImport(t, "p.cfg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range d.Unmapped {
		got = append(got, fmt.Sprint(l.Line))
	}
	if strings.Join(got, " ") != "4 5 6 7" || d.Ports[0].IP != "10.0.0.0/31" {
		t.Errorf("unmapped at lines %v, ip %s; want lines 4 5 6 7, ip 10.0.0.0/31", got, d.Ports[0].IP)
	}
}

// nxVariantBase is an intent the variants of TestImportVariants complete:
// a lossless priority in another queue (priority 3 → queue 4), two
// priorities of the default class's queue, a shaped strict queue.
const nxVariantBase = `
fabric "v" {
  qos_policy = qos_policy.p
}
ecn_profile "e" {
  min_threshold   = "100KB"
  max_threshold   = "2MB"
  max_probability = 20
}
pfc_watchdog "w" {
  detection     = "100ms"
  restoration   = "300ms"
  action        = "drop"
}
traffic_class "be" {
  role      = "default"
  dscp      = [0]
  priority  = 0
  queue     = 0
  scheduler = "dwrr"
  weight    = 40
}
traffic_class "roce" {
  role      = "roce"
  dscp      = [24, 26]
  priority  = 3
  queue     = 4
  lossless  = true
  ecn       = ecn_profile.e
  scheduler = "dwrr"
  weight    = 60
}
traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  queue     = 6
  scheduler = "strict"
}
qos_policy "lossy" {
  pfc_priorities = []
  pfc_watchdog   = "off"
}
device "sw" {
  kind     = "leaf"
  platform = "cisco_nxos"
  %s
  port "Ethernet1/1" {
    speed = "100G"
    ip    = "10.0.0.0/31"
  }
  port "Ethernet1/2" {
    speed       = "400G"
    description = "d $(x) $${y}"
    mtu         = 4200
  }
  port "Ethernet1/3" {
    speed      = "25G"
    fec        = "fc"
    qos_policy = qos_policy.lossy
  }
}
qos_policy "p" {
  classes        = [traffic_class.be, traffic_class.roce, traffic_class.cnp]
  mtu            = 9216
  %s
  queue "6" {
    shaper = "10G"
  }
}
`

// TestImportVariants renders intents beyond the fixture (CoS trust, both,
// none, a release without the fixed-restore multiplier, 802.3x pause),
// imports each render and compares the facts with the intent, port by
// port, as TestImportFixture does.
func TestImportVariants(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, device, policy string
	}{
		{"dscp trust, 10.3(2)F", `os_version = "10.3(2)F"`, `trust = "dscp"
  pfc_watchdog = pfc_watchdog.w`},
		{"pcp trust", ``, `trust = "pcp"
  pfc_watchdog = pfc_watchdog.w
  pcp_map = { "1" = 3, "3" = 3, "6" = 6 }`},
		{"both, 9.3(2)", `os_version = "9.3(2)"`, `trust = "both"
  pfc_watchdog = pfc_watchdog.w`},
		{"none", ``, `trust = "none"`},
		{"802.3x pause, no PFC", ``, `trust = "dscp"
  pfc_priorities = []
  pfc_watchdog = "off"
  link_pause = true`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, diags := platformtest.LoadIntent(t, fmt.Sprintf(nxVariantBase, c.device, c.policy), platforms.Catalog()...)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			sd := f.Devices[0]
			out, err := r.Render(f, sd)
			if err != nil {
				t.Fatal(err)
			}
			d, err := nxImport(t, "sw.cfg", out.Text)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Unmapped) > 0 || len(d.Twice) > 0 {
				t.Errorf("unmapped %v, twice %v in\n%s", d.Unmapped, d.Twice, out.Text)
			}
			for i, sp := range sd.Ports {
				checkPort(t, sp.Name, sp, d.Ports[i], effective(d, d.Ports[i]))
			}
			if t.Failed() {
				t.Logf("render:\n%s", out.Text)
			}
		})
	}
}

// TestImportCorpus imports the public NX-OS configurations of the shared
// corpus (internal/importer/testdata/corpus/SOURCES.md: Microsoft's Azure
// Local ToR generator outputs, Batfish's NX-OS grammar tests), each whole:
// hostname (not the one inside the banner), port ranges as typed, CoS
// classification, the no-drop class, and a count of the lines reported.
func TestImportCorpus(t *testing.T) {
	for _, c := range []struct {
		file, name, trust, pfc string
		ports, unmapped, twice int
		classes                string
	}{
		{"azurestack-s46-r21-93180hl-24-1a.cfg", "s46-r21-93180hl-24-1a", "pcp", "[3]", 54, 62, 0, "map[3:RDMA 7:CLUSTER]"},
		// Its network-qos classes name class-maps the file does not
		// define: no lossless class can be read (3 lines reported).
		{"azurestack-switched-s46-r21-93180hl-24-1a.cfg", "s46-r21-93180hl-24-1a", "pcp", "[]", 54, 7, 40, "map[3:AZLOCAL-QOS-RDMA 7:AZLOCAL-QOS-CLUSTER]"},
		{"batfish-nxos_interface_show_all_2.cfg", "nxos_interface_show_all_2", "", "[]", 1, 0, 0, "map[]"},
		{"batfish-nxos_policy_map.cfg", "nxos_policy_map", "dscp", "[]", 0, 23, 0, "map[]"},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "internal", "importer", "testdata", "corpus", "cisco_nxos", c.file)
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := nxImport(t, c.file, text)
			if err != nil {
				t.Fatal(err)
			}
			trust, pfc := "", "[]"
			if d.Default != nil {
				trust, pfc = d.Default.Trust, fmt.Sprint(d.Default.PFC)
			}
			got := fmt.Sprintf("%s %s %s %d ports, %d unmapped, %d twice, %v", d.Name, trust, pfc, len(d.Ports), len(d.Unmapped), len(d.Twice), d.ClassNames)
			want := fmt.Sprintf("%s %s %s %d ports, %d unmapped, %d twice, %s", c.name, c.trust, c.pfc, c.ports, c.unmapped, c.twice, c.classes)
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
				for _, l := range d.Unmapped {
					t.Logf("unmapped %d: %s (%s)", l.Line, l.Text, l.Why)
				}
			}
			for _, l := range d.Unmapped {
				if l.File != c.file || l.Line < 1 || l.Why == "" {
					t.Errorf("unmapped %+v: no line or why", l)
				}
			}
		})
	}
}

// TestImportInterfaceNames: an interface line names ports as NX-OS prints
// them or as typed (a blank, any case, ranges of one module, lists); other
// interfaces are no ports.
func TestImportInterfaceNames(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"interface Ethernet1/1", "[Ethernet1/1]"},
		{"interface Ethernet1/49/2", "[Ethernet1/49/2]"},
		{"interface Ethernet 1/1-1/3", "[Ethernet1/1 Ethernet1/2 Ethernet1/3]"},
		{"interface ethernet1/5-6, Ethernet1/8", "[Ethernet1/5 Ethernet1/6 Ethernet1/8]"},
		{"interface Ethernet1/49/1-2", "[Ethernet1/49/1 Ethernet1/49/2]"},
		{"interface Ethernet1/1-2/3", "[]"},
		{"interface Ethernet1/3-1", "[]"},
		{"interface Ethernet1/1-100000", "[]"},
		{"interface port-channel10", "[]"},
		{"interface Vlan10", "[]"},
		{"interface Ethernet", "[]"},
		{"interface Ethernetx/1", "[]"},
	} {
		d, err := nxImport(t, "i.cfg", []byte(c.line+"\n  mtu 9216\n"))
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		var got []string
		for _, p := range d.Ports {
			got = append(got, p.Name)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%s: ports %v, want %s", c.line, got, c.want)
		}
	}
	// Ranges repeated without end are refused at the line that passes the bound.
	text := strings.Repeat("interface Ethernet1/1-500\n", 200)
	_, err := nxImport(t, "r.cfg", []byte(text))
	var ie *importer.Error
	if !errors.As(err, &ie) || ie.Line != 132 {
		t.Errorf("err %v, want an *importer.Error at r.cfg:132", err)
	}
}

// TestImportMatchAll: a match-all class of DSCP and CoS together is read
// as matching each and reported at its class-map line.
func TestImportMatchAll(t *testing.T) {
	const text = "class-map type qos match-all X\n  match dscp 26\n  match cos 3\npolicy-map type qos P\n  class X\n    set qos-group 3\ninterface Ethernet1/1\n  service-policy type qos input P\n"
	d, err := nxImport(t, "m.cfg", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Unmapped) != 1 || d.Unmapped[0].Line != 1 || d.Default.Trust != "both" {
		t.Errorf("unmapped %v, trust %s; want line 1 reported, trust both", d.Unmapped, d.Default.Trust)
	}
}
