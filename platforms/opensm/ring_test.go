package opensm

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibsim/ibsimtest"
	"github.com/fabricgen/fabricgen/schema"
)

// ringFabric is four switches in a ring, each with one host, sm01 on the
// first: no tree, so up/down root detection has nothing to go on.
func ringFabric() *schema.Fabric {
	f := &schema.Fabric{Name: "ring", LinkLayer: set(schema.LinkInfiniBand)}
	var sws []*schema.Device
	port := ibsimtest.Port
	for i := 1; i <= 4; i++ {
		s := &schema.Device{Name: fmt.Sprintf("sw%d", i), Kind: set(schema.KindLeaf), Platform: set(schema.Platform("ib_switch")), GUID: set(uint64(0x0002c90000000300 + i))}
		sws = append(sws, s)
		f.Devices = append(f.Devices, s)
	}
	for i, s := range sws {
		next := sws[(i+1)%4]
		f.Links = append(f.Links, &schema.Link{A: port(s, "2", 0), B: port(next, "3", 0)})
		kind, name := schema.KindNIC, fmt.Sprintf("host%d", i+1)
		if i == 0 {
			kind, name = schema.KindSubnetManager, "sm01"
		}
		h := &schema.Device{Name: name, Kind: set(kind)}
		f.Devices = append(f.Devices, h)
		f.Links = append(f.Links, &schema.Link{A: port(h, "ib0", uint64(0x0002c90300b00001+0x100*i)), B: port(s, "1", 0)})
	}
	f.Reindex()
	return f
}

// TestOpenSM_IBQ010_UpDownWithoutRootsFallsBack: updn without a root GUID
// file, and without no_fallback, on a topology that is not a tree: "no
// root nodes were found", minhop routes the fabric (credit loops
// possible), no error code is logged and OpenSM exits 0. ftree on the
// same ring logs ERR AB2B and falls back too; with no_fallback minhop does
// not take over and opensm -o never completes its sweep.
func TestOpenSM_IBQ010_UpDownWithoutRootsFallsBack(t *testing.T) {
	const minhop = "minhop tables configured on all switches"
	for _, c := range []struct {
		engine         string
		minhop, silent bool
	}{
		{"updn", true, true},
		{"ftree", true, false},
		{"updn,no_fallback", false, true},
	} {
		t.Run(c.engine, func(t *testing.T) {
			fs := files("", minimalPolicy, defaultPartition)
			fs[FileConf] = strings.Replace(fs[FileConf], "routing_engine ftree,no_fallback", "routing_engine "+c.engine, 1)
			l := newLab(t, ringFabric(), fs)
			if !c.minhop {
				// Nothing routes: opensm -o never finishes its sweep (a
				// routed sweep takes well under a second here).
				ctx, cancel := context.WithTimeout(l.ctx, 5*time.Second)
				defer cancel()
				log, err := l.sim.OpenSM(ctx, l.conf)
				if err == nil || strings.Contains(log, minhop) {
					t.Errorf("%s on a ring: sweep finished (err %v) or minhop routed:\n%s", c.engine, err, log)
				}
				return
			}
			log := l.sweep(t)
			if got := strings.Contains(log, minhop); got != c.minhop {
				t.Errorf("%s on a ring: minhop routed = %v, want %v:\n%s", c.engine, got, c.minhop, log)
			}
			if c.silent {
				noErrors(t, log)
			}
		})
	}
}
