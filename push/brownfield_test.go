package push

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// Brownfield devices (issue 10): every platform of the registry starts
// its folder's seat of the shared clos fabric from the seat's realistic
// existing configuration (platforms/<f>/testdata/push/brownfield.<ext>, in
// the form `fabricgen lab up --running-config` reads) and gets the seat's
// render. The plan may show only what fabricgen manages, apply converges,
// the second plan is empty, everything fabricgen does not manage is
// byte-identical afterwards, and configuration that conflicts with the
// intent is taken over: shown in the plan as removed or replaced, and gone
// after apply. What each platform shows and does is in its folder's
// testdata/push/takeover.json (takeoverData).

// takeoverData is a platform folder's brownfield takeover
// (testdata/push/takeover.json). Patterns over state lines match the
// device's configuration as the change matrix's do (matrixExpect): one
// line per statement qualified by its parents ("interface Ethernet1/1 >
// service-profile QP-STORAGE"), CONFIG_DB as "TABLE|key|field = value", a
// host's NIC state as "netdev X > setting".
type takeoverData struct {
	// Why says what the platform takes over and why (checks nothing).
	Why string `json:"why,omitempty"`
	// NotInPlan are strings of the existing configuration that fabricgen
	// does not manage: none may appear in the plan's diff.
	NotInPlan []string `json:"not_in_plan"`
	// HostManaged (hosts) match the state lines the rendered script sets;
	// every other line is the NIC's own.
	HostManaged []string `json:"host_managed,omitempty"`
	// TakenOver match existing state lines that the issue says the
	// intent takes over although today's dialect does not manage them
	// (they are left out of the byte-identical comparison).
	TakenOver []string `json:"taken_over,omitempty"`
	// Takeover is what the plan and the device show of the configuration
	// that conflicts with the intent.
	Takeover takeoverExpect `json:"takeover"`
}

// takeoverExpect proves the conflicting configuration is shown removed in
// the plan and gone after apply.
type takeoverExpect struct {
	// Minus and Plus are whole lines (without the diff's sign and
	// indentation) the plan's diff must remove / add.
	Minus []string `json:"minus,omitempty"`
	Plus  []string `json:"plus,omitempty"`
	// Gone match state lines before apply and none after; Now match none
	// before and some after; Kept match before and after.
	Gone []string `json:"gone,omitempty"`
	Now  []string `json:"now,omitempty"`
	Kept []string `json:"kept,omitempty"`
	// Removed match state lines before apply: each such line must be a
	// removed line of the plan's diff, exactly, and gone after apply (at
	// least one line must match; for platforms whose diff prints state
	// lines: CONFIG_DB fields, set statements).
	Removed []string `json:"removed,omitempty"`
	// Section (set-form platforms) is a statement prefix: every existing
	// line with it that the render does not have must be a removed line
	// of the diff and gone after apply (at least one).
	Section string `json:"section,omitempty"`
	// Exactly maps a pattern to the state lines matching it after apply,
	// all of them, in order.
	Exactly map[string][]string `json:"exactly,omitempty"`
}

// brownfieldCase is one platform's existing device: its seat, rendered
// by the clos fabric with the platform in it.
type brownfieldCase struct {
	md   matrixDevice
	dev  testDevice
	data takeoverData
}

// brownfieldCases returns every registry platform's brownfield case, in
// registry order; it fails naming every folder without usable data.
func brownfieldCases(t *testing.T) []brownfieldCase {
	t.Helper()
	var out []brownfieldCase
	var problems []string
	for _, md := range matrixDevices(t) {
		var d takeoverData
		if err := md.fx.PushData("takeover", &d); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if err := checkTakeoverData(md, d); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		in := loadMatrixIntent(t, md, nil)
		out = append(out, brownfieldCase{md: md, data: d,
			dev: testDevice{name: md.name, platform: md.platform, rendered: in.rendered[md.name], ports: md.ports, running: md.brownfield(t)}})
	}
	if len(problems) > 0 {
		t.Fatalf("brownfield takeover data:\n%s", strings.Join(problems, "\n"))
	}
	return out
}

