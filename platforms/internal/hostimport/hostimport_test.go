package hostimport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/importer"
)

// summary prints what an import gives, one fact a line, for goldens.
func summary(d *importer.Device) string {
	var b strings.Builder
	fmt.Fprintf(&b, "device name=%q kind=%s driver=%q os=%q\n", d.Name, d.Kind, d.Driver, d.OSVersion)
	if rd := d.RDMA; rd != nil {
		fmt.Fprintf(&b, "rdma transport=%q", rd.Transport)
		for _, f := range []struct {
			n string
			v *int
		}{{"path_mtu", rd.PathMTU}, {"tos", rd.ToS}, {"cnp_dscp", rd.CNPDSCP}, {"cnp_priority", rd.CNPPriority}} {
			if f.v != nil {
				fmt.Fprintf(&b, " %s=%d", f.n, *f.v)
			}
		}
		if rd.ECN != nil {
			fmt.Fprintf(&b, " ecn=%v", *rd.ECN)
		}
		b.WriteString("\n")
	}
	for _, p := range d.Ports {
		fmt.Fprintf(&b, "port %q lines %d-%d mtu=%d ip=%q speed=%d\n", p.Name, p.Src.From, p.Src.To, p.MTU, p.IP, p.Speed)
		if q := p.QoS; q != nil {
			b.WriteString("  qos" + qosSummary(q) + "\n")
		}
	}
	for _, u := range d.Unmapped {
		fmt.Fprintf(&b, "unmapped %d: %s -- %s\n", u.Line, importer.Clean(u.Text), u.Why)
	}
	for _, u := range d.Twice {
		fmt.Fprintf(&b, "twice %d: %s -- %s\n", u.Line, importer.Clean(u.Text), u.Why)
	}
	return b.String()
}

func qosSummary(q *importer.QoS) string {
	var b strings.Builder
	if q.Trust != "" {
		fmt.Fprintf(&b, " trust=%s", q.Trust)
	}
	if len(q.DSCP) > 0 {
		// Only the code points off the mlx5 default (DSCP / 8), to stay short.
		var off []string
		for d := 0; d < 64; d++ {
			if v, ok := q.DSCP[d]; !ok || v != d>>3 {
				off = append(off, fmt.Sprintf("%d:%d", d, v))
			}
		}
		fmt.Fprintf(&b, " dscp(%d, off d/8: %s)", len(q.DSCP), strings.Join(off, " "))
	}
	if q.DefaultPriority != nil {
		fmt.Fprintf(&b, " default_priority=%d", *q.DefaultPriority)
	}
	if q.PFCSet {
		fmt.Fprintf(&b, " pfc=%v", q.PFC)
	}
	if q.Queue != nil {
		m := make([]int, 8)
		for p := range m {
			m[p] = q.Queue[p]
		}
		fmt.Fprintf(&b, " prio_tc=%v", m)
	}
	var tcs []int
	for tc := range q.Queues {
		tcs = append(tcs, tc)
	}
	sort.Ints(tcs)
	for _, tc := range tcs {
		qq := q.Queues[tc]
		fmt.Fprintf(&b, " q%d=%s", tc, qq.Sched)
		if qq.Weight != nil {
			fmt.Fprintf(&b, "/%d", *qq.Weight)
		}
		if qq.ShaperBps > 0 {
			fmt.Fprintf(&b, "/shaper:%d", qq.ShaperBps)
		}
		if qq.ECN != nil {
			fmt.Fprintf(&b, "/ecn:%s", qq.ECN.Name)
		}
	}
	if w := q.Watchdog; w != nil {
		fmt.Fprintf(&b, " watchdog=%s/%d", w.Name, w.DetectionMS)
	}
	if q.LinkPause != nil {
		fmt.Fprintf(&b, " link_pause=%v", *q.LinkPause)
	}
	var src []string
	for _, s := range q.Src {
		src = append(src, fmt.Sprintf("%d-%d", s.From, s.To))
	}
	fmt.Fprintf(&b, " src=%s", strings.Join(src, ","))
	return b.String()
}

// corpus holds the public host scripts import is tested against.
const corpus = "../../../internal/importer/testdata/corpus/nvidia_mlnx/"

