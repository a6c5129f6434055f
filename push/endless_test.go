package push

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// peakHeap samples the live heap every 10ms until the returned function
// is called, which returns the largest sample.
func peakHeap() func() uint64 {
	var mu sync.Mutex
	var peak uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// TestEndlessDevicesFailAlone: with --parallelism 16, five devices whose
// answers never end (the lab's stream fault: four EOS switches on show
// running-config, one host on its read-backs) fail in plan, each with
// the output limit and the command named, within seconds and with the
// live heap bounded by a few copies of the limit per endless device,
// while one device of every platform plans; then, with the switches
// streaming only once the plan is made, apply fails them at the re-fetch
// (nothing sent) and applies the others.
func TestEndlessDevicesFailAlone(t *testing.T) {
	const limit = 8 << 20
	var devs []testDevice
	// One device of every platform, each named for its place in the
	// registry (a copied folder's device has its original's name).
	for i, pc := range platformCases(t) {
		dev := pc.dev
		dev.name = fmt.Sprintf("dev%d-%s", i+1, pc.dev.name)
		devs = append(devs, dev)
	}
	// The endless switches are copies of the registry's first switch
	// that streams its running config ("show running-config"), the
	// endless host a copy of its first host.
	sw := caseWhere(t, "a switch that shows its running config", func(pc platformCase) bool {
		return !pc.pl.Spec.Host && strings.HasPrefix(pc.dialect().ShowRunning, "show running-config")
	})
	show := sw.dialect().ShowRunning
	endless := map[string]string{}
	for i := range 4 {
		dev := sw.dev
		dev.name = fmt.Sprintf("endless%d", i+1)
		devs = append(devs, dev)
		endless[dev.name] = "^" + regexp.QuoteMeta(show)
	}
	nic := caseWhere(t, "a host", func(pc platformCase) bool { return pc.pl.Spec.Host }).dev
	nic.name = "endless-nic"
	devs = append(devs, nic)
	endless["endless-nic"] = "^(mlnx_qos|cat|ip|ethtool|cma_roce|dcb) "
	r := newRig(t, devs...)
	r.opts.Parallelism = 16
	r.opts.MaxOutput = limit
	for name, re := range endless {
		r.lab.Device(name).SetFault(lab.Fault{Stream: re})
	}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := peakHeap()
	start := time.Now()
	p, err := Plan(context.Background(), r.f, r.inputs, "test", r.opts)
	took := time.Since(start)
	grew := int64(peak()) - int64(before.HeapAlloc)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("plan took %s; the live heap grew by %d MiB at most", took.Round(time.Millisecond), grew>>20)
	for _, d := range p.Devices {
		if _, ok := endless[d.Name]; ok {
			if d.Status != planfile.StatusError || !strings.Contains(d.Error, "the device sent more than 8 MiB in answer to") {
				t.Errorf("%s: %s %q, want the output limit", d.Name, d.Status, d.Error)
			}
			continue
		}
		if d.Status != planfile.StatusChange {
			t.Errorf("%s: %s %s", d.Name, d.Status, d.Error)
		}
	}
	if took > 2*time.Minute {
		t.Errorf("plan took %s", took)
	}
	// Each endless device holds its output at most a few times over
	// (scrapligo's queue and its doubling read buffer), and the lab
	// serving them runs in this process too.
	if max := int64(len(endless)) * 8 * limit; grew > max {
		t.Errorf("the live heap grew by %d MiB, more than %d MiB", grew>>20, max>>20)
	}

	// Apply: the endless switches stream only from now, at the re-fetch.
	for name := range endless {
		r.lab.Device(name).ClearFault()
	}
	p = r.plan()
	for i := range 4 {
		r.lab.Device(fmt.Sprintf("endless%d", i+1)).SetFault(lab.Fault{Stream: "^" + regexp.QuoteMeta(show)})
	}
	res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res {
		switch {
		case strings.HasPrefix(x.Device, "endless") && x.Device != "endless-nic":
			if x.OK() || !strings.Contains(x.Reason, "the device sent more than 8 MiB in answer to "+strconv.Quote(show)) {
				t.Errorf("%s: %s %q, want the output limit", x.Device, x.Status, x.Reason)
			}
			if x.Backup != "" {
				t.Errorf("%s: a backup was taken of a device that never answered", x.Device)
			}
		case !x.OK():
			t.Errorf("%s: %s %s", x.Device, x.Status, x.Reason)
		}
	}
}
