package push

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
)

// lostUpdate is one platform's race of issue 21 item 2: another
// administrator changes a line fabricgen manages (an MTU fabricgen's change
// sets too) after apply read the device and before its change is
// committed. A folder's races are its testdata/push/lostupdate.json.
type lostUpdate struct {
	// Name tells a platform's races apart ("" for the first).
	Name string `json:"name,omitempty"`
	// Before is the line (as the device receives it) right before which
	// the other administrator's change lands.
	Before string `json:"before"`
	// Theirs is their change, in ConfigureOutOfBand's form.
	Theirs []string `json:"theirs"`
	// Kept matches the device's running config when their change is there.
	Kept string `json:"kept"`
	// AtStep, when set, arms the change when apply reaches that step
	// (for a line that also comes earlier, in apply's first read).
	AtStep string `json:"at_step,omitempty"`
	// RefusedByDevice: the device itself refuses their change while
	// fabricgen's transaction holds it (Junos configure exclusive).
	RefusedByDevice bool `json:"refused_by_device,omitempty"`
	// RestoredByLines: fabricgen undid its committed change with derived
	// lines (as fabricgen rollback does), which leave the stanzas its
	// change created (EOS interface Ethernet2/1), empty: the device is
	// compared with the twin in the sections fabricgen manages and in
	// every other line, not byte for byte.
	RestoredByLines bool `json:"restored_by_lines,omitempty"`
}

// lostUpdates reads the case's races: at least one, each with a line to
// wait for, their change and how to see it kept.
func lostUpdates(pc platformCase) ([]lostUpdate, error) {
	var lus []lostUpdate
	if err := pc.fx.PushData("lostupdate", &lus); err != nil {
		return nil, err
	}
	if len(lus) == 0 {
		return nil, fmt.Errorf("platforms/%s: testdata/push/lostupdate.json has no race", pc.pl.Folder)
	}
	for _, lu := range lus {
		if lu.Before == "" || len(lu.Theirs) == 0 || lu.Kept == "" {
			return nil, fmt.Errorf("platforms/%s: testdata/push/lostupdate.json: race %q needs before, theirs and kept", pc.pl.Folder, lu.Name)
		}
	}
	return lus, nil
}

// TestManagedLineChangedDuringStage (issue 21 item 2): another
// administrator changes a line fabricgen manages (mtu 1500 on a port
// whose MTU fabricgen's change sets) between apply's read and its commit.
// fabricgen must not overwrite it and report applied: the device ends
// with their change and nothing of ours, and the report says so (refused,
// never applied), on every platform.
func TestManagedLineChangedDuringStage(t *testing.T) {
	for _, pc := range platformCases(t) {
		lus, err := lostUpdates(pc)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, lu := range lus {
			t.Run(strings.TrimSuffix(string(pc.dev.platform)+"/"+lu.Name, "/"), func(t *testing.T) { managedLineChangedDuringStage(t, pc, lu) })
		}
	}
}