// checkTakeoverData: the patterns compile, a host names what its script
// sets, and the takeover proves something.
func checkTakeoverData(md matrixDevice, d takeoverData) error {
	e := d.Takeover
	var problems []string
	var patterns []string
	for _, ps := range [][]string{d.HostManaged, d.TakenOver, e.Gone, e.Now, e.Kept, e.Removed} {
		patterns = append(patterns, ps...)
	}
	for p := range e.Exactly {
		patterns = append(patterns, p)
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if md.host != (len(d.HostManaged) > 0) {
		problems = append(problems, "host_managed is for hosts, and a host needs it")
	}
	if len(d.NotInPlan) == 0 || len(e.Minus)+len(e.Removed)+len(e.Section) == 0 || len(e.Gone)+len(e.Now)+len(e.Removed)+len(e.Section)+len(e.Exactly) == 0 {
		problems = append(problems, "the takeover must name unmanaged strings, something the plan removes and something the device loses or gains")
	}
	if len(problems) > 0 {
		return fmt.Errorf("platforms/%s/testdata/push/takeover.json: %s", md.fx.Platform.Folder, strings.Join(problems, "; "))
	}
	return nil
}

func newBrownfieldRig(t *testing.T, d testDevice, running string) *rig {
	t.Helper()
	d.running = running
	r := newRig(t, d)
	r.opts.Parallelism = 1
	return r
}

// TestBrownfieldRoundTrip: the lab loads every brownfield file and prints
// it back byte for byte (NX-OS: but for the times in its header); a host's
// file is replayed, and its state printed as commands replays to the same
// state.
func TestBrownfieldRoundTrip(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			text := dev.running
			start := func(running string) *lab.Device {
				l, err := lab.Start(context.Background(), []lab.DeviceSpec{{Name: dev.name, Platform: dev.platform, Username: "admin",
					Password: testSecret, Ports: dev.ports, RunningConfig: running}}, lab.Options{Dir: t.TempDir()})
				if err != nil {
					t.Fatalf("lab.Start: %v", err)
				}
				t.Cleanup(func() { _ = l.Close() })
				return l.Device(dev.name)
			}
			d := start(text)
			if bc.md.host {
				again := start(d.Export())
				if a, b := d.RunningConfig(), again.RunningConfig(); a != b {
					t.Fatalf("replaying the host's export gives another state:\n%s", config.Unified("file", "export", a, b).Text)
				}
				return
			}
			if got, want := stripHeaderTimes(d.Export()), stripHeaderTimes(text); got != want {
				t.Errorf("the lab does not print the file back:\n%s", config.Unified("file", "export", want, got).Text)
			}
		})
	}
}

var reHeaderTime = regexp.MustCompile(`(?m)^!(Time:|Running configuration last done at:).*\n`)

func stripHeaderTimes(s string) string { return reHeaderTime.ReplaceAllString(s, "") }

// TestBrownfieldTakeover plans and applies each platform's render onto its
// brownfield device.
func TestBrownfieldTakeover(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			r := newBrownfieldRig(t, dev, dev.running)
			d := r.lab.Device(dev.name)
			dl := bc.md.fx.Platform.Dialect()
			before := brownfieldState(d, dl)
			keep := unmanaged(t, bc, dl, before)
			if len(keep) == 0 {
				t.Fatal("the brownfield configuration has no unmanaged lines: the test would prove nothing")
			}

			p := r.plan()
			pd := p.Devices[0]
			if pd.Status != planfile.StatusChange {
				t.Fatalf("first plan: status %s (%s), want change", pd.Status, pd.Error)
			}
			checkPlanManagedOnly(t, bc, dl, pd.Diff.Text, keep)

			res := r.apply(p, t.TempDir())
			if res[0].Status != StatusApplied {
				t.Fatalf("apply: %s: %s", res[0].Status, res[0].Reason)
			}
			p2 := r.plan()
			if d2 := p2.Devices[0]; d2.Status != planfile.StatusUnchanged || d2.Diff.Text != "" {
				t.Errorf("second plan: status %s (%s), diff:\n%s", d2.Status, d2.Error, d2.Diff.Text)
			}
			after := brownfieldState(d, dl)
			if got := unmanaged(t, bc, dl, after); strings.Join(got, "\n") != strings.Join(keep, "\n") {
				t.Errorf("lines fabricgen does not manage changed:\n%s",
					config.Unified("before", "after", strings.Join(keep, "\n")+"\n", strings.Join(got, "\n")+"\n").Text)
			}

			// Issue 10: conflicting configuration is taken over by default.
			t.Run("takeover", func(t *testing.T) { checkTakeover(t, bc, dl, pd.Diff.Text, before, after) })
		})
	}
}

