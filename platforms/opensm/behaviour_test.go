package opensm

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/ibsim"
)

// The tests below give the real OpenSM hand-written, un-linted input and
// assert the wrong thing it silently does: each is named after the lint
// rule that catches the mistake before it reaches a subnet manager.

const minimalPolicy = `qos-levels
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
end-qos-levels
`

// files is an SM configuration: opensm.conf with qos on, the policy and
// partitions files, and extra opensm.conf lines.
func files(extra, policy, partitions string) map[string]string {
	return map[string]string{
		FileConf: "qos TRUE\nqos_policy_file " + ConfigDir + "/" + FilePolicy + "\npartition_config_file " + ConfigDir + "/" + FilePartitions +
			"\nrouting_engine ftree,no_fallback\n" + extra,
		FilePolicy:     policy,
		FilePartitions: partitions,
	}
}

const defaultPartition = "Default=0x7fff, ipoib : ALL=full ;\n"

// noErrors fails when the log has an OpenSM error code: the point of the
// tests below is that OpenSM says nothing.
func noErrors(t *testing.T, log string) {
	t.Helper()
	if m := errLine.FindAllString(log, -1); len(m) > 0 {
		t.Fatalf("OpenSM logged %v; this test expects it to stay silent:\n%s", m, log)
	}
}

// TestOpenSM_IBQ001_SLBeyondOperVLsMasked: SL3 mapped to VL9 on ports
// with max_op_vls 4 (VL0–7) is programmed as VL1 (9 & 7) with no message.
func TestOpenSM_IBQ001_SLBeyondOperVLsMasked(t *testing.T) {
	f := testFabric()
	sl2vl := "0,1,2,9,0,0,0,0,0,0,0,0,0,0,0,0"
	l := newLab(t, f, files("max_op_vls 4\nqos_ca_sl2vl "+sl2vl+"\nqos_swe_sl2vl "+sl2vl+"\n", minimalPolicy, defaultPartition))
	log := l.sweep(t)
	noErrors(t, log)
	if strings.Contains(strings.ToLower(log), "sl2vl") {
		t.Errorf("OpenSM mentioned the SL2VL table; the masking was expected to be silent:\n%s", log)
	}
	leaf := l.sim.Topo.NodeOf("leaf1", "")
	rows := l.sl2vl(t, leaf, 7)
	if got := rows[ibsim.PortPair{In: 2, Out: 7}][3]; got != 1 {
		t.Errorf("leaf1 in 2 out 7: SL3 → VL%d, want VL1 (VL9 masked to the port's VL0–7)", got)
	}
	ca := l.sl2vl(t, l.sim.Topo.NodeOf("gpu01", "ib0"), 0)
	if got := ca[ibsim.PortPair{}][3]; got != 1 {
		t.Errorf("gpu01: SL3 → VL%d, want VL1", got)
	}
}

// TestOpenSM_IBQ003_WeightWrapsAndVL15BecomesVL0: a VLArb weight of 300
// is programmed as 44 (300 mod 256) and VL15 in a table as VL0.
func TestOpenSM_IBQ003_WeightWrapsAndVL15BecomesVL0(t *testing.T) {
	f := testFabric()
	l := newLab(t, f, files("qos_swe_vlarb_low 0:300,15:128\nqos_swe_vlarb_high 0:0\n", minimalPolicy, defaultPartition))
	noErrors(t, l.sweep(t))
	a := l.vlarb(t, l.sim.Topo.NodeOf("leaf1", ""), 7)
	if got := arb(a.Low); got != "[0:44 0:128]" {
		t.Errorf("leaf1 port 7 low table = %s, want [0:44 0:128]: weight 300 wrapped to 44, VL15 programmed as VL0", got)
	}
}