// TestImportFiles imports the hand-written scripts and host states of
// testdata/import (each FILE.sh or FILE.state with a FILE.want summary
// beside it; a FILE-dcb is read as linux_dcb, any other as nvidia_mlnx), the folders'
// brownfield scripts and the public host scripts of the import corpus: facts, unmapped lines with their numbers, twice. go test
// -update rewrites the .want files.
func TestImportFiles(t *testing.T) {
	inputs, err := filepath.Glob("testdata/import/*")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"../../nvidia_mlnx/testdata/brownfield.sh": "testdata/import/brownfield-mlnx.want",
		"../../linux_dcb/testdata/brownfield.sh":   "testdata/import/brownfield-dcb.want",
		// The public host scripts of the import corpus (SOURCES.md there).
		corpus + "netarbiter-setup-nic-lossless-layer3.sh": "testdata/import/corpus-netarbiter.want",
		corpus + "mlnx-tools-roce_config.sh":               "testdata/import/corpus-mlnx-tools-roce_config.want",
		// One host platform's render read by the other.
		"../../nvidia_mlnx/testdata/golden/mlnx1.sh": "testdata/import/cross-mlnx1-as-dcb.want",
		"../../linux_dcb/testdata/golden/dcb1.sh":    "testdata/import/cross-dcb1-as-mlnx.want",
	}
	for _, in := range inputs {
		if strings.HasSuffix(in, ".want") || strings.HasSuffix(in, ".md") {
			continue
		}
		cases[in] = strings.TrimSuffix(in, filepath.Ext(in)) + ".want"
	}
	if len(cases) < 6 {
		t.Fatalf("only %d import cases: testdata/import is missing", len(cases))
	}
	for in, want := range cases {
		t.Run(filepath.Base(want), func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			fl := Flavour{Platform: "nvidia_mlnx", MLNX: true}
			if strings.HasSuffix(want, "-dcb.want") {
				fl = Flavour{Platform: "linux_dcb"}
			}
			d, err := Import(context.Background(), fl, filepath.Base(in), data)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, want, []byte(summary(d)), "go test ./platforms/internal/hostimport -run TestImportFiles -update")
		})
	}
}

// TestLexer splits shell words without expanding anything.
func TestLexer(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`mlnx_qos -i eth0 --trust dscp`, `[mlnx_qos] [-i] [eth0] [--trust] [dscp]`},
		{`echo 'a b' "c d" e\ f`, `[echo] [a b] [c d] [e f]`},
		{`x=$(ls "a)b") y`, `[x=$(ls "a)b")$] [y]`},
		{"a `b c` d", "[a] [`b c`$] [d]"},
		{`a ${X:-1} "$Y" *`, `[a] [${X:-1}$] [$Y$] [*$]`},
		{"cat <<EOF\nmlnx_qos -i eth0 --trust pcp\nEOF\nb", "[cat] op:<< [EOF] nl [b]"},
		{"a \\\n b # c", "[a] [b] #"},
		{"echo 1 >/sys/x 2>&1", "[echo] [1] op:> [/sys/x] [2] op:>& [1]"},
	} {
		lx := newLexer("t", []byte(tc.in))
		var got []string
		for {
			tk, err := lx.next()
			if err != nil {
				t.Fatalf("%q: %v", tc.in, err)
			}
			if tk.kind == tEOF {
				break
			}
			switch tk.kind {
			case tWord:
				s := "[" + tk.w.text + "]"
				if tk.w.expand {
					s = "[" + tk.w.text + "$]"
				}
				got = append(got, s)
			case tOp:
				got = append(got, "op:"+tk.op)
			case tNewline:
				got = append(got, "nl")
			case tComment:
				got = append(got, "#")
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, g, tc.want)
		}
	}
}

// TestImportErrors: a file import cannot read at all is an *importer.Error
// at its line, saying how to fix it.
func TestImportErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"quote", "set -eu\necho 'x > /sys/a\n", 2, "single quote opened here is never closed"},
		{"backquote", "a\nb\nc `d\n", 3, "backquote opened here is never closed"},
		{"brace", "x=${A\n", 1, "${ opened here is never closed"},
		{"state json", "$ dcb -j pfc show dev eth0\n{\"prio_pfc\": [true,\n", 2, "not a JSON object"},
		{"nul", "a\nb\x00\n", 2, "binary data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import(context.Background(), Flavour{Platform: "nvidia_mlnx", MLNX: true}, "h.sh", []byte(tc.in))
			var ie *importer.Error
			if !errors.As(err, &ie) || ie.Line != tc.line || !strings.Contains(ie.Msg, tc.msg) {
				t.Errorf("got %v, want h.sh:%d: ...%s...", err, tc.line, tc.msg)
			}
		})
	}
}

// TestImportCancelled stops on a cancelled context.
func TestImportCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := []byte(strings.Repeat("ip link set dev eth0 mtu 9000\n", 10000))
	if _, err := Import(ctx, Flavour{Platform: "linux_dcb"}, "h.sh", data); err == nil {
		t.Error("a cancelled import of a long file returned no error")
	}
}

// TestSplitComma holds splitComma to strings.Split for up to cap parts.
func TestSplitComma(t *testing.T) {
	for _, v := range []string{"", ",", "set,1,2", "flush", "a,b,c,d", "a,b,c,d,e,f", ",,,"} {
		var buf [4]string
		got := splitComma(v, buf[:0])
		want := strings.SplitN(v, ",", 4)
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("splitComma(%q) = %q, want %q", v, got, want)
		}
	}
}
