package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// freshPlan renders every pushable device of the example and compares it
// with an empty running config (a factory-fresh fabric), as plan would
// against devices that have none of the managed config yet.
func freshPlan(t *testing.T, example string, vars map[string]string) *planfile.Plan {
	t.Helper()
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", example), schema.Options{Vars: vars, Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("load %s: %v", example, diags)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var devs []*schema.Device
	for _, d := range f.Devices {
		if _, err := platforms.Dialect(d.Platform.V); err == nil {
			devs = append(devs, d)
		}
	}
	outs, err := r.RenderAll(context.Background(), f, devs)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	p := &planfile.Plan{FormatVersion: planfile.FormatVersion, Fabric: f.Name, Dir: "examples/" + example}
	for i, d := range devs {
		dl, err := platforms.Dialect(d.Platform.V)
		if err != nil {
			t.Fatal(err)
		}
		running := ""
		switch {
		case dl.ConfigDB:
			running = "{}"
		case dl.Host:
			var cmds, answers []string
			for _, l := range config.HostLookups(string(outs[i].Text)) {
				cmds, answers = append(cmds, l.Command), append(answers, "mlx5_0")
			}
			running = config.HostState(cmds, answers)
		}
		c, err := config.CompareScoped(d.Name, running, string(outs[i].Text), "", dl)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		pd := &planfile.Device{Name: d.Name, Platform: string(d.Platform.V), Status: planfile.StatusUnchanged, Diff: c.Diff}
		if !c.Changes.Empty() {
			pd.Status = planfile.StatusChange
		}
		p.Devices = append(p.Devices, pd)
	}
	return p
}

func TestPlanMarkdownScale(t *testing.T) {
	p := freshPlan(t, "scale", map[string]string{"leaves": "64", "spines": "8", "nics_per_leaf": "4"})
	sum := p.Summary()
	if sum.Change < 300 {
		t.Fatalf("scale plan changes %d devices; the test wants a big plan", sum.Change)
	}
	full := len(planText(p))
	var whole strings.Builder
	if err := (planMarkdown{Limit: 1 << 30, Dir: "examples/scale"}).write(&whole, p, nil); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{DefaultMarkdownLimit, 20000, 8000, minMarkdownLimit} {
		var b strings.Builder
		md := planMarkdown{Limit: limit, Dir: "examples/scale"}
		if err := md.write(&b, p, nil); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		t.Logf("limit %d: %d bytes (text plan %d bytes, %d devices change)", limit, len(out), full, sum.Change)
		if len(out) > limit {
			t.Errorf("limit %d: markdown plan is %d bytes", limit, len(out))
		}
		if !strings.Contains(out, "### fabricgen plan:") || !strings.Contains(out, "to change") {
			t.Errorf("limit %d: no heading or summary:\n%s", limit, clip(out, 2000))
		}
		if limit >= 8000 && !strings.Contains(out, "(32, every 2nd): same change (") {
			t.Errorf("limit %d: identical leaf changes are not grouped:\n%s", limit, clip(out, 1500))
		}
		if limit >= 8000 && !strings.Contains(out, "<code>leaf&#91;0001–0064&#93;-nic&#91;01, 03&#93;</code> (128)") {
			t.Errorf("limit %d: the NICs of one change are not one pattern:\n%s", limit, clip(out, 1500))
		}
		switch {
		case whole.Len() > limit && !strings.Contains(out, "stops at its"):
			t.Errorf("limit %d: cut without saying so", limit)
		case whole.Len() <= limit && out != whole.String():
			t.Errorf("limit %d: a plan of %d bytes was cut", limit, whole.Len())
		}
	}
}

// planText is the plan's full text form, to compare sizes with.
func planText(p *planfile.Plan) string {
	var b strings.Builder
	writePlanHuman(&b, p, nil, planView{})
	return b.String()
}

// mdDevice makes a changed switch device with a diff of n changed lines.
func mdDevice(name, platform string, n int, seed string) *planfile.Device {
	var run, want strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&run, "interface Ethernet%d\n   mtu 1500 %s\n", i, seed)
		fmt.Fprintf(&want, "interface Ethernet%d\n   mtu 9214 %s\n", i, seed)
	}
	return &planfile.Device{Name: name, Platform: platform, Status: planfile.StatusChange,
		Diff: config.Unified(name+" (running)", name+" (fabricgen)", run.String(), want.String())}
}

