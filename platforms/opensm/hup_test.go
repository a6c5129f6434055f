package opensm_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/ibsim/ibsimtest"
	"github.com/fabricgen/fabricgen/internal/testtool"
)

// TestOpenSMRereadsOnSIGHUP: what the file swap's verify relies on, seen
// with the real OpenSM under ibsim. On SIGHUP OpenSM re-reads opensm.conf,
// sweeps, programs the new SL-to-VL table, and logs SUBNET UP at its
// default level once the sweep is done (so verify can stop waiting for a
// table that will not come).
func TestOpenSMRereadsOnSIGHUP(t *testing.T) {
	for bin, pkg := range ibsim.Binaries {
		testtool.Need(t, bin, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topo, err := ibsim.FromFabric(ibsimtest.OneLeaf())
	if err != nil {
		t.Fatal(err)
	}
	sim, err := ibsim.Start(ctx, t.TempDir(), topo)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	conf := filepath.Join(sim.Dir, "opensm.conf")
	write := func(sl2vl string) {
		if err := os.WriteFile(conf, []byte("qos TRUE\nqos_max_vls 4\nqos_ca_sl2vl "+sl2vl+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	caSL2VL := func() [16]int {
		out, err := sim.Run(ctx, "smpquery", "-D", "sl2vl", topo.Node("H-gpu01-ib0").DR)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := ibsim.ParseSL2VL(out)
		if err != nil {
			t.Fatal(err)
		}
		return rows[ibsim.PortPair{}]
	}
	write("0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0")
	log, err := sim.StartOpenSM(ctx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if got := caSL2VL(); got != [16]int{0, 1, 2, 3} {
		t.Fatalf("CA SL2VL at start %v", got)
	}
	before, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	write("0,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0")
	if err := sim.HUP(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b[len(before):]), "SUBNET UP") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no SUBNET UP in OpenSM's log within 30 s of SIGHUP:\n%s", b[len(before):])
		}
	}
	if got := caSL2VL(); got != [16]int{0, 1, 1, 1} {
		t.Errorf("CA SL2VL after SIGHUP and SUBNET UP = %v, want the re-read file's 0,1,1,1", got)
	}
}
