package emulator

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms/opensm/osmconf"
	"github.com/fabricgen/fabricgen/schema"
)

// testEnv is an SM host's environment with a fixed clock.
func testEnv(running string) *cli.Env {
	return &cli.Env{
		Spec: cli.Spec{Name: "sm01", Platform: schema.Platform("opensm"), Username: "admin", RunningConfig: running},
		Now:  func() time.Time { return time.Date(2026, 12, 6, 15, 36, 11, 827412000, time.UTC) },
		AfterFunc: func(time.Duration, func()) func() {
			return func() {}
		},
	}
}

// host starts an emulator and a session on it.
func host(t testing.TB, running string) (*sm, cli.Session) {
	t.Helper()
	s, err := newSM(testEnv(running))
	if err != nil {
		t.Fatal(err)
	}
	return s, s.NewSession(&cli.Term{}, "admin")
}

// run runs one SSH command line and fails the test when its status is
// not want.
func run(t testing.TB, c cli.Session, line string, want int) string {
	t.Helper()
	r := c.Handle(line)
	if r.Status != want {
		t.Fatalf("%q: status %d, want %d; output:\n%s", line, r.Status, want, r.Out)
	}
	return r.Out
}

// quote is a shell single-quoted word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// golden reads the rendered ib-cluster files of platforms/opensm.
func golden(t testing.TB) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "testdata", "render")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	if len(out) == 0 {
		t.Fatalf("no rendered files in %s", dir)
	}
	return out
}

// push writes files into /etc/opensm the way the push transaction does:
// a mktemp directory, base64 chunks by printf, base64 -d, a size check,
// opensm -c on the staged opensm.conf, mv into place, the staging
// directory removed, and a SIGHUP.
func push(t *testing.T, c cli.Session, files map[string]string) string {
	t.Helper()
	tmp := strings.TrimSpace(run(t, c, "sudo mktemp -d /etc/opensm/.fabricgen.XXXXXXXXXX", 0))
	if !strings.HasPrefix(tmp, "/etc/opensm/.fabricgen.") || len(tmp) != len("/etc/opensm/.fabricgen.")+10 {
		t.Fatalf("mktemp printed %q", tmp)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		enc := base64.StdEncoding.EncodeToString([]byte(files[n]))
		op := ">"
		for len(enc) > 0 {
			chunk := enc[:min(len(enc), 700)]
			enc = enc[len(chunk):]
			run(t, c, "sudo printf '%s' "+quote(chunk)+" "+op+" "+tmp+"/"+n+".b64", 0)
			op = ">>"
		}
		run(t, c, "sudo base64 -d -- "+tmp+"/"+n+".b64 > "+tmp+"/"+n, 0)
		if got := strings.TrimSpace(run(t, c, "stat -c %s -- "+tmp+"/"+n, 0)); got != strconv.Itoa(len(files[n])) {
			t.Fatalf("%s staged with %s bytes, want %d", n, got, len(files[n]))
		}
		if got := run(t, c, "base64 -w0 -- "+tmp+"/"+n, 0); got != base64.StdEncoding.EncodeToString([]byte(files[n])) {
			t.Fatalf("%s read back differs", n)
		}
	}
	check := run(t, c, "sudo opensm -F "+tmp+"/opensm.conf -c "+tmp+"/dump.conf", 0)
	if strings.Contains(check, "Unrecognized token") {
		t.Fatalf("opensm -c found unknown keys in the staged opensm.conf:\n%s", check)
	}
	for _, n := range names {
		run(t, c, "sudo mv -f -- "+tmp+"/"+n+" /etc/opensm/"+n, 0)
	}
	run(t, c, "sudo rm -rf -- "+tmp, 0)
	run(t, c, "test -e "+tmp, 1)
	return run(t, c, "sudo pkill -HUP -x opensm", 0)
}

