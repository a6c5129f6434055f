package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// The change matrix (issue 10): for every platform, starting from the
// intent applied on top of a brownfield device, each mutation of the
// intent plans the minimal change in the platform's own negation, applies,
// plans empty afterwards, leaves none of the old values on the device and
// every line fabricgen does not manage byte-identical. Every mutation
// starts from the base intent as applied (the device's configuration and
// the last-applied record of that apply).
//
// The mutations (names and edits of the clos fabric) are below; what each
// platform does with each one is in its folder's
// testdata/push/matrix.json (matrixData). docs/push.md ("Change matrix")
// summarises them; keep them in step.

// matrixExpect is what one platform does with one mutation. Patterns over "state
// lines" match the device's configuration after the change, one line per
// statement qualified by its parents ("interface Ethernet1/1 > mtu 9214"),
// CONFIG_DB as "TABLE|key|field = value", a host's NIC state as "netdev X >
// setting".
type matrixExpect struct {
	// Why says what is particular about the platform's answer (the
	// table's notes; checks nothing).
	Why string `json:"why,omitempty"`
	// RenderErr: the platform cannot express the mutation; the render
	// fails with an error naming the device, the intent's file and these
	// strings.
	RenderErr []string `json:"render_err,omitempty"`
	// Unchanged: the mutation does not reach the platform (why); the plan
	// is empty and the device keeps every line.
	Unchanged string `json:"unchanged,omitempty"`
	// Lines matches every added and removed line of the plan's diff
	// (nothing unrelated to the mutation changes), and Max bounds their
	// number.
	Lines string `json:"lines,omitempty"`
	Max   int    `json:"max,omitempty"`
	// Plus and Minus are strings that must appear in an added / a removed
	// diff line: the new value and the old one.
	Plus  []string `json:"plus,omitempty"`
	Minus []string `json:"minus,omitempty"`
	// Cmds must each match a command of the change set: the platform's
	// negation of the old value, the new value. NoCmds must match none.
	Cmds   []string `json:"cmds,omitempty"`
	NoCmds []string `json:"no_cmds,omitempty"`
	// Gone match state lines before the change and none after (the old
	// values); Now match none before and some after (the new ones); Kept
	// match before and after (what the change must not take away).
	Gone []string `json:"gone,omitempty"`
	Now  []string `json:"now,omitempty"`
	Kept []string `json:"kept,omitempty"`
	// Order: state lines matching these come in this order after apply.
	Order []string `json:"order,omitempty"`
	// Touched (hosts): the settings the change may alter; every other
	// setting is the same after the change.
	Touched []string `json:"touched,omitempty"`
}

// matrixMutation is one change of the fixture's intent; what each platform
// does with it is in the platform's folder (matrixData).
type matrixMutation struct {
	name  string
	edits []fixtureEdit
}

// Fixture fragments the edits replace.
const (
	ruleDSCP48     = "seq      = 10\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = 4791\n    dscp     = 48"
	ruleDSCP26     = "seq      = 20\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = 4791\n    dscp     = 26"
	rule30         = "\n  rule {\n    seq      = 30\n    action   = \"deny\"\n    protocol = \"udp\"\n    dst_port = 4791\n  }\n"
	fixtureClasses = "classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]"
)