func TestPlanMarkdownGolden(t *testing.T) {
	swA, swB, hostA := pickPlatforms(t)
	p := &planfile.Plan{Fabric: "demo | <b>x</b>", Devices: []*planfile.Device{
		{Name: "spine1", Platform: swB, Status: planfile.StatusUnchanged},
		{Name: "bad`|name", Platform: swA, Status: planfile.StatusError, Error: "dial: <refused> | try again"},
		{Name: "h1", Platform: hostA, Status: planfile.StatusChange, Diff: config.Unified("h1 (running)", "h1 (fabricgen)",
			"eth0 dscp2prio 0 = <unset>\neth0 dscp2prio 26 = <unset>\neth0 trust = pcp\n", "eth0 dscp2prio 0 = 0\neth0 dscp2prio 26 = 3\neth0 trust = dscp\n")},
	}}
	for i := 1; i <= 12; i++ {
		p.Devices = append(p.Devices, mdDevice(fmt.Sprintf("leaf%d", i), swA, 2, ""))
	}
	p.Devices = append(p.Devices, mdDevice("leaf14", swA, 2, ""), mdDevice("leaf13", swA, 1, "other"),
		mdDevice("<details>", swA, 1, "```"))
	findings := diag.Diagnostics{{Severity: diag.Warning, Rule: "MTU002", Summary: "core1:Ethernet3 has MTU 1500",
		Device: "core1", Port: "Ethernet3",
		Trace: []diag.Step{{Port: "gpu01:eth2"}, {Port: "core1:Ethernet3"}, {Port: `gpu"77":eth0]`}}}}
	var b strings.Builder
	md := planMarkdown{Limit: DefaultMarkdownLimit, PlanFile: "plan.json", Findings: findings}
	if err := md.write(&b, p, []string{"x1 (" + swB + ")"}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/plan-markdown.golden", []byte(b.String()), "go test ./cmd/fabricgen -run TestPlanMarkdownGolden -update")
}

func TestPlanMarkdownLimits(t *testing.T) {
	swA, swB, _ := pickPlatforms(t)
	huge := mdDevice("leaf1", swA, 5000, "")
	tests := []struct {
		name    string
		devices []*planfile.Device
		limit   int
		want    []string
		notWant []string
	}{
		{"one device bigger than the limit is cut inside its diff", []*planfile.Device{huge}, 10000,
			[]string{"more lines: see the full plan", "stops at its 10000-character limit", "0 of 1 changed"}, nil},
		{"hostile names stay inside their cells", []*planfile.Device{mdDevice("a|b`c</details><details>*x*", swA, 1, "")}, DefaultMarkdownLimit,
			[]string{"a&#124;b&#96;c&#60;/details&#62;&#60;details&#62;&#42;x&#42;"}, []string{"a|b", "</details><details>*x*", "stops at"}},
		{"backticks in a diff get a longer fence", []*planfile.Device{mdDevice("leaf1", swA, 1, "````")}, DefaultMarkdownLimit,
			[]string{"`````diff\n"}, nil},
		{"many different devices stop at the limit", manyDevices(400, swA), minMarkdownLimit,
			[]string{"stops at its 2000-character limit"}, nil},
		{"unchanged devices are counted, not listed", []*planfile.Device{mdDevice("leaf1", swA, 1, ""), {Name: "quiet7", Platform: swB, Status: planfile.StatusUnchanged}}, DefaultMarkdownLimit,
			[]string{"1 device(s) unchanged."}, []string{"quiet7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			md := planMarkdown{Limit: tt.limit, Dir: "fab"}
			if err := md.write(&b, &planfile.Plan{Fabric: "f", Devices: tt.devices}, nil); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if len(out) > tt.limit {
				t.Errorf("%d bytes, limit %d", len(out), tt.limit)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, clip(out, 4000))
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("%q in:\n%s", w, clip(out, 4000))
				}
			}
		})
	}
	var b strings.Builder
	if err := (planMarkdown{Limit: 100}).write(&b, &planfile.Plan{}, nil); err == nil {
		t.Error("a limit below the minimum was accepted")
	}
}

func manyDevices(n int, swA string) []*planfile.Device {
	var ds []*planfile.Device
	for i := 0; i < n; i++ {
		ds = append(ds, mdDevice(fmt.Sprintf("sw%03d", i), swA, 3, fmt.Sprint(i)))
	}
	return ds
}