// wantArb is a QoS set's VL arbitration table as ibsim.ParseVLArb reads
// it back: entries with weight 0 left out.
func wantArb(es []osmconf.VLArbEntry) []ibsim.Entry {
	var out []ibsim.Entry
	for _, e := range es {
		if e.Weight != 0 {
			out = append(out, ibsim.Entry{VL: e.VL, Weight: e.Weight})
		}
	}
	return out
}

// TestPushFlow is the whole push transaction against a factory host: the
// rendered ib-cluster files staged and swapped in, the daemon signalled,
// and every table read back with smpquery equal to the files' qos_ca_*
// and qos_swe_* sets; Running is the bundle of exactly those files.
func TestPushFlow(t *testing.T) {
	s, c := host(t, "")
	if got := s.Running(); got != filebundle.Magic+"\n" {
		t.Fatalf("factory host has files:\n%s", got)
	}
	files := golden(t)
	if out := push(t, c, files); out != "" {
		t.Errorf("pkill printed %q", out)
	}
	log := run(t, c, "cat -- /var/log/opensm.log", 0)
	if strings.Contains(log, "ERR") {
		t.Errorf("the rendered files made OpenSM log an error:\n%s", log)
	}
	if !strings.Contains(log, "Loading QoS policy file (/etc/opensm/qos-policy.conf)") {
		t.Errorf("the log does not show the policy loaded:\n%s", log)
	}
	opts, err := osmconf.ParseOptions(files["opensm.conf"])
	if err != nil {
		t.Fatal(err)
	}
	ca, err := opts.QoS("ca")
	if err != nil {
		t.Fatal(err)
	}
	swe, err := opts.QoS("swe")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ibsim.ParseSL2VL(run(t, c, "smpquery -D sl2vl 0", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[ibsim.PortPair{}] != ca.SL2VL {
		t.Errorf("CA SL2VL = %v, want %v", rows, ca.SL2VL)
	}
	a, err := ibsim.ParseVLArb(run(t, c, "smpquery -D vlarb 0", 0))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Low, wantArb(ca.Low)) || !slices.Equal(a.High, wantArb(ca.High)) {
		t.Errorf("CA VLArb = %v %v, want %v %v", a.Low, a.High, wantArb(ca.Low), wantArb(ca.High))
	}
	for out := 1; out <= switchPorts; out++ {
		rows, err := ibsim.ParseSL2VL(run(t, c, "smpquery -D sl2vl 0,1 "+strconv.Itoa(out), 0))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != switchPorts+1 {
			t.Fatalf("switch out %d: %d rows, want %d", out, len(rows), switchPorts+1)
		}
		for in := 0; in <= switchPorts; in++ {
			if got := rows[ibsim.PortPair{In: in, Out: out}]; got != swe.SL2VL {
				t.Fatalf("switch in %d out %d SL2VL = %v, want %v", in, out, got, swe.SL2VL)
			}
		}
		a, err := ibsim.ParseVLArb(run(t, c, "smpquery -D vlarb 0,1 "+strconv.Itoa(out), 0))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Low, wantArb(swe.Low)) || !slices.Equal(a.High, wantArb(swe.High)) {
			t.Errorf("switch port %d VLArb = %v %v, want %v %v", out, a.Low, a.High, wantArb(swe.Low), wantArb(swe.High))
		}
	}
	keys, err := ibsim.ParsePKeys(run(t, c, "smpquery -D pkeys 0", 0))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys, []uint16{0xffff}) {
		t.Errorf("CA P_Keys = %#x, want [0xffff] (the SM host is only in the default partition)", keys)
	}
	got, err := filebundle.Decode([]byte(s.Running()))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path)
		if string(f.Text) != files[strings.TrimPrefix(f.Path, "/etc/opensm/")] {
			t.Errorf("%s differs from what was pushed", f.Path)
		}
	}
	if len(got) != len(files) || !slices.IsSorted(paths) {
		t.Errorf("Running has %v, want the %d pushed files sorted", paths, len(files))
	}
	if s.Export() != s.Running() {
		t.Error("Export differs from Running")
	}
	// The exported files start an identical host.
	s2, c2 := host(t, s.Export())
	if s2.Running() != s.Running() || run(t, c2, "smpquery -D sl2vl 0,1 5", 0) != run(t, c, "smpquery -D sl2vl 0,1 5", 0) {
		t.Error("a host started from the export differs")
	}
}