// TestOpenSM_IBQ005_HighLimitUnbounded: high_limit 255 (the high table
// may starve the low one) is taken without a word while low-table classes
// exist. ibsim reads VLHighLimit back as 0 whatever the SM sets, so the
// starvation itself is static only.
func TestOpenSM_IBQ005_HighLimitUnbounded(t *testing.T) {
	f := testFabric()
	l := newLab(t, f, files("qos_swe_high_limit 255\nqos_swe_vlarb_high 1:255\nqos_swe_vlarb_low 0:64,3:128\n", minimalPolicy, defaultPartition))
	log := l.sweep(t)
	noErrors(t, log)
	if strings.Contains(strings.ToLower(log), "high_limit") {
		t.Errorf("OpenSM mentioned high_limit; it was expected to accept 255 silently:\n%s", log)
	}
	out, err := l.sim.Run(l.ctx, "opensm", "-F", l.conf, "-c", filepath.Join(l.sim.Dir, "dump.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "Invalid") || strings.Contains(out, "Warning") {
		t.Errorf("opensm -c warned about the configuration:\n%s", out)
	}
	dump, err := os.ReadFile(filepath.Join(l.sim.Dir, "dump.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dump), "\nqos_swe_high_limit 255\n") {
		t.Errorf("opensm -c did not keep qos_swe_high_limit 255")
	}
}

// compute is the partitions file of the policy tests: gpu01 and gpu03
// full members of 0x8001.
const compute = defaultPartition + "compute=0x8001 : 0x0002c90300a00301=full, 0x0002c90300a00501=full ;\n"

const computeLevels = `  qos-level
    name: compute
    sl: 3
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    source: gpus
    pkey: 0x8001
    qos-level-name: compute
  end-qos-match-rule
end-qos-match-rules
`

const gpus = `port-groups
  port-group
    name: gpus
    port-guid: 0x0002c90300a00301, 0x0002c90300a00501
  end-port-group
end-port-groups
`

// TestOpenSM_IBQ008_PolicyRejected: a policy without a DEFAULT level, or
// with a match rule naming an undefined port group, is rejected whole
// during the sweep (ERR AC10, AC12 for a source group, AC13 for a
// destination group, each with AC04): the subnet still comes up, and the
// class's SL is not handed out.
func TestOpenSM_IBQ008_PolicyRejected(t *testing.T) {
	for _, c := range []struct {
		name, policy, code string
	}{
		{"NoDefaultLevel", gpus + "qos-levels\n" + computeLevels, "ERR AC10"},
		{"UndefinedSourceGroup", "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n" + computeLevels, "ERR AC12"},
		{"UndefinedDestinationGroup", gpus + "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n" +
			strings.Replace(computeLevels, "pkey:", "destination: storage\n    pkey:", 1), "ERR AC13"},
		{"Accepted", gpus + "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n" + computeLevels, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := testFabric()
			l := newLab(t, f, files("", c.policy, compute))
			log := l.sweep(t)
			if c.code == "" {
				noErrors(t, log)
			} else if !strings.Contains(log, c.code) || !strings.Contains(log, "ERR AC04") {
				t.Fatalf("log lacks %s and ERR AC04 (policy rejected):\n%s", c.code, log)
			}
			l.startSM(t)
			recs, err := l.paths(t, guidGPU01, guidGPU03, 0x8001)
			if err != nil || len(recs) == 0 {
				t.Fatalf("no path record: %v", err)
			}
			want := 3
			if c.code != "" {
				want = 0 // the policy is gone: no SL 3
			}
			if recs[0].SL != want {
				t.Errorf("path record SL %d, want %d", recs[0].SL, want)
			}
		})
	}
}

// TestOpenSM_IBQ013_PKeysEqualModuloBit15: partitions 0x8002 and 0x0002
// are one partition: their members share it and reach each other.
func TestOpenSM_IBQ013_PKeysEqualModuloBit15(t *testing.T) {
	f := testFabric()
	parts := defaultPartition + "a=0x8002 : 0x0002c90300a00301=full ;\nb=0x0002 : 0x0002c90300a00501=full ;\n"
	l := newLab(t, f, files("", minimalPolicy, parts))
	noErrors(t, l.sweep(t))
	for _, dev := range []string{"gpu01", "gpu03"} {
		if got := l.pkeys(t, l.sim.Topo.NodeOf(dev, "ib0")); !slices.Contains(got, 0x8002) {
			t.Errorf("%s P_Keys %#x lack 0x8002", dev, got)
		}
	}
	l.startSM(t)
	if recs, err := l.paths(t, guidGPU01, guidGPU03, 0x8002); err != nil || len(recs) == 0 {
		t.Errorf("gpu01 and gpu03 were expected to share partition 0x8002 = 0x0002: %v", err)
	}
}

// TestOpenSM_IBQ012_LimitedMembersCannotTalk: two limited members of a
// partition get no PathRecord between them; a full member reaches both.
func TestOpenSM_IBQ012_LimitedMembersCannotTalk(t *testing.T) {
	f := testFabric()
	parts := defaultPartition + "storage=0x8003 : 0x0002c90300a00301=limited, 0x0002c90300a00501=limited, 0x0002c90300a00701=full ;\n"
	l := newLab(t, f, files("", minimalPolicy, parts))
	noErrors(t, l.sweep(t))
	if got := l.pkeys(t, l.sim.Topo.NodeOf("gpu01", "ib0")); !slices.Contains(got, 0x0003) {
		t.Errorf("gpu01 P_Keys %#x lack the limited 0x0003", got)
	}
	l.startSM(t)
	if recs, err := l.paths(t, guidGPU01, guidGPU03, 0x8003); err == nil && len(recs) > 0 {
		t.Errorf("limited members gpu01 and gpu03 got a path record: %+v", recs)
	}
	if recs, err := l.paths(t, guidGPU01, guidStor01, 0x8003); err != nil || len(recs) == 0 {
		t.Errorf("limited gpu01 to full stor01: no path record (%v)", err)
	}
}

// TestOpenSM_IBQ008_IPoIBRuleNeedsTwoFullMembers: a qos-ulps "ipoib, pkey"
// rule naming a partition with fewer than two full members is a syntax
// error (ERR AC05 "partition has less than two full members", then AC03):
// the whole policy is dropped, so the compute rule's SL 3 is not handed
// out either. The render writes "any, pkey" for such a partition.
func TestOpenSM_IBQ008_IPoIBRuleNeedsTwoFullMembers(t *testing.T) {
	f := testFabric()
	policy := gpus + "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n" + computeLevels +
		"qos-ulps\n  default : 0\n  ipoib, pkey 0x8003 : 2\nend-qos-ulps\n"
	parts := compute + "storage=0x8003, ipoib : 0x0002c90300a00301=limited, 0x0002c90300a00701=full ;\n"
	l := newLab(t, f, files("", policy, parts))
	log := l.sweep(t)
	if !strings.Contains(log, "ERR AC05") || !strings.Contains(log, "less than two full members") || !strings.Contains(log, "ERR AC03") {
		t.Fatalf("log lacks ERR AC05 (less than two full members) and AC03:\n%s", log)
	}
	l.startSM(t)
	recs, err := l.paths(t, guidGPU01, guidGPU03, 0x8001)
	if err != nil || len(recs) == 0 {
		t.Fatalf("no path record: %v", err)
	}
	if recs[0].SL != 0 {
		t.Errorf("path record SL %d, want 0: the rejected policy's compute rule (SL 3) was expected not to apply", recs[0].SL)
	}
}
