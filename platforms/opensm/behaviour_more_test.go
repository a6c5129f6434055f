package opensm_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms/opensm"
	"github.com/fabricgen/fabricgen/schema"
)

// The tests below complete behaviour_test.go: each builds an intent that
// one IBQ rule flags, asserts that lint reports the rule on it (and not on
// the clean test fabric), renders the intent as it stands (the opensm
// render does not lint) and lets the real OpenSM program it under ibsim:
// what OpenSM then silently does, read back from the emulated fabric, is
// why the rule exists. They are external tests because lint imports this
// package.

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// wantRule lints f with rule id alone and fails unless a finding's
// summary names want (a device, a partition, a class): the clean test
// fabric must have no such finding, so the finding is the change's.
func wantRule(t *testing.T, f *schema.Fabric, id, want string) {
	t.Helper()
	run := func(f *schema.Fabric) []string {
		fs, err := lint.Run(context.Background(), f, lint.Options{Only: []string{id}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range fs {
			if x.Rule == id && strings.Contains(x.Summary, want) {
				out = append(out, x.Summary)
			}
		}
		return out
	}
	if clean := run(opensm.ProofFabric()); len(clean) > 0 {
		t.Fatalf("%s already reports the clean test fabric: %s", id, clean[0])
	}
	if len(run(f)) == 0 {
		t.Fatalf("lint does not report %s naming %s on the intent", id, want)
	}
}

// eachPort calls fn with every CA's SL-to-VL row and VL arbitration
// tables, and with every switch's rows for each linked in and out port
// pair (and port 0 in) with its out port's tables.
func eachPort(t *testing.T, l *opensm.Lab, fn func(where string, row [16]int, a ibsim.VLArb)) {
	t.Helper()
	for _, n := range l.Sim().Topo.Nodes {
		if !n.Switch {
			fn(n.ID, l.SL2VL(t, n, 0)[ibsim.PortPair{}], l.VLArb(t, n, 1))
			continue
		}
		linked := slices.Sorted(maps.Keys(n.Links))
		for _, out := range linked {
			rows, a := l.SL2VL(t, n, out), l.VLArb(t, n, out)
			for _, in := range append([]int{0}, linked...) {
				if in != out {
					fn(fmt.Sprintf("%s in %d out %d", n.ID, in, out), rows[ibsim.PortPair{In: in, Out: out}], a)
				}
			}
		}
	}
}

// tables is a port's VL arbitration tables as "[low] [high]".
func tables(a ibsim.VLArb) string { return fmt.Sprint(a.Low, a.High) }

// sl2vl is an SL-to-VL row with SLs 0-3 given and the others on VL0.
func sl2vl(vls ...int) [16]int {
	var r [16]int
	copy(r[:], vls)
	return r
}

// TestOpenSM_IBQ002_ZeroWeightVLStarved: the storage class (SL 2, VL2)
// with no weight renders "2:0" in the low table; OpenSM programs every CA
// and switch port with SL2 on VL2 and VL2 in neither arbitration table,
// so storage traffic is never scheduled, and it logs no error. (Starvation
// itself needs a data path, which ibsim lacks: the tables are the proof.)
func TestOpenSM_IBQ002_ZeroWeightVLStarved(t *testing.T) {
	f := opensm.ProofFabric()
	f.Class("storage").Weight = schema.Value[int]{}
	wantRule(t, f, "IBQ002", `traffic_class "storage"`)
	files := opensm.Rendered(t, f)
	if !strings.Contains(files[opensm.FileConf], "\nqos_swe_vlarb_low 0:64,2:0,3:128\n") {
		t.Fatalf("the render does not give VL2 weight 0:\n%s", files[opensm.FileConf])
	}
	l := opensm.NewLab(t, f, files)
	log := l.Sweep(t)
	opensm.NoErrors(t, log)
	if strings.Contains(strings.ToLower(log), "vlarb") {
		t.Errorf("OpenSM mentioned the VL arbitration table; it was expected to stay silent:\n%s", log)
	}
	eachPort(t, l, func(where string, row [16]int, a ibsim.VLArb) {
		if row != sl2vl(0, 1, 2, 3) {
			t.Errorf("%s: SL2VL %v, want SL2 on VL2", where, row)
		}
		if got := tables(a); got != "[0:64 3:128] [1:255]" {
			t.Errorf("%s: VLArb %s, want [0:64 3:128] [1:255] (VL2 in neither table)", where, got)
		}
	})
}

// TestOpenSM_IBQ004_WeightNotWholePackets: compute at 30 % is weight 77
// (30 % of 256 credits) and OpenSM programs 77 on every port, as given:
// not a multiple of 64, so at MTU 4096 (gpu01's port) the arbiter's
// shares are not the configured ones. Observed: the exact weight
// programmed. Static only: the rounding to whole 4 KB packets, which
// needs MTU 4096 and a data path (ibsim's MtuCap is 2048, read back
// here).
func TestOpenSM_IBQ004_WeightNotWholePackets(t *testing.T) {
	f := opensm.ProofFabric()
	f.Class("compute").Weight = set(30)
	f.Device("gpu01").Port("ib0").MTU = set(4096)
	wantRule(t, f, "IBQ004", `traffic_class "compute"`)
	l := opensm.NewLab(t, f, opensm.Rendered(t, f))
	opensm.NoErrors(t, l.Sweep(t))
	eachPort(t, l, func(where string, _ [16]int, a ibsim.VLArb) {
		if got := tables(a); got != "[0:64 2:64 3:77] [1:255]" {
			t.Errorf("%s: VLArb %s, want [0:64 2:64 3:77] [1:255] (weight 77 as given)", where, got)
		}
	})
	pi := l.Query(t, "-D", "portinfo", l.Sim().Topo.NodeOf("gpu01", "ib0").DR)
	if got := portInfo(t, pi, "MtuCap"); got != "2048" {
		t.Errorf("gpu01 MtuCap %s, want ibsim's 2048 (the reason the 4 KB rounding is static only)", got)
	}
}

// portInfo is field name of `smpquery portinfo` output.
func portInfo(t *testing.T, out, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:\.+(\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("portinfo has no %s:\n%s", name, out)
	}
	return m[1]
}

// TestOpenSM_IBQ006_SharedSLOneVL: class backup shares storage's SL 2 but
// asks for VL3. The SL has one SL2VL entry, so on every CA and switch port
// SL2 goes to VL2 (storage's) and backup's VL3 is never used for it, while
// its weight is added to VL3, compute's lane (128 + 64 = 192). OpenSM logs
// nothing. The rule's other case, torus-2QoS programming its own SL2VL
// tables over the QoS ones, needs a torus and its torus-2QoS.conf: static
// only.
func TestOpenSM_IBQ006_SharedSLOneVL(t *testing.T) {
	f := opensm.ProofFabric()
	f.Classes = append(f.Classes, &schema.TrafficClass{Name: "backup", Role: schema.RoleBulk, SL: set(2), VL: set(3), Weight: set(25)})
	f.Reindex()
	wantRule(t, f, "IBQ006", `traffic_class "backup"`)
	l := opensm.NewLab(t, f, opensm.Rendered(t, f))
	opensm.NoErrors(t, l.Sweep(t))
	eachPort(t, l, func(where string, row [16]int, a ibsim.VLArb) {
		if row != sl2vl(0, 1, 2, 3) {
			t.Errorf("%s: SL2VL %v, want SL2 on storage's VL2, not backup's VL3", where, row)
		}
		if got := tables(a); got != "[0:64 2:64 3:192] [1:255]" {
			t.Errorf("%s: VLArb %s, want [0:64 2:64 3:192] [1:255] (backup's weight on compute's VL3)", where, got)
		}
	})
}

// TestOpenSM_IBQ007_PartitionSLIsHandedOut: the compute partition says
// sl 2 (storage's class) while its members' applications use SL 3
// (compute's). Rendered as it stands, the SA answers PathRecords for
// P_Key 0x8001 with SL 2, and the partition's IPoIB broadcast group has
// SL 2: rdma_cm and IPoIB traffic of the compute hosts rides storage's
// VL2 while their NCCL traffic rides VL3. When instead a QoS level gives
// the partition's traffic another SL (the render edited: the match rule
// names the compute level, SL 3), the SA answers with the QoS level's SL
// 3, not the partition's 2, while the broadcast group keeps the
// partition's SL 2. OpenSM says so only below its default log level
// (ERROR and INFO, log_flags 0x03): "QoS Level SL (3) for Pkey 0x0001 in
// match rule differs from  partition SL (2)" at VERBOSE (0x04) and "QoS
// level SL (3) overrides partition SL (2)" at DEBUG (0x08); the test runs
// with log_flags 0x0f to show both levels.
func TestOpenSM_IBQ007_PartitionSLIsHandedOut(t *testing.T) {
	f := opensm.ProofFabric()
	f.Partitions[0].SL = set(2)
	if f.Partitions[0].Name != "compute" {
		t.Fatalf("partition 0 is %s, want compute", f.Partitions[0].Name)
	}
	wantRule(t, f, "IBQ007", `partition "compute"`)
	said := regexp.MustCompile(`\] (0x[0-9a-f]{2}) -> \w+: QoS [Ll]evel SL \(3\) (for Pkey 0x0001 in match rule differs from +partition|overrides partition) SL \(2\)`)
	for _, c := range []struct {
		name, from, to string
		sl             int
		// levels are the log levels of OpenSM's lines about the
		// disagreement: sweep, then PathRecord query.
		levels string
	}{
		{"Rendered", "", "", 2, "[] []"},
		{"QoSLevelDiffers", "    pkey: 0x8001\n    qos-level-name: storage\n", "    pkey: 0x8001\n    qos-level-name: compute\n", 3, "[0x04] [0x04 0x08]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := opensm.Rendered(t, f)
			if !strings.Contains(files[opensm.FilePartitions], "\ncompute=0x8001,ipoib,mtu=4,sl=2 :") {
				t.Fatalf("partitions.conf does not give compute sl=2:\n%s", files[opensm.FilePartitions])
			}
			if c.from != "" {
				if !strings.Contains(files[opensm.FilePolicy], c.from) {
					t.Fatalf("qos-policy.conf lacks %q:\n%s", c.from, files[opensm.FilePolicy])
				}
				files[opensm.FilePolicy] = strings.Replace(files[opensm.FilePolicy], c.from, c.to, 1)
			}
			files[opensm.FileConf] += "log_flags 0x0f\n"
			l := opensm.NewLab(t, f, files)
			sweep := l.Sweep(t)
			opensm.NoErrors(t, sweep)
			smLog := l.StartSM(t)
			recs, err := l.Paths(t, opensm.GUIDGPU01, opensm.GUIDGPU03, 0x8001)
			if err != nil || len(recs) == 0 {
				t.Fatalf("no path record for 0x8001: %v", err)
			}
			for _, r := range recs {
				if r.SL != c.sl {
					t.Errorf("PathRecord gpu01 to gpu03, P_Key 0x8001: SL %d, want %d", r.SL, c.sl)
				}
			}
			if g := group(t, l, "H-gpu01-ib0", 0x8001); g.SL != 2 {
				t.Errorf("0x8001 broadcast group SL %d, want the partition's 2", g.SL)
			}
			b, err := os.ReadFile(smLog)
			if err != nil {
				t.Fatal(err)
			}
			opensm.NoErrors(t, string(b))
			var levels []string
			for _, log := range []string{sweep, string(b)} {
				var lv []string
				for _, m := range said.FindAllStringSubmatch(log, -1) {
					if !slices.Contains(lv, m[1]) {
						lv = append(lv, m[1])
					}
				}
				slices.Sort(lv)
				levels = append(levels, fmt.Sprint(lv))
			}
			if got := strings.Join(levels, " "); got != c.levels {
				t.Errorf("log levels of OpenSM's SL-disagreement lines (sweep, SA) = %s, want %s", got, c.levels)
			}
		})
	}
}

// group is the IPoIB broadcast group of P_Key pk (either membership) as
// `saquery -g` lists it attached to node id: the SA shows a port only the
// groups of its partitions.
func group(t *testing.T, l *opensm.Lab, id string, pk uint16) ibsim.MCGroup {
	t.Helper()
	out, err := l.Sim().RunAs(l.Ctx(), id, "saquery", "-g")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := ibsim.ParseMCGroups(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		// ff12:401b:<pkey>::ffff:ffff is the IPoIB broadcast MGID
		// (RFC 4391: signature 0x401b, then the full-member P_Key).
		if b := g.MGID.As16(); g.PKey&0x7fff == pk&0x7fff && b[0] == 0xff && b[2] == 0x40 && b[3] == 0x1b {
			return g
		}
	}
	t.Fatalf("no broadcast group of P_Key %#x seen from %s:\n%s", pk, id, out)
	return ibsim.MCGroup{}
}

// TestOpenSM_IBQ009_RoutingEngineSLOverridesClass: with lash the SA
// answers every PathRecord with lash's SL 0 (its one deadlock-free layer
// on this fat tree), not compute's SL 3 or storage's SL 2; the same
// intent routed with ftree hands out the classes' SLs. Neither logs an error. (dfsssp
// also overrides them, but with SLs that changed between runs here, so the
// test uses lash.)
func TestOpenSM_IBQ009_RoutingEngineSLOverridesClass(t *testing.T) {
	for _, c := range []struct {
		engine           string
		compute, storage int
		lint             bool
	}{
		{"ftree", 3, 2, false},
		{"lash", 0, 0, true},
	} {
		t.Run(c.engine, func(t *testing.T) {
			f := opensm.ProofFabric()
			for _, d := range f.Devices {
				if d.SM != nil {
					d.SM.RoutingEngine = set([]string{c.engine})
				}
			}
			if c.lint {
				wantRule(t, f, "IBQ009", "subnet manager sm01 routes with lash")
			} else if fs, err := lint.Run(context.Background(), f, lint.Options{Only: []string{"IBQ009"}}); err != nil || len(fs) > 0 {
				t.Fatalf("IBQ009 on ftree: %v %v", fs, err)
			}
			l := opensm.NewLab(t, f, opensm.Rendered(t, f))
			log := l.Sweep(t)
			opensm.NoErrors(t, log)
			if !strings.Contains(log, c.engine+" tables configured on all switches") {
				t.Fatalf("%s did not route the fabric:\n%s", c.engine, log)
			}
			l.StartSM(t)
			for _, p := range []struct {
				what     string
				src, dst uint64
				pk       uint16
				sl       int
			}{
				{"compute", opensm.GUIDGPU01, opensm.GUIDGPU03, 0x8001, c.compute},
				{"storage", opensm.GUIDGPU01, opensm.GUIDStor01, 0x8002, c.storage},
			} {
				recs, err := l.Paths(t, p.src, p.dst, p.pk)
				if err != nil || len(recs) == 0 {
					t.Fatalf("%s: no path record: %v", p.what, err)
				}
				for _, r := range recs {
					if r.SL != p.sl {
						t.Errorf("%s %s: PathRecord SL %d, want %d", c.engine, p.what, r.SL, p.sl)
					}
				}
			}
		})
	}
}

// TestOpenSM_IBQ011_NICSLFallsIntoDefaultVL: gpu01 has no rdma sl (NCCL
// sends on SL 0) and gpu02 uses SL 5, which no class names. OpenSM maps
// both SL 0 and SL 5 to VL0, the default class's (weight 64, not
// compute's 128 on VL3), on every CA and switch port pair, without a
// word. (NCCL bypasses the SA, so the SL2VL tables are where this shows.)
func TestOpenSM_IBQ011_NICSLFallsIntoDefaultVL(t *testing.T) {
	f := opensm.ProofFabric()
	f.Device("gpu01").RDMA = nil
	f.Device("gpu02").RDMA = &schema.RDMA{SL: set(5)}
	wantRule(t, f, "IBQ011", "NIC gpu01 ")
	wantRule(t, f, "IBQ011", "NIC gpu02's")
	l := opensm.NewLab(t, f, opensm.Rendered(t, f))
	opensm.NoErrors(t, l.Sweep(t))
	eachPort(t, l, func(where string, row [16]int, a ibsim.VLArb) {
		if row[0] != 0 || row[5] != 0 || row[3] != 3 {
			t.Errorf("%s: SL0 → VL%d, SL5 → VL%d, SL3 → VL%d; want VL0, VL0 (the default class's) and VL3 (compute's)", where, row[0], row[5], row[3])
		}
		if got := tables(a); got != "[0:64 2:64 3:128] [1:255]" {
			t.Errorf("%s: VLArb %s, want [0:64 2:64 3:128] [1:255]", where, got)
		}
	})
}

// TestOpenSM_IBQ014_IPoIBGroupMTUIsPartitions: the compute partition's
// mtu 1024 is below its members' 2048-byte links; the IPoIB broadcast
// group OpenSM creates for 0x8001 has MTU exactly 1024 (0x83), which is
// what IPoIB then uses, while PathRecords between the same members carry
// 2048 (0x84). OpenSM logs nothing. The rule's main case, the default 2048
// under 4096-byte links, is the same mechanism one step up; ibsim's MtuCap
// is 2048, so that case is static only.
func TestOpenSM_IBQ014_IPoIBGroupMTUIsPartitions(t *testing.T) {
	f := opensm.ProofFabric()
	f.Partitions[0].MTU = set(1024)
	for _, d := range f.Partitions[0].Members {
		d.Port("ib0").MTU = set(2048)
	}
	wantRule(t, f, "IBQ014", `partition "compute"`)
	l := opensm.NewLab(t, f, opensm.Rendered(t, f))
	opensm.NoErrors(t, l.Sweep(t))
	smLog := l.StartSM(t)
	if g := group(t, l, "H-gpu01-ib0", 0x8001); g.MTU != 0x83 || g.MTUBytes() != 1024 {
		t.Errorf("0x8001 broadcast group MTU %#x (%d bytes), want 0x83 (exactly 1024)", g.MTU, g.MTUBytes())
	}
	if g := group(t, l, "H-gpu01-ib0", 0x8002); g.MTU != 0x84 {
		t.Errorf("0x8002 broadcast group MTU %#x, want 0x84 (its partition's 2048)", g.MTU)
	}
	recs, err := l.Paths(t, opensm.GUIDGPU01, opensm.GUIDGPU03, 0x8001)
	if err != nil || len(recs) == 0 {
		t.Fatalf("no path record: %v", err)
	}
	if recs[0].MTU != 0x84 {
		t.Errorf("PathRecord gpu01 to gpu03 MTU %#x, want 0x84 (the links' 2048)", recs[0].MTU)
	}
	b, err := os.ReadFile(smLog)
	if err != nil {
		t.Fatal(err)
	}
	opensm.NoErrors(t, string(b))
}

// TestOpenSM_IBQ015_StandbyReprogramsOnTakeover: sm02's sm block says
// max_op_vls 2 where sm01's says 3. The render refuses such an intent, so
// each host is given the files its own sm block renders to (as a per-host
// opensm.conf would be), and the two OpenSMs run one after the other on
// the same fabric, the second as the standby taking over. The master
// programs operational VLs VL0-3 and SL2VL 0,1,2,3 everywhere. After the
// takeover OperVLs is VL0-1 on CA and switch ports alike, and every CA is
// reprogrammed to SL2VL 0,1,0,1 with the low table [0:64 0:64 1:128]:
// compute (SL 3) now shares VL1 with the strict mgmt class. The switch
// ports keep the master's SL2VL and VL arbitration tables (this OpenSM
// 3.3.23 under ibsim does not rewrite them), so CAs and switches now
// disagree on compute's VL. Neither OpenSM logs an error.
func TestOpenSM_IBQ015_StandbyReprogramsOnTakeover(t *testing.T) {
	f := opensm.ProofFabric()
	f.Device("sm02").SM.MaxOpVLs = set(2)
	wantRule(t, f, "IBQ015", "subnet manager sm02 has max_op_vls 2")
	if _, err := opensm.Render(f); err == nil || !strings.Contains(err.Error(), "different sm settings") {
		t.Errorf("the render accepted SM hosts with different sm settings (err %v)", err)
	}
	master := opensm.Rendered(t, opensm.ProofFabric())
	own := opensm.ProofFabric()
	for _, d := range own.Devices {
		if d.SM != nil {
			d.SM.MaxOpVLs = set(2)
		}
	}
	standby := opensm.Rendered(t, own)
	l := opensm.NewLab(t, f, master)
	leaf, gpu := l.Sim().Topo.NodeOf("leaf1", ""), l.Sim().Topo.NodeOf("gpu01", "ib0")
	const before, after = "[0:64 2:64 3:128] [1:255]", "[0:64 0:64 1:128] [1:255]"
	for _, c := range []struct {
		sm, operVLs        string
		caRow, swRow       [16]int
		caTables, swTables string
	}{
		{"sm01", "VL0-3", sl2vl(0, 1, 2, 3), sl2vl(0, 1, 2, 3), before, before},
		{"sm02", "VL0-1", sl2vl(0, 1, 0, 1), sl2vl(0, 1, 2, 3), after, before},
	} {
		if c.sm == "sm02" {
			conf := strings.ReplaceAll(standby[opensm.FileConf], opensm.ConfigDir, l.Sim().Dir)
			if err := os.WriteFile(l.Conf(), []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		opensm.NoErrors(t, l.Sweep(t))
		for _, p := range []struct {
			what string
			dr   string
			port []string
		}{{"leaf1 port 7", leaf.DR, []string{"7"}}, {"gpu01", gpu.DR, nil}} {
			pi := l.Query(t, append([]string{"-D", "portinfo", p.dr}, p.port...)...)
			if got := portInfo(t, pi, "OperVLs"); got != c.operVLs {
				t.Errorf("%s master: %s OperVLs %s, want %s", c.sm, p.what, got, c.operVLs)
			}
		}
		eachPort(t, l, func(where string, row [16]int, a ibsim.VLArb) {
			wantRow, wantTables := c.caRow, c.caTables
			if strings.HasPrefix(where, "S-") {
				wantRow, wantTables = c.swRow, c.swTables
			}
			if row != wantRow {
				t.Errorf("%s master: %s SL2VL %v, want %v", c.sm, where, row, wantRow)
			}
			if got := tables(a); got != wantTables {
				t.Errorf("%s master: %s VLArb %s, want %s", c.sm, where, got, wantTables)
			}
		})
	}
}

// TestOpenSM_IBQ010_LintFlagsTheRing ties TestOpenSM_IBQ010_UpDownWithoutRootsFallsBack
// (ring_test.go: on this ring, updn finds no roots and minhop silently
// takes over; ftree fails and falls back) to the rule: lint reports
// IBQ010 for each engine on the ring, with sm01 given that engine.
func TestOpenSM_IBQ010_LintFlagsTheRing(t *testing.T) {
	for _, c := range []struct{ engine, want string }{
		{"updn", "routes with updn but no spine has a guid"},
		{"ftree", "routes with ftree, but the topology is not a fat tree"},
	} {
		t.Run(c.engine, func(t *testing.T) {
			f := opensm.RingFabric()
			f.Device("sm01").SM = &schema.SubnetManager{RoutingEngine: set([]string{c.engine})}
			wantRule(t, f, "IBQ010", c.want)
		})
	}
}
