package emulator

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/testtool"
)

// TestSameAsRealOpenSM gives the rendered ib-cluster files to the real
// OpenSM 3.3.23 under ibsim, on the emulator's topology (the SM's HCA on
// port 1 of a 36-port leaf whose other ports all have an HCA, the
// fabric's GUIDs among them), and to the emulator, and compares what
// smpquery prints on both, byte for byte. Routing is minhop on both
// sides (ftree cannot route a single leaf); the files are otherwise the
// golden render.
func TestSameAsRealOpenSM(t *testing.T) {
	for bin, pkg := range ibsim.Binaries {
		testtool.Need(t, bin, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	files := golden(t)
	files["opensm.conf"] = strings.Replace(files["opensm.conf"], "routing_engine ftree,no_fallback", "routing_engine minhop", 1)

	s, c := host(t, "")
	push(t, c, files)

	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(text, "/etc/opensm", dir)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	guids := []uint64{0x0002c90300a00101, 0x0002c90300a00201, 0x0002c90300a00301, 0x0002c90300a00401,
		0x0002c90300a00501, 0x0002c90300a00601, 0x0002c90300a00701}
	leaf := &ibsim.Node{ID: "S-leaf1", Switch: true, GUID: 0x0002c90000000101, Ports: switchPorts, Links: map[int]ibsim.End{}}
	smNode := &ibsim.Node{ID: "H-sm01-ib0", GUID: s.guid, Ports: 1, Links: map[int]ibsim.End{1: {Node: leaf.ID, Port: 1}}}
	leaf.Links[1] = ibsim.End{Node: smNode.ID, Port: 1}
	topo := &ibsim.Topology{Nodes: []*ibsim.Node{smNode, leaf}}
	for p := 2; p <= switchPorts; p++ {
		g := uint64(0x0002c90300b00001) + uint64(p)<<8
		if p-2 < len(guids) {
			g = guids[p-2]
		}
		n := &ibsim.Node{ID: "H-h" + strconv.Itoa(p), GUID: g, Ports: 1, Links: map[int]ibsim.End{1: {Node: leaf.ID, Port: p}}}
		leaf.Links[p] = ibsim.End{Node: n.ID, Port: 1}
		topo.Nodes = append(topo.Nodes, n)
	}
	sim, err := ibsim.Start(ctx, dir, topo)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	}()
	compare(ctx, t, sim, c, filepath.Join(dir, "opensm.conf"))

	// Then masked VLs, truncated VLArb tables and the SM's own P_Keys,
	// changed out of band on the emulator and swept again by both.
	conf := "qos TRUE\nmax_op_vls 3\npartition_config_file /etc/opensm/p.conf\nqos_sl2vl 0,1,2,9,5,6,7,15,8,4,3,2,1,0,14,13\n" +
		"qos_vlarb_low 0:64,5:10,9:20,1:1,2:2,3:3,0:4,1:5,2:6,4:7\nqos_swe_vlarb_high 6:255,14:7\n"
	parts := "Default=0x7fff : ALL, SELF=full ;\nx=0x0005 : SELF=limited ;\ny=0x0006 : ALL_CAS=full ;\nz=0x0007 : ALL_SWITCHES=full ;\n"
	if err := s.OutOfBand([]string{"printf '%s' " + quote(conf) + " > /etc/opensm/masked.conf", "printf '%s' " + quote(parts) + " > /etc/opensm/p.conf",
		"cp -p -- /etc/opensm/masked.conf /etc/opensm/opensm.conf", "pkill -HUP -x opensm"}); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"masked.conf": conf, "p.conf": parts} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(text, "/etc/opensm", dir)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	compare(ctx, t, sim, c, filepath.Join(dir, "masked.conf"))
}

// compare sweeps once with the real OpenSM and compares smpquery's
// output on both sides.
func compare(ctx context.Context, t *testing.T, sim *ibsim.Sim, c cli.Session, conf string) {
	t.Helper()
	log, err := sim.OpenSM(ctx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log, "ERR ") {
		t.Fatalf("the real OpenSM logged an error:\n%s", log)
	}
	for _, q := range []string{"sl2vl 0", "vlarb 0", "pkeys 0", "sl2vl 0,1", "sl2vl 0,1 1", "sl2vl 0,1 2", "sl2vl 0,1 36",
		"vlarb 0,1 0", "vlarb 0,1 1", "vlarb 0,1 7", "vlarb 0,1 36"} {
		args := append([]string{"-D"}, strings.Fields(q)...)
		want, err := sim.Run(ctx, "smpquery", args...)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, c, "smpquery -D "+q, 0); got != want {
			t.Errorf("smpquery -D %s: the emulator prints\n%s\nthe real OpenSM under ibsim\n%s", q, got, want)
		}
	}
}
