package push

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platformtest"
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

// matrixPasswordEnv is the variable the fixture's credentials name.
const matrixPasswordEnv = "FABRICGEN_PASSWORD"

// matrixDevice is the device the matrix tests for a platform: the folder's
// seat of the shared clos fabric (platformtest.Fixture.ClosSeat).
type matrixDevice struct {
	name     string
	platform schema.Platform
	// host is the platform's Spec.Host.
	host bool
	// ports are a host's netdevs (the lab creates them).
	ports []string
	// fx is the platform's folder, data its matrix.json.
	fx   platformtest.Fixture
	data matrixData
}

// matrixDevices returns, for every platform of the registry in registry
// order, its seat and its folder's matrix.json; it fails the test naming
// every folder whose seat or matrix.json is missing or incomplete.
func matrixDevices(t *testing.T) []matrixDevice {
	t.Helper()
	mutations := allMatrixMutations(t)
	var out []matrixDevice
	var problems []string
	for _, fx := range platformtest.All(repoRoot) {
		md, err := matrixDeviceOf(fx, mutations)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out = append(out, md)
	}
	if len(problems) > 0 {
		t.Fatalf("the change matrix's data:\n%s", strings.Join(problems, "\n"))
	}
	return out
}

// matrixDeviceOf reads folder fx's seat and matrix.json.
func matrixDeviceOf(fx platformtest.Fixture, mutations []matrixMutation) (matrixDevice, error) {
	seat, err := fx.ClosSeat()
	if err != nil {
		return matrixDevice{}, err
	}
	var d matrixData
	if err := fx.PushData("matrix", &d); err != nil {
		return matrixDevice{}, err
	}
	if err := checkMatrixData(fx, d, mutations); err != nil {
		return matrixDevice{}, err
	}
	return matrixDevice{name: seat.Seat, platform: fx.Platform.Name, host: fx.Platform.Spec.Host, ports: seat.Ports, fx: fx, data: d}, nil
}