// TestPlanMarkdownNeverOverLimit writes random plans (hostile names, long
// errors, diffs of every size, hosts) under random limits: the output
// never exceeds the limit, and says so whenever it leaves devices out.
func TestPlanMarkdownNeverOverLimit(t *testing.T) {
	_, swB, _ := pickPlatforms(t)
	rng := rand.New(rand.NewPCG(15, 6))
	alphabet := []rune("ab|`<>*_[]&#\\\"'é漢 \t1234567890-")
	word := func(n int) string {
		r := make([]rune, 1+rng.IntN(n))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	names := platforms.Names()
	for i := 0; i < 60; i++ {
		p := &planfile.Plan{Fabric: word(300)}
		for j := rng.IntN(30); j >= 0; j-- {
			name := fmt.Sprintf("%s%d", word(12), j)
			switch rng.IntN(5) {
			case 0:
				p.Devices = append(p.Devices, &planfile.Device{Name: name, Platform: names[rng.IntN(len(names))], Status: planfile.StatusError, Error: word(2000)})
			case 1:
				p.Devices = append(p.Devices, &planfile.Device{Name: name, Platform: swB, Status: planfile.StatusUnchanged})
			default:
				d := mdDevice(name, names[rng.IntN(len(names))], rng.IntN(150), word(40))
				d.Takeover = []string{word(500)}
				p.Devices = append(p.Devices, d)
			}
		}
		limit := minMarkdownLimit + rng.IntN(30000)
		var findings diag.Diagnostics
		if rng.IntN(2) == 0 {
			findings = diag.Diagnostics{{Severity: diag.Warning, Rule: word(8), Summary: word(900), Trace: []diag.Step{{Port: word(50)}, {Port: word(50), Note: word(80)}}}}
		}
		skipped := []string{word(3000)}
		var b strings.Builder
		md := planMarkdown{Limit: limit, Dir: word(400), PlanFile: word(400), Findings: findings}
		if err := md.write(&b, p, skipped); err != nil {
			t.Fatal(err)
		}
		if b.Len() > limit {
			t.Fatalf("plan %d: %d bytes over the limit %d", i, b.Len(), limit)
		}
		var whole strings.Builder
		md.Limit = 1 << 30
		if err := md.write(&whole, p, skipped); err != nil {
			t.Fatal(err)
		}
		if whole.Len() > limit && p.Summary().Change > 0 && !strings.Contains(b.String(), "stops at its") {
			t.Fatalf("plan %d: cut at %d bytes without saying so", i, limit)
		}
	}
}

// TestPlanMarkdownLimitFlag: a limit too small for the heading and the
// pointer is refused before any device is read.
func TestPlanMarkdownLimitFlag(t *testing.T) {
	s, out, errb := pushStreams("")
	ex := filepath.Join(repoRoot(t), "examples", "roce-storage")
	if code := run(context.Background(), []string{"plan", ex, "--markdown", "--markdown-limit", "10"}, s); code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFailed, out, errb)
	}
	if !strings.Contains(errb.String(), "--markdown-limit 10: give at least") {
		t.Errorf("stderr: %s", errb)
	}
}

// TestPlanHumanSameChangeOnce: the text plan shows a change once; a
// device with the same platform and lines as an earlier one gets its
// header naming it, one with another platform or other lines its own
// diff, and --summary shows headers only with a pointer to the diffs.
func TestPlanHumanSameChangeOnce(t *testing.T) {
	swA, swB, _ := pickPlatforms(t)
	p := &planfile.Plan{Devices: []*planfile.Device{
		mdDevice("leaf1", swA, 3, "a"),
		mdDevice("leaf2", swA, 3, "a"),
		mdDevice("leaf3", swA, 3, "b"),
		mdDevice("leaf4", swB, 3, "a"),
		mdDevice("leaf5", swA, 3, "a"),
		{Name: "spine1", Platform: swA, Status: planfile.StatusUnchanged},
	}}
	var b strings.Builder
	writePlanHuman(&b, p, nil, planView{})
	out := b.String()
	for _, want := range []string{
		"leaf2 (" + swA + ", ) will change: +3 -3 lines, the same as leaf1\n",
		"leaf5 (" + swA + ", ) will change: +3 -3 lines, the same as leaf1\n",
		"No changes: spine1\n",
		"Plan: 5 to change, 1 unchanged; +15 -15 lines.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	// leaf1, leaf3 (other lines) and leaf4 (other platform) show diffs.
	if n := strings.Count(out, "+++ "); n != 3 {
		t.Errorf("%d diffs, want 3 (leaf1, leaf3, leaf4):\n%s", n, out)
	}
	b.Reset()
	writePlanHuman(&b, p, nil, planView{summary: true})
	sum := b.String()
	if strings.Contains(sum, "+++ ") || !strings.Contains(sum, "Diffs not shown (--summary)") || !strings.Contains(sum, "leaf3 ("+swA+", ) will change: +3 -3 lines\n") {
		t.Errorf("the summary:\n%s", sum)
	}
	if lines := strings.Count(sum, "\n"); lines > 12 {
		t.Errorf("the summary of 6 devices has %d lines:\n%s", lines, sum)
	}
}

// TestMarkdownTruncationKeepsFlags: the command a cut plan tells the
// reader to run to save the whole plan carries the plan's own flags.
func TestMarkdownTruncationKeepsFlags(t *testing.T) {
	var b strings.Builder
	md := planMarkdown{Limit: minMarkdownLimit, Dir: "fab", FollowUp: []string{"-var", "leaves=4", "--inventory", "'inv x.json'"}}
	if err := md.write(&b, &planfile.Plan{Fabric: "f", Devices: manyDevices(400, "arista_eos")}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "<code>fabricgen plan fab -var leaves=4 --inventory &#39;inv x.json&#39; -out plan.json</code>"; !strings.Contains(b.String(), want) {
		t.Errorf("no %q in the note:\n%s", want, b.String()[max(0, b.Len()-600):])
	}
}
