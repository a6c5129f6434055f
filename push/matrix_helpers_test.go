package push

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// The change matrix's plumbing: the fixture fabric and its textual
// mutations, one lab device per platform, and the checks of a plan's diff
// and change set.

// matrixFixture is the fabric every mutation edits.
const matrixFixture = "../internal/platformtest/testdata/clos"

// matrixPasswordEnv is the variable the fixture's credentials name.
const matrixPasswordEnv = "FABRICGEN_PASSWORD"

// matrixDevice is the fixture's device the matrix tests for a platform.
type matrixDevice struct {
	name     string
	platform schema.Platform
	// ports are a host's netdevs (the lab creates them).
	ports []string
}

// matrixDevices: one per platform, each one the brownfield corpus has a
// configuration for (testdata/brownfield/<name>.*), so the device starts
// with years of configuration fabricgen does not manage.
var matrixDevices = []matrixDevice{
	{name: "leaf1", platform: aristaEOS},
	{name: "leaf2", platform: ciscoNXOS},
	{name: "spine1", platform: juniperJunos},
	{name: "leaf4", platform: nvidiaCumulus},
	{name: "leaf3", platform: sonicOS},
	{name: "nic01", platform: nvidiaMLNX, ports: []string{"ens1f0np0", "ens1f1np1"}},
	{name: "nic02", platform: linuxDCB, ports: []string{"enp65s0f0np0", "enp65s0f1np1"}},
}

// fixtureEdit is one textual change of a fixture file: every occurrence of old
// (which must occur) becomes new; old "" with new "" deletes the file,
// old "" with new text creates it.
type fixtureEdit struct {
	file, old, new string
}

// matrixIntent is the fixture after a mutation's edits, loaded and rendered for
// the matrix's devices.
type matrixIntent struct {
	f        *schema.Fabric
	rendered map[string]string
	// renderErr holds the render error of a device that cannot express the
	// intent.
	renderErr map[string]error
}

// loadMatrixIntent copies the fixture, applies the edits, loads the fabric and
// renders the matrix's devices.
func loadMatrixIntent(t *testing.T, edits []fixtureEdit) *matrixIntent {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(matrixFixture, "*.fab.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture files in %s: %v", matrixFixture, err)
	}
	text := map[string]string{}
	for _, p := range files {
		text[filepath.Base(p)] = readFile(t, p)
	}
	for _, e := range edits {
		cur, ok := text[e.file]
		switch {
		case e.old == "" && e.new == "":
			if !ok {
				t.Fatalf("edit deletes %s, which the fixture does not have", e.file)
			}
			delete(text, e.file)
		case e.old == "":
			if ok {
				t.Fatalf("edit creates %s, which the fixture already has", e.file)
			}
			text[e.file] = e.new
		default:
			if !strings.Contains(cur, e.old) {
				t.Fatalf("edit of %s: %q does not occur", e.file, e.old)
			}
			text[e.file] = strings.ReplaceAll(cur, e.old, e.new)
		}
	}
	for name, s := range text {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("loading the mutated fixture: %v", diags)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := &matrixIntent{f: f, rendered: map[string]string{}, renderErr: map[string]error{}}
	var devs []*schema.Device
	for _, md := range matrixDevices {
		d := f.Device(md.name)
		if d == nil {
			t.Fatalf("the fixture has no device %s", md.name)
		}
		devs = append(devs, d)
	}
	outs, _ := r.RenderAll(context.Background(), f, devs)
	for i, d := range devs {
		if outs[i] != nil {
			in.rendered[d.Name] = string(outs[i].Text)
			continue
		}
		_, err := r.Render(f, d)
		if err == nil {
			t.Fatalf("%s: RenderAll failed but Render did not", d.Name)
		}
		in.renderErr[d.Name] = err
	}
	return in
}

// input is the plan/apply input of one device of the intent.
func (in *matrixIntent) input(t *testing.T, name string) []Input {
	t.Helper()
	if err := in.renderErr[name]; err != nil {
		t.Fatalf("%s does not render: %v", name, err)
	}
	return []Input{{Device: in.f.Device(name), Rendered: []byte(in.rendered[name])}}
}

// matrixRig is one lab device and the options that reach it; its state
// directory outlives the intents, so last-applied records carry over from
// one intent to the next as they would in a fabric's directory.
type matrixRig struct {
	dev  matrixDevice
	lab  *lab.Lab
	dl   *dialect.Dialect
	opts Options
}

func matrixGetenv(k string) string {
	if k == matrixPasswordEnv {
		return testSecret
	}
	return ""
}

// brownfield is the device's configuration in the brownfield corpus.
func (md matrixDevice) brownfield(t *testing.T) string {
	t.Helper()
	return seatBrownfield(t, md.platform)
}