// brownfieldState is the device's configuration in the form compared:
// the exported form for switches (Junos as set statements), the NIC state
// dump for hosts.
func brownfieldState(d *lab.Device, dl *dialect.Dialect) string {
	if dl.Host {
		return d.RunningConfig()
	}
	// NX-OS heads its running config with "!Time: <now>": the clock, not
	// the configuration.
	lines := strings.Split(d.Export(), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "!Time: ") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// unmanaged lists, in order, the lines of a device's configuration that
// fabricgen does not manage for this render (qualified by their parents,
// "interface Ethernet1/1 > description ..."), per docs/push.md: lines of no
// managed section; named objects the render does not define (and whose
// name is not fabricgen's); interfaces the render does not mention, and in
// those it does, the lines other than the managed children. Lines the
// issue says the intent takes over are left out.
func unmanaged(t *testing.T, bc brownfieldCase, dl *dialect.Dialect, text string) []string {
	t.Helper()
	switch {
	case dl.Host:
		var out []string
		managed := compileAll(bc.data.HostManaged...)
		for _, l := range qualified(config.Parse(text, dl).Nodes, nil) {
			if !matchesAny(l, managed) {
				out = append(out, l)
			}
		}
		return out
	case dl.ConfigDB:
		// What the switch derives itself (buffermgrd's lossless PGs)
		// is nobody's change (dialect.Derived).
		var out []string
		for _, l := range unmanagedDB(t, bc, text) {
			if !matchesAny(l, dl.Derived) {
				out = append(out, l)
			}
		}
		return out
	}
	takenOver := compileAll(bc.data.TakenOver...)
	rendered := config.Parse(bc.dev.rendered, dl)
	names, headers := map[int]map[string]bool{}, map[string]bool{}
	for _, n := range rendered.Nodes {
		i, name := sectionOf(n.Line, dl)
		if i < 0 {
			continue
		}
		if names[i] == nil {
			names[i] = map[string]bool{}
		}
		names[i][name] = true
		headers[n.Line] = true
	}
	var out []string
	emit := func(ns []*config.Node, parents []string) {
		for _, l := range qualified(ns, parents) {
			if !matchesAny(l, takenOver) {
				out = append(out, l)
			}
		}
	}
	for _, n := range config.Parse(text, dl).Nodes {
		i, name := sectionOf(n.Line, dl)
		if i < 0 {
			emit([]*config.Node{n}, nil)
			continue
		}
		s := dl.Sections[i]
		switch {
		case s.Named && !names[i][name] && (dl.OwnedNames == nil || !dl.OwnedNames.MatchString(name)):
			emit([]*config.Node{n}, nil)
		case s.Shared && !headers[n.Line]:
			emit([]*config.Node{n}, nil)
		case s.Shared:
			emit([]*config.Node{{Line: n.Line}}, nil)
			for _, c := range n.Children {
				if !matchesAny(c.Line, s.Children) {
					emit([]*config.Node{c}, []string{n.Line})
				}
			}
		}
	}
	return out
}

func sectionOf(line string, dl *dialect.Dialect) (int, string) {
	for i, s := range dl.Sections {
		if m := s.Match.FindStringSubmatch(line); m != nil {
			if len(m) > 1 {
				return i, m[1]
			}
			return i, ""
		}
	}
	return -1, ""
}

func matchesAny(line string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// qualified flattens nodes into lines prefixed by their parents.
func qualified(ns []*config.Node, parents []string) []string {
	var out []string
	for _, n := range ns {
		path := append(append([]string(nil), parents...), n.Line)
		out = append(out, strings.Join(path, " > "))
		out = append(out, qualified(n.Children, path)...)
	}
	return out
}

// sonicOwned are the tables whose rendered keys fabricgen owns whole
// (docs/push.md).
var sonicOwned = map[string]bool{"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true,
	"TC_TO_PRIORITY_GROUP_MAP": true, "MAP_PFC_PRIORITY_TO_QUEUE": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true,
	"TC_TO_DSCP_MAP": true, "WRED_PROFILE": true, "SCHEDULER": true}

// dbFields flattens CONFIG_DB JSON into sorted "TABLE|key|field = value"
// lines ("TABLE|key" for an entry without fields).
func dbFields(t *testing.T, text string) map[string]string {
	t.Helper()
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &db); err != nil {
		t.Fatalf("CONFIG_DB: %v", err)
	}
	out := map[string]string{}
	for tb, keys := range db {
		for k, fs := range keys {
			if len(fs) == 0 {
				out[tb+"|"+k] = ""
			}
			for f, v := range fs {
				out[tb+"|"+k+"|"+f] = fmt.Sprint(v)
			}
		}
	}
	return out
}

func unmanagedDB(t *testing.T, bc brownfieldCase, text string) []string {
	takenOver := compileAll(bc.data.TakenOver...)
	rendered := dbFields(t, bc.dev.rendered)
	renderedKeys := map[string]bool{}
	for f := range rendered {
		p := strings.Split(f, "|")
		renderedKeys[strings.Join(p[:len(p)-1], "|")] = true
	}
	var out []string
	for f, v := range dbFields(t, text) {
		p := strings.Split(f, "|")
		if _, ours := rendered[f]; ours || sonicOwned[p[0]] && renderedKeys[strings.Join(p[:len(p)-1], "|")] {
			continue
		}
		if matchesAny(f+" = "+v, takenOver) {
			continue
		}
		out = append(out, f+" = "+v)
	}
	sort.Strings(out)
	return out
}

// checkPlanManagedOnly: no line fabricgen does not manage appears in the
// plan, by the device's qualified lines and by the case's spot checks.
func checkPlanManagedOnly(t *testing.T, bc brownfieldCase, dl *dialect.Dialect, diff string, keep []string) {
	t.Helper()
	for _, s := range bc.data.NotInPlan {
		if strings.Contains(diff, s) {
			t.Errorf("the plan shows %q, which fabricgen does not manage", s)
		}
	}
	changed := map[string]bool{}
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed[strings.TrimSpace(l[1:])] = true
		}
	}
	for _, k := range keep {
		// A top-level unmanaged line (a SONiC field) must never be a
		// changed line; a nested one may share its text with a managed
		// line elsewhere (a qos profile's "no priority" and an
		// interface tx-queue's), so nested lines are left to the
		// qualified comparison after apply.
		if !dl.Host && !strings.Contains(k, " > ") && changed[k] {
			t.Errorf("the plan changes %q, which fabricgen does not manage", k)
		}
	}
}

