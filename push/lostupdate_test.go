package push

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// lostUpdate is one platform's race of issue 21 item 2: another
// administrator changes a line fabricgen manages (an MTU fabricgen's change
// sets too) after apply read the device and before its change is
// committed.
type lostUpdate struct {
	// before is the line (as the device receives it) right before which
	// the other administrator's change lands.
	before string
	// theirs is their change, in ConfigureOutOfBand's form.
	theirs []string
	// kept matches the device's running config when their change is there.
	kept string
	// atStep, when set, arms the change when apply reaches that step
	// (for a line that also comes earlier, in apply's first read).
	atStep string
	// refusedByDevice: the device itself refuses their change while
	// fabricgen's transaction holds it (Junos configure exclusive).
	refusedByDevice bool
	// restoredByLines: fabricgen undid its committed change with derived
	// lines (as fabricgen rollback does), which leave the stanzas its
	// change created (EOS interface Ethernet2/1), empty: the device is
	// compared with the twin in the sections fabricgen manages and in
	// every other line, not byte for byte.
	restoredByLines bool
}

// lostUpdates are the races, per platform.
func lostUpdates() map[schema.Platform]lostUpdate {
	return map[schema.Platform]lostUpdate{
		schema.AristaEOS: {before: `^configure session fabricgen-\S+$`,
			theirs: []string{"interface Ethernet1/1", "   mtu 1500"}, kept: `(?m)^interface Ethernet1/1\n(   .*\n)*   mtu 1500$`},
		schema.CiscoNXOS: {before: `^configure terminal$`,
			theirs: []string{"interface Ethernet1/1", "  mtu 1500"}, kept: `(?m)^interface Ethernet1/1\n(  .*\n)*  mtu 1500$`},
		// After fabricgen's line for the port went in: theirs is the
		// last word, verify fails, and the checkpoint rollback would
		// erase it.
		schema.CiscoNXOS + "/after-ours": {before: `^interface Ethernet1/2$`,
			theirs: []string{"interface Ethernet1/1", "  mtu 1500"}, kept: `(?m)^interface Ethernet1/1\n(  .*\n)*  mtu 1500$`},
		schema.JuniperJunos: {before: `^configure exclusive$`,
			theirs: []string{"set interfaces et-0/0/0 mtu 1500"}, kept: `(?m)^    et-0/0/0 \{\n(        .*\n)*        mtu 1500;$`},
		schema.NvidiaCumulus: {before: `^nv set `,
			theirs: []string{"nv set interface swp1 link mtu 1500"}, kept: `(?m)^nv set interface swp1 link mtu 1500$`},
		// Hosts have no lock: each line's settings are read right
		// before it is sent (compare and set), and a restore keeps a
		// setting that holds neither the backup's value nor ours.
		// The same window on the platforms with a confirm timer: their
		// change lands after our commit, before verify reads the device.
		schema.AristaEOS + "/after-ours": {before: `^show running-config`, atStep: "verify", restoredByLines: true,
			theirs: []string{"interface Ethernet1/1", "   mtu 1500"}, kept: `(?m)^interface Ethernet1/1\n(   .*\n)*   mtu 1500$`},
		schema.JuniperJunos + "/after-ours": {before: `show configuration`, atStep: "verify", refusedByDevice: true,
			theirs: []string{"set interfaces et-0/0/0 mtu 1500"}, kept: `(?m)^    et-0/0/0 \{\n(        .*\n)*        mtu 1500;$`},
		schema.NvidiaCumulus + "/after-ours": {before: `^nv config show`, atStep: "verify", refusedByDevice: true,
			theirs: []string{"nv set interface swp1 link mtu 1500"}, kept: `(?m)^nv set interface swp1 link mtu 1500$`},
		schema.NvidiaMLNX: {before: `^ip link show dev ens1f0np0$`, atStep: "stage",
			theirs: []string{"ip link set dev ens1f0np0 mtu 1600"}, kept: `(?m)^netdev ens1f0np0\n(  .*\n)*  mtu 1600$`},
		schema.NvidiaMLNX + "/after-ours": {before: `^ethtool -A ens1f0np0`,
			theirs: []string{"ip link set dev ens1f0np0 mtu 1600"}, kept: `(?m)^netdev ens1f0np0\n(  .*\n)*  mtu 1600$`},
		schema.LinuxDCB: {before: `^ip link show dev enp65s0f0np0$`, atStep: "stage",
			theirs: []string{"ip link set dev enp65s0f0np0 mtu 1600"}, kept: `(?m)^netdev enp65s0f0np0\n(  .*\n)*  mtu 1600$`},
		schema.LinuxDCB + "/after-ours": {before: `^dcb pfc set dev enp65s0f0np0`,
			theirs: []string{"ip link set dev enp65s0f0np0 mtu 1600"}, kept: `(?m)^netdev enp65s0f0np0\n(  .*\n)*  mtu 1600$`},
		schema.SONiC: {before: `^sudo config apply-patch`,
			theirs: []string{`[{"op":"add","path":"/PORT/Ethernet0/mtu","value":"1500"}]`}, kept: `"Ethernet0": \{\n\s*("[a-z_]+": "[^"]*",\n\s*)*"mtu": "1500"`},
		// After config apply-patch took ours, before verify reads the
		// CONFIG_DB: theirs is the last word, verify fails, and config
		// rollback to the checkpoint would erase it.
		schema.SONiC + "/after-ours": {before: `^sonic-cfggen -d --print-data`, atStep: "verify",
			theirs: []string{`[{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"1500"}]`}, kept: `"Ethernet0": \{\n\s*("[a-z_]+": "[^"]*",\n\s*)*"mtu": "1500"`},
	}
}