// TestRejectedPolicy: a policy without a DEFAULT qos-level makes the
// daemon log ERR AC10 and AC04 and drop the policy; the tables still come
// from opensm.conf.
func TestRejectedPolicy(t *testing.T) {
	files := golden(t)
	files["qos-policy.conf"] = "qos-levels\n  qos-level\n    name: compute\n    sl: 3\n  end-qos-level\nend-qos-levels\n"
	_, c := host(t, "")
	push(t, c, files)
	log := run(t, c, "cat -- /var/log/opensm.log", 0)
	for _, want := range []string{
		"0x01 -> osm_qos_policy_validate: ERR AC10: Default qos-level (default) not defined.\n",
		"0x01 -> osm_qos_parse_policy_file: ERR AC04: Error(s) in QoS policy file (/etc/opensm/qos-policy.conf)\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	rows, err := ibsim.ParseSL2VL(run(t, c, "smpquery -D sl2vl 0", 0))
	if err != nil {
		t.Fatal(err)
	}
	if want := [16]int{0, 1, 2, 3}; rows[ibsim.PortPair{}] != want {
		t.Errorf("CA SL2VL = %v, want %v from opensm.conf", rows[ibsim.PortPair{}], want)
	}

	// A syntax error is ERR AC05 then AC03.
	run(t, c, "printf '%s\\n' 'qos-levels' 'bogus' > /etc/opensm/qos-policy.conf", 0)
	run(t, c, "pkill -HUP -x opensm", 0)
	log = run(t, c, "tail -c +1 -- /var/log/opensm.log", 0)
	if !strings.Contains(log, "yyerror: ERR AC05: Syntax error (line ") || !strings.Contains(log, "ERR AC03: Failed parsing QoS policy file (/etc/opensm/qos-policy.conf)") {
		t.Errorf("log lacks ERR AC05 and AC03:\n%s", log)
	}
	// An IPoIB rule naming a partition with fewer than two full members
	// fails the parse, as the real OpenSM logged for the golden policy on
	// a fabric without the compute GUIDs (line 54:23).
	run(t, c, "printf '%s' "+quote(golden(t)["qos-policy.conf"])+" > /etc/opensm/qos-policy.conf", 0)
	run(t, c, "printf '%s\\n' 'default=0x7fff,ipoib : ALL=full ;' 'compute=0x8001,ipoib : 0x0002c90300a00301=full ;' > /etc/opensm/partitions.conf", 0)
	run(t, c, "pkill -HUP -x opensm", 0)
	if log := run(t, c, "cat /var/log/opensm.log", 0); !strings.Contains(log, "yyerror: ERR AC05: Syntax error (line 54:23): IPoIB partition, pkey 0x0001 - partition has less than two full members\n") {
		t.Errorf("log lacks the IPoIB rule's ERR AC05:\n%s", log)
	}
	// A missing policy file is ERR AC01, unless it is the default path.
	run(t, c, "rm -f -- /etc/opensm/qos-policy.conf && printf '%s\\n' 'qos TRUE' > /etc/opensm/opensm.conf", 0)
	before := run(t, c, "cat /var/log/opensm.log", 0)
	run(t, c, "pkill -HUP -x opensm", 0)
	if log := strings.TrimPrefix(run(t, c, "cat /var/log/opensm.log", 0), before); strings.Contains(log, "ERR") || strings.Contains(log, "Loading") {
		t.Errorf("a missing default policy file was logged:\n%s", log)
	}
	run(t, c, "printf '%s\\n' 'qos TRUE' 'qos_policy_file /etc/opensm/other.conf' > /etc/opensm/opensm.conf", 0)
	run(t, c, "pkill -HUP -x opensm", 0)
	if log := run(t, c, "cat /var/log/opensm.log", 0); !strings.Contains(log, "ERR AC01: Failed opening QoS policy file /etc/opensm/other.conf - No such file or directory") {
		t.Errorf("log lacks ERR AC01:\n%s", log)
	}
	if n := strings.Count(run(t, c, "cat /var/log/opensm.log", 0), "Loading QoS policy file"); n != 1 {
		t.Errorf("the log says Loading QoS policy file %d times, want once (the first time only)", n)
	}
}

// TestMasking: VLs beyond the operational VLs are masked as OpenSM 3.3.23
// programs them under ibsim (measured with max_op_vls 3: every port keeps
// VL0-3; VL15 stays in SL-to-VL; only 8 VLArb entries fit).
func TestMasking(t *testing.T) {
	_, c := host(t, "")
	conf := "qos TRUE\nmax_op_vls 3\nqos_sl2vl 0,1,2,9,5,6,7,15,8,4,3,2,1,0,14,13\n" +
		"qos_vlarb_low 0:64,5:10,9:20,1:1,2:2,3:3,0:4,1:5,2:6,4:7\nqos_vlarb_high 6:255,14:7\n"
	run(t, c, "printf '%s' "+quote(conf)+" > /etc/opensm/opensm.conf && pkill -HUP -x opensm", 0)
	for _, tc := range []struct {
		query string
		want  [16]int
		pair  ibsim.PortPair
	}{
		{"smpquery -D sl2vl 0", [16]int{0, 1, 2, 1, 1, 2, 3, 15, 0, 0, 3, 2, 1, 0, 2, 1}, ibsim.PortPair{}},
		{"smpquery -D sl2vl 0,1 2", [16]int{0, 1, 2, 1, 1, 2, 3, 15, 0, 0, 3, 2, 1, 0, 2, 1}, ibsim.PortPair{In: 1, Out: 2}},
	} {
		rows, err := ibsim.ParseSL2VL(run(t, c, tc.query, 0))
		if err != nil {
			t.Fatal(err)
		}
		if rows[tc.pair] != tc.want {
			t.Errorf("%s: %v, want %v", tc.query, rows[tc.pair], tc.want)
		}
	}
	const wantCA = "# VLArbitration tables: DR path slid 65535; dlid 65535; 0 port 0 LowCap 8 HighCap 8\n" +
		"# Low priority VL Arbitration Table:\n" +
		"VL    : |0x0 |0x1 |0x1 |0x1 |0x2 |0x3 |0x0 |0x1 |\n" +
		"WEIGHT: |0x40|0xA |0x14|0x1 |0x2 |0x3 |0x4 |0x5 |\n" +
		"# High priority VL Arbitration Table:\n" +
		"VL    : |0x2 |0x2 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |\n" +
		"WEIGHT: |0xFF|0x7 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |\n"
	if got := run(t, c, "smpquery -D vlarb 0", 0); got != wantCA {
		t.Errorf("CA vlarb:\n%s\nwant\n%s", got, wantCA)
	}
	// opensm.conf removed: the daemon keeps the options it read last.
	masked := run(t, c, "smpquery -D vlarb 0", 0)
	run(t, c, "printf x > /etc/opensm/p.conf && mv -f -- /etc/opensm/opensm.conf /tmp/o.conf && pkill -HUP -x opensm", 0)
	if got := run(t, c, "smpquery -D vlarb 0", 0); got != masked {
		t.Errorf("a HUP without opensm.conf changed the tables:\n%s", got)
	}
	// qos FALSE: the daemon leaves the tables as they are.
	before := run(t, c, "smpquery -D sl2vl 0", 0)
	run(t, c, "printf 'qos FALSE\\n' > /etc/opensm/opensm.conf && pkill -HUP -x opensm", 0)
	if got := run(t, c, "smpquery -D sl2vl 0", 0); got != before {
		t.Errorf("qos FALSE reprogrammed the CA:\n%s", got)
	}
}

// TestFactoryTables: a factory host (no opensm.conf: qos FALSE) shows the
// tables ibsim's ports start with, in smpquery's exact shapes.
func TestFactoryTables(t *testing.T) {
	_, c := host(t, "")
	for _, tc := range []struct{ line, want string }{
		{"smpquery -D sl2vl 0", "# SL2VL table: DR path slid 65535; dlid 65535; 0\n" +
			"#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\n" +
			"ports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14| 7|\n"},
		{"smpquery -D vlarb 0,1 5", "# VLArbitration tables: DR path slid 65535; dlid 65535; 0,1 port 5 LowCap 8 HighCap 8\n" +
			"# Low priority VL Arbitration Table:\n" +
			"VL    : |0x0 |0x1 |0x2 |0x3 |0x4 |0x5 |0x6 |0x7 |\n" +
			"WEIGHT: |0x0 |0x4 |0x4 |0x4 |0x4 |0x4 |0x4 |0x4 |\n" +
			"# High priority VL Arbitration Table:\n" +
			"VL    : |0x0 |0x1 |0x2 |0x3 |0x4 |0x5 |0x6 |0x7 |\n" +
			"WEIGHT: |0x4 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |0x0 |\n"},
		{"smpquery -D vlarb 0,1 0", "# No VLArbitration tables (BSP0): DR path slid 65535; dlid 65535; 0,1 port 0\n"},
		{"smpquery -D pkeys 0", "   0: 0xffff 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"},
	} {
		got := run(t, c, tc.line, 0)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.line, got, tc.want)
		}
	}
	if got := run(t, c, "smpquery -D pkeys 0", 0); !strings.HasSuffix(got, "  56: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n64 pkeys capacity for this port\n") {
		t.Errorf("pkeys tail:\n%s", got)
	}
	if n := strings.Count(run(t, c, "smpquery -D sl2vl 0,1", 0), "\nports: in "); n != switchPorts+1 {
		t.Errorf("switch sl2vl without a port: %d rows, want %d (out port 0, every in port)", n, switchPorts+1)
	}
}

