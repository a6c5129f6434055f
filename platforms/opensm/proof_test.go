package opensm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibqos"
	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/testtool"
	"github.com/fabricgen/fabricgen/schema"
)

// errLine is an OpenSM error: "ERR" and a four-digit hex code
// (opensm/osm_log.c prefixes OSM_LOG_ERROR messages with it). The
// "Failed to setup routing engine 'no_fallback'" line OpenSM 3.3.23 logs
// for the no_fallback keyword has no code: setup_routing_engine returns
// NULL for it by design (opensm/osm_opensm.c).
var errLine = regexp.MustCompile(`ERR [0-9A-F]{4}`)

// lab is one emulated fabric with OpenSM's files in its scratch dir.
type lab struct {
	sim  *ibsim.Sim
	conf string
	ctx  context.Context
}

// newLab starts ibsim on f's topology and writes files (name → text) into
// the scratch directory, ConfigDir in their text replaced by it.
func newLab(t *testing.T, f *schema.Fabric, files map[string]string) *lab {
	t.Helper()
	for bin, pkg := range ibsim.Binaries {
		testtool.Need(t, bin, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	topo, err := ibsim.FromFabric(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(text, ConfigDir, dir)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ibsim.Start(ctx, dir, topo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return &lab{sim: s, conf: filepath.Join(dir, FileConf), ctx: ctx}
}

// rendered is f's rendered files by name.
func rendered(t *testing.T, f *schema.Fabric) map[string]string {
	t.Helper()
	files, err := Render(f)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, fl := range files {
		m[fl.Name] = string(fl.Text)
	}
	return m
}

// sweep runs one OpenSM sweep and returns its log.
func (l *lab) sweep(t *testing.T) string {
	t.Helper()
	log, err := l.sim.OpenSM(l.ctx, l.conf)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func (l *lab) query(t *testing.T, args ...string) string {
	t.Helper()
	out, err := l.sim.Run(l.ctx, "smpquery", args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sl2vl reads node n's SL-to-VL rows for out-port out (switches) or its
// own table (CAs).
func (l *lab) sl2vl(t *testing.T, n *ibsim.Node, out int) map[ibsim.PortPair][16]int {
	t.Helper()
	args := []string{"-D", "sl2vl", n.DR}
	if n.Switch {
		args = append(args, fmt.Sprint(out))
	}
	rows, err := ibsim.ParseSL2VL(l.query(t, args...))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func (l *lab) vlarb(t *testing.T, n *ibsim.Node, port int) ibsim.VLArb {
	t.Helper()
	args := []string{"-D", "vlarb", n.DR}
	if n.Switch {
		args = append(args, fmt.Sprint(port))
	}
	a, err := ibsim.ParseVLArb(l.query(t, args...))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (l *lab) pkeys(t *testing.T, n *ibsim.Node) []uint16 {
	t.Helper()
	keys, err := ibsim.ParsePKeys(l.query(t, "-D", "pkeys", n.DR))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

// paths starts a long-running OpenSM (once) and asks the SA for the
// PathRecords from src to dst port GUID, with P_Key pk when not 0.
func (l *lab) paths(t *testing.T, src, dst uint64, pk uint16) ([]ibsim.PathRecord, error) {
	t.Helper()
	args := []string{"-p", "--sgid-to-dgid", ibsim.GID(src).String() + "-" + ibsim.GID(dst).String()}
	if pk != 0 {
		args = append(args, "--pkey", fmt.Sprintf("%#x", pk))
	}
	out, err := l.sim.Run(l.ctx, "saquery", args...)
	if err != nil {
		return nil, err
	}
	return ibsim.ParsePathRecords(out)
}

func (l *lab) startSM(t *testing.T) string {
	t.Helper()
	log, err := l.sim.StartOpenSM(l.ctx, l.conf)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func entries(es []ibqos.Entry) string {
	var parts []string
	for _, e := range es {
		if e.Weight != 0 {
			parts = append(parts, e.String())
		}
	}
	return fmt.Sprint(parts)
}

func arb(es []ibsim.Entry) string {
	parts := []string{}
	for _, e := range es {
		parts = append(parts, e.String())
	}
	return fmt.Sprint(parts)
}

// TestRenderSameForEverySMHost: the files name no device (the SM hosts
// get the same bytes), and rendering twice gives the same bytes.
func TestRenderSameForEverySMHost(t *testing.T) {
	f := testFabric()
	a, b := rendered(t, f), rendered(t, f)
	for name, text := range a {
		if text != b[name] {
			t.Errorf("%s differs between two renders", name)
		}
		for _, d := range f.Devices {
			if regexp.MustCompile(`\b` + d.Name + `\b`).MatchString(text) {
				t.Errorf("%s names device %s: every SM host must get the same file", name, d.Name)
			}
		}
	}
}

// TestOpenSMProgramsTheRender is the proof: the rendered files, given to
// the real OpenSM on the emulated fabric, program exactly the intended
// SL-to-VL tables on every switch port pair and CA, the VL arbitration
// tables, the P_Key tables with full and limited members, and the SA
// hands out each class's SL; the log has no error.
//
// Static only (ibsim cannot show them): VLHighLimit (ibsim reads back 0),
// MTU 4096 (ibsim's MtuCap is 2048) and credit loops (no data path).
// pathCase is a PathRecord query between two ports in a partition, and
// the SL the subnet manager must answer with.
type pathCase struct {
	what     string
	src, dst uint64
	pkey     uint16
	sl       int
}

func TestOpenSMProgramsTheRender(t *testing.T) {
	proveRender(t, testFabric(), []pathCase{
		{"compute partition", guidGPU01, guidGPU03, 0x8001, 3},
		{"storage partition, GPU to target", guidGPU01, guidStor01, 0x8002, 2},
		{"storage partition, target to GPU", guidStor01, guidGPU04, 0x8002, 2},
		{"Default partition", guidGPU01, guidGPU03, 0xffff, 0},
	})
}

// proveRender renders f, lets OpenSM sweep it under ibsim, and reads
// back every table it programmed and the PathRecords of paths.
func proveRender(t *testing.T, f *schema.Fabric, paths []pathCase) {
	t.Helper()
	l := newLab(t, f, rendered(t, f))
	log := l.sweep(t)
	if m := errLine.FindAllString(log, -1); len(m) > 0 {
		t.Errorf("OpenSM log has errors %v:\n%s", m, log)
	}
	if !strings.Contains(log, "ftree tables configured on all switches") {
		t.Errorf("ftree did not route the fabric:\n%s", log)
	}
	tab := ibqos.Derive(f)
	wantArb := entries(tab.Low) + " " + entries(tab.High)
	topo := l.sim.Topo
	for _, n := range topo.Nodes {
		if !n.Switch {
			rows := l.sl2vl(t, n, 0)
			if rows[ibsim.PortPair{}] != tab.SL2VL {
				t.Errorf("%s SL2VL = %v, want %v", n.ID, rows[ibsim.PortPair{}], tab.SL2VL)
			}
			if a := l.vlarb(t, n, 1); arb(a.Low)+" "+arb(a.High) != wantArb {
				t.Errorf("%s VLArb low/high = %v %v, want %s", n.ID, a.Low, a.High, wantArb)
			}
			continue
		}
		var linked []int
		for p := range n.Links {
			linked = append(linked, p)
		}
		slices.Sort(linked)
		for _, out := range linked {
			rows := l.sl2vl(t, n, out)
			for _, in := range append([]int{0}, linked...) {
				if in == out {
					continue
				}
				if got := rows[ibsim.PortPair{In: in, Out: out}]; got != tab.SL2VL {
					t.Errorf("%s in %d out %d SL2VL = %v, want %v", n.ID, in, out, got, tab.SL2VL)
				}
			}
			if a := l.vlarb(t, n, out); arb(a.Low)+" "+arb(a.High) != wantArb {
				t.Errorf("%s port %d VLArb low/high = %v %v, want %s", n.ID, out, a.Low, a.High, wantArb)
			}
		}
	}
	// P_Key tables: 0xffff (Default, full) and each partition's key with
	// bit 15 set for full members, clear for limited ones.
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if !p.GUID.Set {
				continue
			}
			want := []uint16{0xffff}
			for _, part := range f.Partitions {
				if m, ok := part.MembershipOf(d); ok && !part.Default.V {
					k := uint16(part.LowPKey())
					if m == schema.MemberFull {
						k |= 0x8000
					}
					want = append(want, k)
				}
			}
			n := topo.NodeOf(d.Name, p.Name)
			table, err := ibsim.ParsePKeyTable(l.query(t, "-D", "pkeys", n.DR))
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range f.Partitions {
				if i, ok := PKeyIndex(f, d, part); ok && (i >= len(table) || table[i]&0x7fff != uint16(part.LowPKey())) {
					t.Errorf("%s: partition %s expected at P_Key index %d (NCCL_IB_PKEY), table %#x", d.Name, part.Name, i, table)
				}
			}
			slices.Sort(want)
			if got := l.pkeys(t, n); !slices.Equal(got, want) {
				t.Errorf("%s P_Keys = %#x, want %#x", d.Name, got, want)
			}
		}
	}
	// PathRecords: each class's SL through the match rules.
	l.startSM(t)
	for _, c := range paths {
		recs, err := l.paths(t, c.src, c.dst, c.pkey)
		if err != nil || len(recs) == 0 {
			t.Errorf("%s: no path record (%v)", c.what, err)
			continue
		}
		for _, r := range recs {
			if r.SL != c.sl {
				t.Errorf("%s: path record SL %d, want %d", c.what, r.SL, c.sl)
			}
		}
	}
}