var matrixMutations = []matrixMutation{
	{name: "ecn-threshold", edits: []fixtureEdit{
		{"qos.fab.hcl", `min_threshold   = "150KB"`, `min_threshold   = "200KB"`},
		{"qos.fab.hcl", `min_fill_level  = 55`, `min_fill_level  = 60`}}},
	{name: "lossless-priority", edits: []fixtureEdit{
		{"qos.fab.hcl", "priority  = 3\n  queue     = 3", "priority  = 4\n  queue     = 4"},
		{"qos.fab.hcl", "pfc_priorities   = [3]", "pfc_priorities   = [4]"}}},
	{name: "class-added", edits: []fixtureEdit{
		{"control.fab.hcl", "", "traffic_class \"control\" {\n  role      = \"control\"\n  dscp      = [16]\n  priority  = 5\n  queue     = 5\n  scheduler = \"strict\"\n}\n"},
		{"qos.fab.hcl", fixtureClasses, "classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp, traffic_class.control]"}}},
	{name: "class-removed", edits: []fixtureEdit{
		{"qos.fab.hcl", fixtureClasses, "classes          = [traffic_class.default, traffic_class.roce]"}}},
	{name: "dscp-moved", edits: []fixtureEdit{
		{"qos.fab.hcl", "dscp      = [0, 10]", "dscp      = [0]"},
		{"qos.fab.hcl", "dscp      = [26]", "dscp      = [10, 26]"}}},
	{name: "ets-weights", edits: []fixtureEdit{
		{"qos.fab.hcl", "queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 50", "queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 40"},
		{"qos.fab.hcl", "ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 50", "ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 60"}}},
	{name: "mtu", edits: []fixtureEdit{
		{"qos.fab.hcl", "mtu              = 9214", "mtu              = 9100"},
		{"qos.fab.hcl", "mtu = 4200", "mtu = 4300"}}},
	{name: "watchdog-timers", edits: []fixtureEdit{
		{"qos.fab.hcl", `detection     = "200ms"`, `detection     = "600ms"`},
		{"qos.fab.hcl", `poll_interval = "100ms"`, `poll_interval = "200ms"`}}},
	{name: "watchdog-restoration", edits: []fixtureEdit{
		{"qos.fab.hcl", `detection     = "200ms"`, "detection     = \"200ms\"\n  restoration   = \"400ms\""}}},
	{name: "acl-entry-added", edits: []fixtureEdit{
		{"acl.fab.hcl", "  rule {\n    seq      = 100", "  rule {\n    seq      = 40\n    action   = \"deny\"\n    protocol = \"tcp\"\n    dst_port = 23\n  }\n\n  rule {\n    seq      = 100"}}},
	{name: "acl-entry-removed", edits: []fixtureEdit{
		{"acl.fab.hcl", rule30, ""}}},
	{name: "acl-entry-reordered", edits: []fixtureEdit{
		{"acl.fab.hcl", ruleDSCP48, strings.Replace(ruleDSCP48, "= 10", "= 20", 1)},
		{"acl.fab.hcl", ruleDSCP26, strings.Replace(ruleDSCP26, "= 20", "= 10", 1)}}},
	// Issue 10: ACLs named by the intent and later dropped were never
	// deleted; the last-applied record makes them fabricgen's.
	{name: "acl-dropped", edits: []fixtureEdit{
		{"guard.fab.hcl", "", ""},
		{"devices.fab.hcl", "      acl_in      = [acl.guard]\n", ""}}},
	// The spare port (leaf port 8, spine port 8, the NICs' second port)
	// leaves the intent: it loses what fabricgen put on it, the interface
	// and its address stay.
	{name: "port-removed", edits: []fixtureEdit{
		{"devices.fab.hcl", "spare_port = true", "spare_port = false"}}},
	{name: "policy-swapped", edits: []fixtureEdit{
		{"devices.fab.hcl", "qos_policy   = qos_policy.fabric", "qos_policy   = qos_policy.fabric-alt"},
		{"devices.fab.hcl", "qos_policy   = qos_policy.host", "qos_policy   = qos_policy.host-alt"}}},
}

// TestMatrix runs every mutation on every platform of the registry
// (platforms in parallel), each in its folder's seat of the clos fabric.
// Per platform the base intent is applied once on top of the brownfield
// device; every mutation then starts from a lab device loaded with that
// applied configuration and the last-applied record of that apply, as a
// fabric's state directory has it.
func TestMatrix(t *testing.T) {
	mutations := allMatrixMutations(t)
	for _, md := range matrixDevices(t) {
		t.Run(string(md.platform), func(t *testing.T) {
			t.Parallel()
			base := loadMatrixIntent(t, md, nil)
			intents := make([]*matrixIntent, len(mutations))
			for i, m := range mutations {
				intents[i] = loadMatrixIntent(t, md, m.edits)
			}
			r := newMatrixRig(t, md, md.brownfield(t))
			// The first apply takes the brownfield device over.
			before := r.state()
			r.converge(t, base, "the base intent")
			applied, snapshot := r.state(), r.lab.Device(md.name).Export()
			if !md.host {
				// The takeover keeps every line the matrix's own
				// patterns call the device's.
				r.checkUnmanagedIndependent(t, before, applied)
			}
			rec, err := r.opts.State.Applied(md.name)
			if err != nil || rec == nil {
				t.Fatalf("no last-applied record after the base apply: %v", err)
			}
			for i, m := range mutations {
				t.Run(m.name, func(t *testing.T) {
					r := newMatrixRig(t, md, snapshot)
					if got := r.state(); stripHeaderTimes(got) != stripHeaderTimes(applied) {
						t.Fatalf("the lab does not load the applied configuration back:\n%s", config.Unified("applied", "loaded", applied, got).Text)
					}
					if err := r.opts.State.WriteApplied(*rec); err != nil {
						t.Fatal(err)
					}
					r.mutate(t, base, intents[i], md.data.Mutations[m.name])
				})
			}
		})
	}
}