// checkTakeover checks the plan's diff and the device before and after
// apply against the folder's takeover expectation.
func checkTakeover(t *testing.T, bc brownfieldCase, dl *dialect.Dialect, diff, before, after string) {
	e := bc.data.Takeover
	removed, added := matrixDiffLines(diff)
	trim := func(ls []string) map[string]bool {
		out := map[string]bool{}
		for _, l := range ls {
			out[strings.TrimSpace(l)] = true
		}
		return out
	}
	rm, add := trim(removed), trim(added)
	for _, l := range e.Minus {
		if !rm[l] {
			t.Errorf("the plan does not show %q removed", l)
		}
	}
	for _, l := range e.Plus {
		if !add[l] {
			t.Errorf("the plan does not show %q added", l)
		}
	}
	bl, al := takeoverStateLines(t, dl, before), takeoverStateLines(t, dl, after)
	checkGoneNowKept(t, e.Gone, e.Now, e.Kept, bl, al)
	exactRemoved := map[string]bool{}
	for _, l := range removed {
		exactRemoved[l] = true
	}
	afterSet := map[string]bool{}
	for _, l := range al {
		afterSet[l] = true
	}
	takenOver := func(what string, lines []string) {
		if len(lines) == 0 {
			t.Errorf("the brownfield configuration has no %s to take over", what)
		}
		for _, l := range lines {
			if !exactRemoved[l] {
				t.Errorf("the plan does not show the existing %q removed", l)
			}
			if afterSet[l] {
				t.Errorf("%q is still there after apply", l)
			}
		}
	}
	if len(e.Removed) > 0 {
		res := compileAll(e.Removed...)
		var lines []string
		for _, l := range bl {
			if matchesAny(l, res) {
				lines = append(lines, l)
			}
		}
		takenOver(fmt.Sprintf("lines matching %q", e.Removed), lines)
	}
	if e.Section != "" {
		ours := trim(strings.Split(bc.dev.rendered, "\n"))
		var lines []string
		for _, l := range strings.Split(before, "\n") {
			if strings.HasPrefix(l, e.Section) && !ours[l] {
				lines = append(lines, l)
			}
		}
		takenOver(e.Section+"... lines", lines)
	}
	for p, want := range e.Exactly {
		var got []string
		re := regexp.MustCompile(p)
		for _, l := range al {
			if re.MatchString(l) {
				got = append(got, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("after apply the lines matching %q are %q, want %q", p, got, want)
		}
	}
}

// takeoverStateLines is a device's state as the takeover's patterns see
// it: CONFIG_DB fields ("TABLE|key|field = value", sorted), otherwise the
// lines qualified by their parents.
func takeoverStateLines(t *testing.T, dl *dialect.Dialect, text string) []string {
	t.Helper()
	if dl.ConfigDB {
		var out []string
		for k, v := range dbFields(t, text) {
			out = append(out, k+" = "+v)
		}
		sort.Strings(out)
		return out
	}
	return qualified(config.Parse(text, dl).Nodes, nil)
}

// TestNoTakeover: with --no-takeover, a brownfield device whose change
// would remove or replace lines fabricgen did not create is reported by
// plan (naming the lines) and refused by apply, untouched; once fabricgen
// applied it, its own lines are no takeover.
func TestNoTakeover(t *testing.T) {
	for _, bc := range brownfieldCases(t) {
		dev := bc.dev
		t.Run(string(dev.platform), func(t *testing.T) {
			r := newBrownfieldRig(t, dev, dev.running)
			ldev := r.lab.Device(dev.name)
			before := ldev.RunningConfig()
			r.opts.NoTakeover = true
			p := r.plan()
			d := p.Devices[0]
			if d.Status != planfile.StatusError || !strings.Contains(d.Error, "--no-takeover") || !strings.Contains(d.Error, "fabricgen did not create") {
				t.Fatalf("plan --no-takeover: %s (%s)", d.Status, d.Error)
			}
			// apply of a plan made without the flag, with the flag:
			// refused, nothing sent.
			r.opts.NoTakeover = false
			p = r.plan()
			if len(p.Devices[0].Takeover) == 0 {
				t.Fatal("the plan lists no takeover lines")
			}
			opts := r.applyOpts()
			opts.NoTakeover = true
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusRefused {
				t.Fatalf("apply --no-takeover: %s (%s)", res[0].Status, res[0].Reason)
			}
			dl := bc.md.fx.Platform.Dialect()
			sameConfig(t, dl, "a refused device changed", before, ldev.RunningConfig())
			// Taken over once, the device's lines are fabricgen's: a
			// second change with --no-takeover goes through.
			if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
				t.Fatalf("apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			r.opts.NoTakeover = true
			if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged || len(d.Takeover) != 0 {
				t.Errorf("plan --no-takeover after the takeover: %s (%s) %v", d.Status, d.Error, d.Takeover)
			}
		})
	}
}

// TestNoTakeoverFactory: a device fresh from the factory holds nobody's
// configuration, so --no-takeover plans and applies it on every platform.
// A host's MTU 1500, trust pcp or "vendor" TSAs and a SONiC port's MTU
// 9100 or 5m cable length are the factory's values: before, every host
// and a factory SONiC switch were refused ("would remove or replace 10
// line(s) fabricgen did not create: ens1f0np0 mtu = 1500; …").
//
// A CONFIG_DB port's speed is its hardware's: the lab's factory ports are
// 400G, and a render of another speed (the fixture's 100G and 25G ports)
// changes a setting the factory made, which --no-takeover rightly
// refuses; those ports are rendered at the factory speed here.
var reDBSpeed = regexp.MustCompile(`"speed": "\d+"`)

func TestNoTakeoverFactory(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			if pc.dialect().ConfigDB {
				pc.dev.rendered = reDBSpeed.ReplaceAllString(pc.dev.rendered, `"speed": "400000"`)
			}
			r := newRig(t, pc.dev)
			r.opts.NoTakeover = true
			p := r.plan()
			if d := p.Devices[0]; d.Status != planfile.StatusChange || len(d.Takeover) != 0 {
				t.Fatalf("plan --no-takeover of a factory device: %s (%s) takeover %q", d.Status, d.Error, d.Takeover)
			}
			opts := r.applyOpts()
			opts.NoTakeover = true
			res, err := Apply(context.Background(), p, r.f, r.inputs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != StatusApplied {
				t.Fatalf("apply --no-takeover of a factory device: %s (%s)", res[0].Status, res[0].Reason)
			}
		})
	}
	// A value that is not the factory's is still a takeover: the same
	// host with an MTU someone set.
	for _, pc := range casesWhere(t, "a host", func(pc platformCase) bool { return pc.pl.Spec.Host }) {
		t.Run(string(pc.dev.platform)+"/mtu-set", func(t *testing.T) {
			port := pc.dev.ports[0]
			r := newRig(t, pc.dev)
			if err := r.lab.Device(pc.dev.name).ConfigureOutOfBand([]string{"ip link set dev " + port + " mtu 9000"}); err != nil {
				t.Fatal(err)
			}
			r.opts.NoTakeover = true
			if d := r.plan().Devices[0]; d.Status != planfile.StatusError || !strings.Contains(d.Error, port+" mtu = 9000") {
				t.Errorf("plan --no-takeover of a host with MTU 9000: %s (%s), want refused naming it", d.Status, d.Error)
			}
		})
	}
}

func mustDialect(p schema.Platform) *dialect.Dialect {
	d, err := platforms.Dialect(p)
	if err != nil {
		panic(err)
	}
	return d
}
