package qosread_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestReaderRoundTrip: for every switch platform of the registry, each
// render of one of its devices (the example fabrics' goldens, each
// platform folder's fixture goldens, and testdata/perport rendered here) is read by the
// platform folder's reader twice: directly, and after the lab's emulator
// of the platform was started from it (lab up --running-config) and
// printed it back (Export: show running-config, what lab show prints and
// the lab's data plane reads). Both reads must give the same QoS facts,
// port by port, and the facts must be the intent's (checkIntent). A
// switch platform no render covers fails, named.
func TestReaderRoundTrip(t *testing.T) {
	root := filepath.Join("..", "..")
	covered := map[schema.Platform]int{}
	type source struct {
		label string
		f     *schema.Fabric
		// golden is the directory of the fabric's golden renders, ""
		// to render here.
		golden string
		// intent compares the reads with the intent (unlinked: the
		// ports without a link too).
		intent, unlinked bool
		// only, when set, is the one platform whose devices are read.
		only schema.Platform
	}
	var sources []source
	for _, ex := range readExamples {
		sources = append(sources, source{ex, loadExample(t, ex), filepath.Join(root, "templates", "testdata", "golden", ex), true, false, ""})
	}
	// Each platform folder's own fixture (platformtest) is not linted
	// (its ACLs re-mark on purpose): its reads are compared with each
	// other only. Only the folder's own devices are read from it, so a
	// copy of a folder (scripts/newplatform) is round-tripped too.
	for _, fx := range platformtest.All(root) {
		if fx.Platform.Reader == nil {
			continue // hosts
		}
		fab, err := fx.Load()
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, source{"platforms/" + fx.Platform.Folder, fab, fx.GoldenDir(), false, false, fx.Platform.Name})
	}
	perport, diags := schema.Load(filepath.Join("testdata", "perport"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	sources = append(sources, source{"perport", perport, "", true, true, ""})

	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range sources {
		for _, dev := range src.f.Devices {
			pl, ok := platforms.Get(dev.Platform.V)
			if !ok || pl.Reader == nil {
				continue // hosts; a switch without a reader fails TestReadsRenderedConfigs
			}
			if src.only != "" && dev.Platform.V != src.only {
				continue // a folder fixture's peers belong to their own folders
			}
			label := src.label + "/" + dev.Name
			var text string
			if src.golden != "" {
				b, err := os.ReadFile(filepath.Join(src.golden, dev.Name+"."+pl.Render.Ext))
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				text = string(b)
			} else {
				o, err := r.Render(src.f, dev)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				text = string(o.Text)
			}
			rendered, labRead, err := readBoth(pl, dev.Name, text)
			if err != nil {
				t.Errorf("%s: %v", label, err)
				continue
			}
			if diff := sameFacts(rendered, labRead); diff != "" {
				t.Errorf("%s: the render and the lab's show running-config read differently: %s", label, diff)
			}
			if src.intent {
				checkIntent(t, label+" (render)", src.f, dev, rendered, src.unlinked)
				checkIntent(t, label+" (lab)", src.f, dev, labRead, src.unlinked)
			}
			covered[dev.Platform.V]++
		}
	}
	for _, p := range platforms.All() {
		if p.Reader == nil {
			continue
		}
		if covered[p.Name] == 0 {
			t.Errorf("platforms/%s: no render of a %s device was round-tripped (add one to its folder's fixture, testdata/fabric)", p.Folder, p.Name)
		}
	}
	t.Logf("devices round-tripped per platform: %v", covered)
}

// TestPerPortQueueTreatment: two ports of one EOS device with different
// queue treatment (testdata/perport: Ethernet1 lossless with ECN on queue
// 3, Ethernet2 lossy without) read back different, from the render and
// from the lab.
func TestPerPortQueueTreatment(t *testing.T) {
	f, diags := schema.Load(filepath.Join("testdata", "perport"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev := f.Devices[0]
	pl, ok := platforms.Get(dev.Platform.V)
	if !ok || pl.Reader == nil {
		t.Fatalf("%s: no reader", dev.Platform.V)
	}
	o, err := r.Render(f, dev)
	if err != nil {
		t.Fatal(err)
	}
	rendered, labRead, err := readBoth(pl, dev.Name, string(o.Text))
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameFacts(rendered, labRead); diff != "" {
		t.Errorf("the render and the lab's show running-config read differently: %s", diff)
	}
	for name, q := range map[string]*qosread.Device{"render": rendered, "lab": labRead} {
		a, b := q.Port("Ethernet1"), q.Port("Ethernet2")
		if !a.PFC.Has(3) || !a.ECN[3] {
			t.Errorf("%s: Ethernet1 reads PFC %v, ECN %v; want priority 3 lossless, ECN on queue 3", name, a.PFC, a.ECN)
		}
		if b.PFC.Has(3) {
			t.Errorf("%s: Ethernet2 reads PFC %v; want priority 3 lossy (its own policy)", name, b.PFC)
		}
	}
	// EOS configures tx-queues per interface: Ethernet2's policy marks no
	// ECN on queue 3, so neither the render nor the lab may (the render
	// once gave every port the first port's queues).
	for name, q := range map[string]*qosread.Device{"render": rendered, "lab": labRead} {
		if q.Port("Ethernet2").ECN[3] {
			t.Errorf("%s: Ethernet2 marks ECN on queue 3; its policy does not", name)
		}
		if !q.Port("Ethernet1").ECN[3] {
			t.Errorf("%s: Ethernet1 does not mark ECN on queue 3; its policy does", name)
		}
	}
}

// readBoth reads text with the platform's reader, and again after the
// platform's lab emulator was started from it and printed it back.
func readBoth(pl platform.Platform, name, text string) (rendered, labRead *qosread.Device, err error) {
	rendered, err = pl.Reader(text)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the render: %w", err)
	}
	env := &cli.Env{Spec: cli.Spec{Name: name, Platform: pl.Name, RunningConfig: text}, Now: time.Now,
		AfterFunc: func(time.Duration, func()) func() { return func() {} }}
	em, err := pl.Emulator(env)
	if err != nil {
		return nil, nil, fmt.Errorf("starting the lab device from the render: %w", err)
	}
	labRead, err = pl.Reader(em.Export())
	if err != nil {
		return nil, nil, fmt.Errorf("reading the lab's running config: %w", err)
	}
	return rendered, labRead, nil
}

// sameFacts describes the first difference between two reads ("" when
// they are the same): the default port, then every port either names.
func sameFacts(a, b *qosread.Device) string {
	if !reflect.DeepEqual(a.Default, b.Default) {
		return fmt.Sprintf("default port %+v, then %+v", a.Default, b.Default)
	}
	names := a.PortNames()
	for _, n := range b.PortNames() {
		if a.Ports[n] == nil {
			names = append(names, n)
		}
	}
	for _, n := range names {
		if pa, pb := a.Port(n), b.Port(n); !reflect.DeepEqual(pa, pb) {
			return fmt.Sprintf("port %s %+v, then %+v", n, *pa, *pb)
		}
	}
	return ""
}