// mutate plans and applies one mutation and checks it against e.
func (r *matrixRig) mutate(t *testing.T, base, in *matrixIntent, e matrixExpect) {
	name := r.dev.name
	if len(e.RenderErr) > 0 {
		err := in.renderErr[name]
		if err == nil {
			t.Fatalf("the render succeeds; want an error naming %q", e.RenderErr)
		}
		for _, s := range append([]string{".fab.hcl:"}, e.RenderErr...) {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("render error %q does not say %q", err, s)
			}
		}
		return
	}
	before, beforeLines := r.state(), r.stateLines(t)
	p := r.plan(t, in)
	pd := p.Devices[0]
	if e.Unchanged != "" {
		if pd.Status != planfile.StatusUnchanged || pd.Diff.Text != "" {
			t.Errorf("plan: %s, want unchanged (%s):\n%s", pd.Status, e.Unchanged, pd.Diff.Text)
		}
		if res := r.apply(t, in, p); res.Status != StatusUnchanged {
			t.Errorf("apply: %s (%s), want unchanged", res.Status, res.Reason)
		}
		if after := r.state(); after != before {
			t.Errorf("the device changed:\n%s", config.Unified("before", "after", before, after).Text)
		}
		return
	}
	// (a) the plan shows the minimal change in the platform's negation.
	if pd.Status != planfile.StatusChange {
		t.Errorf("plan: %s, want a change", pd.Status)
	}
	r.checkPlan(t, pd, e)

	// (b) apply converges; (c) the next plan is empty.
	if res := r.apply(t, in, p); res.Status != StatusApplied {
		t.Fatalf("apply: %s: %s", res.Status, res.Reason)
	}
	if d := r.plan(t, in).Devices[0]; d.Status != planfile.StatusUnchanged || d.Diff.Text != "" {
		t.Errorf("second plan: %s:\n%s", d.Status, d.Diff.Text)
	}

	// (d) the old values are gone, the new ones there.
	after, afterLines := r.state(), r.stateLines(t)
	checkGoneNowKept(t, e.Gone, e.Now, e.Kept, beforeLines, afterLines)
	checkLineOrder(t, e.Order, afterLines)

	// (e) what fabricgen does not manage is byte-identical.
	r.checkUnmanaged(t, before, after, base.rendered[name], in.rendered[name], e)
}

// checkPlan checks the plan's diff and change set against e.
func (r *matrixRig) checkPlan(t *testing.T, pd *planfile.Device, e matrixExpect) {
	removed, added := matrixDiffLines(pd.Diff.Text)
	changed := append(append([]string(nil), removed...), added...)
	if len(changed) > e.Max {
		t.Errorf("the diff changes %d lines, want at most %d:\n%s", len(changed), e.Max, pd.Diff.Text)
	}
	related := regexp.MustCompile(e.Lines)
	for _, l := range changed {
		if !related.MatchString(l) {
			t.Errorf("the diff changes %q, which the mutation does not touch", l)
		}
	}
	for _, s := range e.Plus {
		if !anyLineContains(added, s) {
			t.Errorf("no added diff line says %q (the new value)", s)
		}
	}
	for _, s := range e.Minus {
		if !anyLineContains(removed, s) {
			t.Errorf("no removed diff line says %q (the old value)", s)
		}
	}
	cmds := pd.Changes.Commands()
	for _, p := range e.Cmds {
		if !anyLineMatches(regexp.MustCompile(p), cmds) {
			t.Errorf("no command of the change set matches %q", p)
		}
	}
	for _, p := range e.NoCmds {
		if l := firstLineMatching(regexp.MustCompile(p), cmds); l != "" {
			t.Errorf("the change set has %q: not the minimal change", l)
		}
	}
	if neg := regexp.MustCompile(r.dev.data.Negation); len(removed) > 0 && !anyLineMatches(neg, cmds) {
		t.Errorf("the diff removes lines but no command uses the %s negation %s (platforms/%s/testdata/push/matrix.json)", r.dev.platform, neg, r.dev.fx.Platform.Folder)
	}
	if t.Failed() {
		t.Logf("change set:\n%s", indentLines(cmds))
	}
}

// checkUnmanaged compares what fabricgen manages neither in the base nor
// in the mutated intent: for switches every line the matrix's own
// patterns (matrixManaged) do not claim, independently of the product's
// filter, and the product's own view (config.Unmanaged with the mutated
// render and the base render as the last-applied scope) too; for hosts
// every setting the mutation does not touch.
func (r *matrixRig) checkUnmanaged(t *testing.T, before, after, baseRendered, rendered string, e matrixExpect) {
	if r.dl.Host {
		touched := compileAll(e.Touched...)
		b := untouchedHostSettings(hostSettings(r.dl, before), touched)
		a := untouchedHostSettings(hostSettings(r.dl, after), touched)
		if strings.Join(b, "\n") != strings.Join(a, "\n") {
			t.Errorf("settings the mutation does not touch changed:\n%s",
				config.Unified("before", "after", strings.Join(b, "\n")+"\n", strings.Join(a, "\n")+"\n").Text)
		}
		return
	}
	r.checkUnmanagedIndependent(t, before, after)
	b, err := config.Unmanaged(before, rendered, baseRendered, r.dl)
	if err != nil {
		t.Fatal(err)
	}
	a, err := config.Unmanaged(after, rendered, baseRendered, r.dl)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("lines fabricgen does not manage (by config.Unmanaged) changed:\n%s", config.Unified("before", "after", b, a).Text)
	}
}