func managedLineChangedDuringStage(t *testing.T, pc platformCase, lu lostUpdate) {
	r := newRig(t, pc.dev)
	dev := r.lab.Device(pc.dev.name)
	p := r.plan()
	opts := r.applyOpts()
	armed := armLostUpdate(t, dev, lu, &opts)
	res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !armed.Ran() {
		t.Fatalf("%q never reached the device: %s (%s)", lu.Before, res[0].Status, res[0].Reason)
	}
	theirErr := armed.Wait(time.Second)
	t.Logf("%s: %s (their change: %v)", res[0].Status, res[0].Reason, theirErr)
	running := dev.RunningConfig()
	switch {
	case theirErr != nil && lu.RefusedByDevice:
		// The device kept them out: ours may go on.
		if res[0].Status != StatusApplied {
			t.Errorf("%s (%s), want applied: their change was refused by the device", res[0].Status, res[0].Reason)
		}
		return
	case theirErr != nil:
		t.Fatalf("their change was refused: %v", theirErr)
	}
	if !regexp.MustCompile(lu.Kept).MatchString(running) {
		t.Errorf("their change (%q) is not on the device any more: overwritten", lu.Theirs)
	}
	if res[0].Status == StatusApplied {
		t.Fatalf("reported applied over another administrator's change to a managed line (%s)", res[0].Reason)
	}
	if res[0].Status != StatusRefused {
		t.Errorf("%s (%s), want refused", res[0].Status, res[0].Reason)
	}
	// Nothing of ours: the device equals a twin that started
	// alike and got only their change.
	twin := newRig(t, pc.dev)
	td := twin.lab.Device(pc.dev.name)
	if err := td.ConfigureOutOfBand(lu.Theirs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res[0].Reason, "rdma_cm kernel module stays loaded") {
		// Said in the result: the twin loads it too.
		if err := td.ConfigureOutOfBand([]string{"modprobe rdma_cm"}); err != nil {
			t.Fatal(err)
		}
	}
	dl, _ := platforms.Dialect(pc.dev.platform)
	if lu.RestoredByLines {
		cmp, err := config.CompareRestore(pc.dev.name, running, td.RunningConfig(), pc.dev.rendered, dl)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Changes.Empty() {
			t.Errorf("the managed sections after the refusal differ from before plus their change:\n%s", cmp.Diff.Text)
		}
		was, err1 := config.Unmanaged(td.RunningConfig(), pc.dev.rendered, "", dl)
		is, err2 := config.Unmanaged(running, pc.dev.rendered, "", dl)
		if err1 != nil || err2 != nil || was != is {
			t.Errorf("the lines fabricgen does not manage changed (%v, %v):\n%s", err1, err2, config.Unified("want", "got", was, is).Text)
		}
		return
	}
	sameConfig(t, dl, "the device after the refusal (want: as before, plus their change)", td.RunningConfig(), running)
}

// TestJunosHoldsTheExclusiveLock: fabricgen's Junos session enters
// `configure exclusive` (never the shared `configure`) and holds it from
// loading its statements until its commit is confirmed and read back, so
// another administrator's commit in that window is refused by the device
// itself ("configuration database locked") and ours applies.
func TestJunosHoldsTheExclusiveLock(t *testing.T) {
	for _, pc := range platformCases(t) {
		if pc.dialect().Transaction != dialect.TxnCommitConfirmed {
			continue
		}
		for _, at := range []string{`^show \| compare$`, `^commit confirmed `, `^run show configuration`, `^commit comment fabricgen-`, `^run show system commit`} {
			t.Run(at, func(t *testing.T) {
				r := newRig(t, pc.dev)
				dev := r.lab.Device(pc.dev.name)
				p := r.plan()
				armed, err := dev.Before(at, lab.Happening{OutOfBand: []string{"set interfaces et-0/0/0 mtu 1500"}})
				if err != nil {
					t.Fatal(err)
				}
				res, err := Apply(context.Background(), p, r.f, r.inputs, r.applyOpts())
				if err != nil {
					t.Fatal(err)
				}
				if !armed.Ran() {
					t.Fatalf("%q never reached the device", at)
				}
				theirErr := armed.Wait(time.Second)
				if theirErr == nil || !regexp.MustCompile(`locked`).MatchString(theirErr.Error()) {
					t.Errorf("another administrator's commit at %q: %v, want refused (configuration database locked)", at, theirErr)
				}
				if res[0].Status != StatusApplied {
					t.Errorf("%s (%s), want applied", res[0].Status, res[0].Reason)
				}
				for _, h := range dev.History() {
					if h == "configure" || h == "configure private" {
						t.Errorf("fabricgen entered %q, not configure exclusive", h)
					}
				}
			})
		}
	}
}

// armLostUpdate arms the other administrator's change of lu on dev, at
// once or when apply reaches lu.AtStep.
func armLostUpdate(t *testing.T, dev *lab.Device, lu lostUpdate, opts *ApplyOptions) *lab.Armed {
	t.Helper()
	armed := new(lab.Armed)
	arm := func() {
		a, err := dev.Before(lu.Before, lab.Happening{OutOfBand: lu.Theirs})
		if err != nil {
			t.Error(err)
		}
		*armed = a
	}
	if lu.AtStep == "" {
		arm()
		return armed
	}
	var once sync.Once
	opts.Events = func(e Event) {
		if e.Step == lu.AtStep {
			once.Do(arm)
		}
	}
	return armed
}