// newMatrixRig starts the device from a configuration in the form
// lab.DeviceSpec.RunningConfig takes.
func newMatrixRig(t *testing.T, md matrixDevice, running string) *matrixRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	user := "admin"
	if platforms.IsHost(md.platform) {
		user = "root"
	}
	l, err := lab.Start(ctx, []lab.DeviceSpec{{Name: md.name, Platform: md.platform, Username: user, Password: testSecret,
		Ports: md.ports, RunningConfig: running}}, lab.Options{Dir: dir})
	if err != nil {
		t.Fatalf("lab.Start: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	hk, err := session.NewHostKeys([]string{l.KnownHostsPath()}, false)
	if err != nil {
		t.Fatal(err)
	}
	// The records are signed (FABRICGEN_PLAN_KEY), as where day-2
	// removals of user-named objects are to follow the last-applied
	// record: an unsigned record alone removes only what fabricgen's
	// naming re-derives (TestDay2RemovalNeedsATrustedRecord).
	st := state.ForFabric(dir)
	st.Key = []byte("matrix-record-key")
	return &matrixRig{dev: md, lab: l, dl: mustDialect(md.platform), opts: Options{
		Parallelism: 1, Timeout: time.Minute, HostKeys: hk, Getenv: matrixGetenv,
		Inventory: map[string]string{md.name: l.Addr(md.name)},
		State:     st,
	}}
}

// plan plans the intent on the device; a device that cannot be planned
// fails the test.
func (r *matrixRig) plan(t *testing.T, in *matrixIntent) *planfile.Plan {
	t.Helper()
	p, err := Plan(context.Background(), in.f, in.input(t, r.dev.name), "test", r.opts)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if d := p.Devices[0]; d.Status == planfile.StatusError {
		t.Fatalf("plan: %s", d.Error)
	}
	return p
}

// apply applies a plan of the intent.
func (r *matrixRig) apply(t *testing.T, in *matrixIntent, p *planfile.Plan) Result {
	t.Helper()
	res, err := Apply(context.Background(), p, in.f, in.input(t, r.dev.name), ApplyOptions{Options: r.opts})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res[0]
}

// converge applies the intent and checks the device then plans empty.
func (r *matrixRig) converge(t *testing.T, in *matrixIntent, what string) {
	t.Helper()
	p := r.plan(t, in)
	pd, res := p.Devices[0], r.apply(t, in, p)
	if pd.Status == planfile.StatusChange && res.Status != StatusApplied || pd.Status == planfile.StatusUnchanged && res.Status != StatusUnchanged {
		t.Fatalf("%s: plan %s, apply %s: %s", what, pd.Status, res.Status, res.Reason)
	}
	if d := r.plan(t, in).Devices[0]; d.Status != planfile.StatusUnchanged || d.Diff.Text != "" {
		t.Fatalf("%s: the plan after apply is %s:\n%s", what, d.Status, d.Diff.Text)
	}
}

// state is the device's configuration in the form push reads: Junos as
// set statements, a host's NIC state dump.
func (r *matrixRig) state() string {
	return brownfieldState(r.lab.Device(r.dev.name), r.dev.platform)
}

// matrixDiffLines splits a unified diff into its removed and added lines
// (without the +/- and the file headers).
func matrixDiffLines(diff string) (removed, added []string) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			removed = append(removed, l[1:])
		case strings.HasPrefix(l, "+"):
			added = append(added, l[1:])
		}
	}
	return removed, added
}

// hostSettings flattens a host's state dump into "netdev X > key value"
// lines, sorted.
func hostSettings(dl *dialect.Dialect, text string) []string {
	out := qualified(config.Parse(text, dl).Nodes, nil)
	sort.Strings(out)
	return out
}

// untouchedHostSettings lists the host settings no pattern matches.
func untouchedHostSettings(lines []string, touched []*regexp.Regexp) []string {
	var out []string
	for _, l := range lines {
		if !matchesAny(l, touched) {
			out = append(out, l)
		}
	}
	return out
}

// indentLines prints lines one a line, for messages.
func indentLines(ls []string) string {
	if len(ls) == 0 {
		return "(none)\n"
	}
	return "\t" + strings.Join(ls, "\n\t") + "\n"
}

// compileAll compiles patterns.
func compileAll(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = regexp.MustCompile(p)
	}
	return out
}

// stateLines is the device's configuration as lines the table's patterns
// match.
func (r *matrixRig) stateLines(t *testing.T) []string {
	t.Helper()
	if r.dl.ConfigDB {
		var out []string
		for k, v := range dbFields(t, r.state()) {
			out = append(out, k+" = "+v)
		}
		return out
	}
	return qualified(config.Parse(r.state(), r.dl).Nodes, nil)
}

func anyLineMatches(re *regexp.Regexp, lines []string) bool {
	return firstLineMatching(re, lines) != ""
}

func firstLineMatching(re *regexp.Regexp, lines []string) string {
	for _, l := range lines {
		if re.MatchString(l) {
			return l
		}
	}
	return ""
}

func anyLineContains(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// checkLineOrder: the first line matching each pattern comes after the first
// line matching the one before.
func checkLineOrder(t *testing.T, patterns []string, lines []string) {
	last := -1
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		at := -1
		for i, l := range lines {
			if re.MatchString(l) {
				at = i
				break
			}
		}
		if at < 0 {
			t.Errorf("order: nothing matches %q after apply", p)
			return
		}
		if at < last {
			t.Errorf("order: %q comes before the line matching the pattern preceding it", lines[at])
		}
		last = at
	}
}