// TestManagedLineChangedDuringStage (issue 21 item 2): another
// administrator changes a line fabricgen manages (mtu 1500 on a port
// whose MTU fabricgen's change sets) between apply's read and its commit.
// fabricgen must not overwrite it and report applied: the device ends
// with their change and nothing of ours, and the report says so (refused,
// never applied), on every platform.
func TestManagedLineChangedDuringStage(t *testing.T) {
	cases := platformCases(t)
	for _, name := range slices.Sorted(maps.Keys(lostUpdates())) {
		lu := lostUpdates()[name]
		var pc platformCase
		for _, c := range cases {
			if c.dev.platform == schema.Platform(strings.Split(string(name), "/")[0]) {
				pc = c
			}
		}
		t.Run(string(name), func(t *testing.T) {
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
				t.Fatalf("%q never reached the device: %s (%s)", lu.before, res[0].Status, res[0].Reason)
			}
			theirErr := armed.Wait(time.Second)
			t.Logf("%s: %s (their change: %v)", res[0].Status, res[0].Reason, theirErr)
			running := dev.RunningConfig()
			switch {
			case theirErr != nil && lu.refusedByDevice:
				// The device kept them out: ours may go on.
				if res[0].Status != StatusApplied {
					t.Errorf("%s (%s), want applied: their change was refused by the device", res[0].Status, res[0].Reason)
				}
				return
			case theirErr != nil:
				t.Fatalf("their change was refused: %v", theirErr)
			}
			if !regexp.MustCompile(lu.kept).MatchString(running) {
				t.Errorf("their change (%q) is not on the device any more: overwritten", lu.theirs)
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
			if err := td.ConfigureOutOfBand(lu.theirs); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(res[0].Reason, "rdma_cm kernel module stays loaded") {
				// Said in the result: the twin loads it too.
				if err := td.ConfigureOutOfBand([]string{"modprobe rdma_cm"}); err != nil {
					t.Fatal(err)
				}
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			if lu.restoredByLines {
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
		})
	}
}

// TestJunosHoldsTheExclusiveLock: fabricgen's Junos session enters
// `configure exclusive` (never the shared `configure`) and holds it from
// loading its statements until its commit is confirmed and read back, so
// another administrator's commit in that window is refused by the device
// itself ("configuration database locked") and ours applies.
func TestJunosHoldsTheExclusiveLock(t *testing.T) {
	for _, pc := range platformCases(t) {
		if pc.dev.platform != schema.JuniperJunos {
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
// once or when apply reaches lu.atStep.
func armLostUpdate(t *testing.T, dev *lab.Device, lu lostUpdate, opts *ApplyOptions) *lab.Armed {
	t.Helper()
	armed := new(lab.Armed)
	arm := func() {
		a, err := dev.Before(lu.before, lab.Happening{OutOfBand: lu.theirs})
		if err != nil {
			t.Error(err)
		}
		*armed = a
	}
	if lu.atStep == "" {
		arm()
		return armed
	}
	var once sync.Once
	opts.Events = func(e Event) {
		if e.Step == lu.atStep {
			once.Do(arm)
		}
	}
	return armed
}