// checkMatrixData checks a folder's matrix.json against push's mutations:
// one expectation for each and no other, every pattern valid, a switch's
// managed patterns and keep lines given.
func checkMatrixData(fx platformtest.Fixture, d matrixData, mutations []matrixMutation) error {
	var problems []string
	known := map[string]bool{}
	for _, m := range mutations {
		known[m.name] = true
		if _, ok := d.Mutations[m.name]; !ok {
			problems = append(problems, "no expectation for the mutation "+m.name)
		}
	}
	var names []string
	for n := range d.Mutations {
		names = append(names, n)
	}
	sort.Strings(names)
	patterns := append([]string{d.Negation}, d.Managed...)
	for _, n := range names {
		if !known[n] {
			problems = append(problems, "an expectation for "+n+", which is no mutation of push's matrix")
		}
		e := d.Mutations[n]
		if e.RenderErr == nil && e.Unchanged == "" && e.Lines == "" {
			problems = append(problems, "mutation "+n+": no lines pattern (nor unchanged or render_err)")
		}
		patterns = append(patterns, e.Lines)
		for _, ps := range [][]string{e.Cmds, e.NoCmds, e.Gone, e.Now, e.Kept, e.Order, e.Touched} {
			patterns = append(patterns, ps...)
		}
	}
	if d.Negation == "" {
		problems = append(problems, "no negation pattern")
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if !fx.Platform.Spec.Host && (len(d.Managed) == 0 || len(d.Keep) == 0 || len(d.IPv6ACL) == 0) {
		problems = append(problems, "a switch needs managed patterns, keep lines and ipv6_acl strings")
	}
	if len(problems) > 0 {
		return fmt.Errorf("platforms/%s/testdata/push/matrix.json: %s", fx.Platform.Folder, strings.Join(problems, "; "))
	}
	return nil
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

// loadMatrixIntent writes the clos fabric with md's platform in its seat
// (platformtest.Fixture.ClosFiles), applies the edits, loads the fabric
// and renders md's device.
func loadMatrixIntent(t *testing.T, md matrixDevice, edits []fixtureEdit) *matrixIntent {
	t.Helper()
	dir := t.TempDir()
	text, _, err := md.fx.ClosFiles()
	if err != nil {
		t.Fatal(err)
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
	d := f.Device(md.name)
	if d == nil {
		t.Fatalf("the fixture has no device %s", md.name)
	}
	if d.Platform.V != md.platform {
		t.Fatalf("seat %s is a %s device, want %s", md.name, d.Platform.V, md.platform)
	}
	if outs, _ := r.RenderAll(context.Background(), f, []*schema.Device{d}); outs[0] != nil {
		in.rendered[d.Name] = string(outs[0].Text)
		return in
	}
	_, err = r.Render(f, d)
	if err == nil {
		t.Fatalf("%s: RenderAll failed but Render did not", d.Name)
	}
	in.renderErr[d.Name] = err
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

// brownfield is the existing configuration of the device's seat
// (platforms/<f>/testdata/push/brownfield.<ext>).
func (md matrixDevice) brownfield(t *testing.T) string {
	t.Helper()
	_, text, err := md.fx.ClosBrownfield()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// newMatrixRig starts the device from a configuration in the form
// lab.DeviceSpec.RunningConfig takes.
func newMatrixRig(t *testing.T, md matrixDevice, running string) *matrixRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	user := "admin"
	if md.host {
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
	return &matrixRig{dev: md, lab: l, dl: md.fx.Platform.Dialect(), opts: Options{
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
	return brownfieldState(r.lab.Device(r.dev.name), r.dl)
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

// matrixData is a platform folder's part of the change matrix
// (platforms/<f>/testdata/push/matrix.json): what the platform does with
// each of push's mutations, and the facts the matrix's checks need about
// the folder's seat of the clos fabric.
type matrixData struct {
	// Negation matches a command that removes or replaces an old value
	// (hosts set the new value over the old one).
	Negation string `json:"negation"`
	// Managed (switches) are the matrix's own patterns over the seat's
	// state lines for what fabricgen may change, written from
	// docs/push.md's managed sections and the seat's render,
	// independently of the product's filter (config.Unmanaged).
	Managed []string `json:"managed,omitempty"`
	// Keep (switches) are state lines of the brownfield device that sit
	// next to what fabricgen manages and are not its: each must be on the
	// device before and after every mutation.
	Keep []string `json:"keep,omitempty"`
	// IPv6ACL (switches) are strings the seat's render and then its
	// device must hold once the IPv6 ACL of TestIPv6ACLApplied is bound.
	IPv6ACL []string `json:"ipv6_acl,omitempty"`
	// Mutations maps every mutation of push's matrix (by name) to what
	// the platform does with it.
	Mutations map[string]matrixExpect `json:"mutations"`
	// Restore (hosts) drives the host rollback tests on the seat
	// (hostrestore_test.go); a test runs on every host folder that gives
	// its part.
	Restore matrixRestore `json:"restore,omitzero"`
}

// matrixRestore is a host's part of the rollback tests.
type matrixRestore struct {
	// Dropped: the lossless-priority mutation sets back (Cmd, a command
	// of the change set) a setting the new render no longer sets; the
	// host rejects a later command (Reject, a pattern) and the restore
	// must bring the dropped setting back.
	Dropped *restoreDropped `json:"dropped,omitempty"`
	// Refused: the host refuses restore commands too (Reject); the result
	// names the refused command (Names), and the in-flight record's read
	// script names the dropped setting (ReadScript).
	Refused *restoreRefused `json:"refused,omitempty"`
	// ETS: the class-added, ets-weights and watchdog-timers mutations at
	// once change both ETS vectors; the change set has one command
	// starting with Cmd that holds every string of Has, a later command is
	// rejected (Reject), and the connection drops right after the
	// restore's first command starting with Tool: the restore finishes and
	// every command starting with Tool sets both Vectors or neither.
	ETS *restoreETS `json:"ets,omitempty"`
}

type restoreDropped struct {
	Cmd    string `json:"cmd"`
	Reject string `json:"reject"`
}

type restoreRefused struct {
	Reject     string `json:"reject"`
	Names      string `json:"names"`
	ReadScript string `json:"read_script"`
}

type restoreETS struct {
	Cmd     string    `json:"cmd"`
	Has     []string  `json:"has"`
	Reject  string    `json:"reject"`
	Tool    string    `json:"tool"`
	Vectors [2]string `json:"vectors"`
}

// checkGoneNowKept checks state lines before and after a change: each gone
// pattern matches a line before and none after (the old value), each now
// pattern none before and one after (the new value), each kept pattern a
// line both before and after. A gone or now pattern that holds already
// before the change proves nothing, and fails.
func checkGoneNowKept(t *testing.T, gone, now, kept, before, after []string) {
	t.Helper()
	for _, p := range gone {
		re := regexp.MustCompile(p)
		if !anyLineMatches(re, before) {
			t.Errorf("gone %q matches nothing before the change: the check proves nothing", p)
		}
		if l := firstLineMatching(re, after); l != "" {
			t.Errorf("old value still on the device after apply: %q", l)
		}
	}
	for _, p := range now {
		re := regexp.MustCompile(p)
		if l := firstLineMatching(re, before); l != "" {
			t.Errorf("now %q matches %q before the change: the check proves nothing", p, l)
		}
		if !anyLineMatches(re, after) {
			t.Errorf("new value %q not on the device after apply", p)
		}
	}
	for _, p := range kept {
		re := regexp.MustCompile(p)
		if !anyLineMatches(re, before) || !anyLineMatches(re, after) {
			t.Errorf("%q is not on the device both before and after the change", p)
		}
	}
}