// TestPKeys: the CA port gets the default partition and each partition
// naming SELF, ALL or ALL_CAS (full: bit 15), in file order; ALL_SWITCHES
// and other GUIDs do not count (measured under ibsim).
func TestPKeys(t *testing.T) {
	_, c := host(t, "")
	parts := "Default=0x7fff : ALL, SELF=full ;\nx=0x0005 : SELF=limited ;\ny=0x0006 : ALL_CAS=full ;\nz=0x0007: ALL_SWITCHES=full ;\nw=0x0008 : 0x0002c90300a00301=full ;\n"
	run(t, c, "printf '%s' "+quote(parts)+" > /etc/opensm/partitions.conf", 0)
	run(t, c, "pkill -HUP -x opensm", 0)
	if got := run(t, c, "smpquery -D pkeys 0", 0); !strings.HasPrefix(got, "   0: 0xffff 0x0005 0x8006 0x0000 ") {
		t.Errorf("pkeys:\n%s", got)
	}
	// A file OpenSM cannot parse: logged, the default partition alone.
	run(t, c, "printf 'garbage = 0x8001 : : ;\\n' > /etc/opensm/partitions.conf && pkill -HUP -x opensm", 0)
	if got := run(t, c, "smpquery -D pkeys 0", 0); !strings.HasPrefix(got, "   0: 0xffff 0x0000 ") {
		t.Errorf("pkeys after a bad file:\n%s", got)
	}
	if log := run(t, c, "cat /var/log/opensm.log", 0); !strings.Contains(log, "retrying with default config") {
		t.Errorf("log lacks the partition error:\n%s", log)
	}
}
