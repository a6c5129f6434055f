package push

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/fabricgen/fabricgen/internal/golden"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// platformCase is one platform's lab device and rendered config.
type platformCase struct {
	dev testDevice
	// oob is an out-of-band change another administrator makes.
	oob []string
	// reject matches a line of the change set, for the rejected-command test.
	reject string
	// dropAfter is the number of config commands after which the
	// disconnect test drops the connection (default 3).
	dropAfter int
}

// goldenDir holds the template goldens of the clos-400g example, which has
// a device of every platform: push's end-to-end cases apply those renders,
// so what is pushed in tests is what fabricgen renders today.
const goldenDir = "../templates/testdata/golden/clos-400g"

// e2eCase is one platform's push end-to-end case: a device of the golden
// example and what the tests do to it.
type e2eCase struct {
	// device is the device of goldenDir, golden its render's file name.
	device, golden string
	// ports are the lab host's interfaces (hosts only).
	ports []string
	// oob is an out-of-band change another administrator makes.
	oob []string
	// reject matches a line of the change set, for the rejected-command test.
	reject string
	// dropAfter is the number of config commands after which the
	// disconnect test drops the connection (default 3).
	dropAfter int
}

// e2eCases is the registry of push end-to-end cases, keyed by platform: a
// new platform adds its line here (TestE2ECasesComplete fails until then).
func e2eCases() map[schema.Platform]e2eCase {
	return map[schema.Platform]e2eCase{
		schema.AristaEOS: {device: "leaf1", golden: "leaf1.cfg",
			oob: []string{"logging host 192.0.2.99"}, reject: `^priority-flow-control priority 3`},
		schema.CiscoNXOS: {device: "leaf2", golden: "leaf2.cfg",
			oob: []string{"logging server 192.0.2.99"}, reject: `^priority-flow-control mode on`},
		schema.JuniperJunos: {device: "spine1", golden: "spine1.set",
			oob: []string{"set system ntp server 192.0.2.124"}, reject: `pfc-priority`},
		schema.NvidiaCumulus: {device: "leaf4", golden: "leaf4.nvue",
			oob: []string{"nv set system timezone Europe/Paris"}, reject: `pfc default-global switch-priority`},
		schema.SONiC: {device: "leaf3", golden: "leaf3.json",
			oob: []string{`[{"op":"add","path":"/NTP_SERVER/192.0.2.124","value":{}}]`}, reject: `apply-patch`, dropAfter: 2},
		schema.NvidiaMLNX: {device: "nic01", golden: "nic01.sh", ports: []string{"ens1f0np0"},
			oob: []string{"ip link set dev ens1f0np0 mtu 1600"}, reject: `--pfc`},
		schema.LinuxDCB: {device: "nic02", golden: "nic02.sh", ports: []string{"enp65s0f0np0"},
			oob: []string{"ip link set dev enp65s0f0np0 mtu 1600"}, reject: `^dcb pfc set`},
	}
}

// e2eCaseProblems lists, naming the platform, every platform of the model
// without an end-to-end case in table, or whose case's golden render is
// missing or belongs to another device or platform.
func e2eCaseProblems(dir string, table map[schema.Platform]e2eCase) []string {
	var out []string
	for _, p := range schema.Platforms() {
		c, ok := table[p]
		if !ok {
			out = append(out, fmt.Sprintf("%s: no push end-to-end case (add its line to e2eCases in push/lab_test.go)", p))
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, c.golden))
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		// Every render but SONiC's JSON names its device and platform
		// in its header.
		if head := fmt.Sprintf("device %s (%s)", c.device, p); p != schema.SONiC && !strings.Contains(firstLines(string(b), 3), head) {
			out = append(out, fmt.Sprintf("%s: %s is not the render of %s", p, c.golden, head))
		}
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// platformCases returns the end-to-end case of every platform, in
// schema.Platforms order, its config read from the template golden; it
// fails the test naming any platform without one.
func platformCases(t testing.TB) []platformCase {
	t.Helper()
	cases := e2eCases()
	if problems := e2eCaseProblems(goldenDir, cases); len(problems) > 0 {
		t.Fatalf("push end-to-end cases:\n%s", strings.Join(problems, "\n"))
	}
	var out []platformCase
	for _, p := range schema.Platforms() {
		c := cases[p]
		out = append(out, platformCase{
			dev:    testDevice{name: c.device, platform: p, rendered: readFile(t, filepath.Join(goldenDir, c.golden)), ports: c.ports},
			oob:    c.oob,
			reject: c.reject, dropAfter: c.dropAfter,
		})
	}
	return out
}

// caseOf returns platform p's end-to-end case, failing the test when
// there is none (never a case found by its position in the list).
func caseOf(t testing.TB, p schema.Platform) platformCase {
	t.Helper()
	return caseWhere(t, "platform "+string(p), func(pc platformCase) bool { return pc.dev.platform == p })
}

// caseWhere returns the first end-to-end case that is what, failing the
// test when none is.
func caseWhere(t testing.TB, what string, is func(platformCase) bool) platformCase {
	t.Helper()
	for _, pc := range platformCases(t) {
		if is(pc) {
			return pc
		}
	}
	t.Fatalf("no push end-to-end case for %s", what)
	return platformCase{}
}

// goldenRender is the current template render of the platform's case.
func goldenRender(t testing.TB, p schema.Platform) string {
	t.Helper()
	c, ok := e2eCases()[p]
	if !ok {
		t.Fatalf("%s: no push end-to-end case", p)
	}
	return readFile(t, filepath.Join(goldenDir, c.golden))
}

// TestE2ECasesComplete: every platform has an end-to-end case built from
// its current template golden, and the check names a platform whose case
// is removed or points at another device's render.
func TestE2ECasesComplete(t *testing.T) {
	for _, problem := range e2eCaseProblems(goldenDir, e2eCases()) {
		t.Error(problem)
	}
	for _, p := range schema.Platforms() {
		table := e2eCases()
		delete(table, p)
		if got := e2eCaseProblems(goldenDir, table); len(got) != 1 || !strings.HasPrefix(got[0], string(p)+":") {
			t.Errorf("with %s removed: problems %q", p, got)
		}
		table = e2eCases()
		c := table[p]
		c.device = "no-such-device"
		table[p] = c
		if got := e2eCaseProblems(goldenDir, table); p != schema.SONiC && (len(got) != 1 || !strings.HasPrefix(got[0], string(p)+":")) {
			t.Errorf("with %s pointing at another render: problems %q", p, got)
		}
	}
}

func (r *rig) plan() *planfile.Plan {
	r.t.Helper()
	p, err := Plan(context.Background(), r.f, r.inputs, "test", r.opts)
	if err != nil {
		r.t.Fatalf("Plan: %v", err)
	}
	return p
}

func (r *rig) apply(p *planfile.Plan, backups string) []Result {
	r.t.Helper()
	opts := r.opts
	opts.State.BackupRoot = backups
	res, err := Apply(context.Background(), p, r.f, r.inputs, ApplyOptions{Options: opts})
	if err != nil {
		r.t.Fatalf("Apply: %v", err)
	}
	return res
}

// TestPlatformConverges: the plan from factory config is exactly the
// golden diff (and patch(1) applies it), apply converges, a second plan
// is empty, a second apply changes nothing, unrelated config is untouched,
// the backup is the config before the change, and the secret appears in no
// output or file.
func TestPlatformConverges(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			factory := dev.RunningConfig()
			dl, _ := platforms.Dialect(pc.dev.platform)
			fetched, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
			if err != nil {
				t.Fatal(err)
			}

			p := r.plan()
			d := p.Devices[0]
			if d.Status != planfile.StatusChange {
				t.Fatalf("first plan: status %s (%s), want change", d.Status, d.Error)
			}
			checkGolden(t, filepath.Join("testdata", "golden", string(pc.dev.platform)+".diff"), d.Diff.Text)
			checkPatch(t, r, pc, d.Diff.Text)

			backups := t.TempDir()
			res := r.apply(p, backups)
			if res[0].Status != StatusApplied {
				t.Fatalf("apply: %s: %s", res[0].Status, res[0].Reason)
			}
			if backup := readFile(t, res[0].Backup); config.Digest(backup, dl) != config.Digest(fetched, dl) {
				t.Errorf("backup differs from the config before the change")
			}

			p2 := r.plan()
			if d2 := p2.Devices[0]; d2.Status != planfile.StatusUnchanged || d2.Diff.Text != "" {
				t.Fatalf("second plan: status %s (%s), diff:\n%s", d2.Status, d2.Error, d2.Diff.Text)
			}
			res2 := r.apply(p2, t.TempDir())
			if res2[0].Status != StatusUnchanged {
				t.Errorf("second apply: %s %s, want unchanged", res2[0].Status, res2[0].Reason)
			}
			switch {
			case dl.ConfigDB:
				untouchedDB(t, factory, dev.RunningConfig(), pc.dev.rendered)
			case !dl.Host:
				untouched(t, dl, factory, dev.RunningConfig())
			}

			var all strings.Builder
			_ = p.Write(&all)
			_ = p2.Write(&all)
			for _, x := range append(res, res2...) {
				all.WriteString(x.Reason + x.DeviceDiff + x.Backup)
			}
			noSecret(t, "plan and results", all.String())
			scanDir(t, backups)
			scanDir(t, r.dir)
		})
	}
}

// untouched checks that every line of the factory config outside the
// managed sections is still in the running config.
func untouched(t *testing.T, dl *dialect.Dialect, before, after string) {
	t.Helper()
	have := map[string]bool{}
	var walk func(prefix string, ns []*config.Node, add bool)
	walk = func(prefix string, ns []*config.Node, add bool) {
		for _, n := range ns {
			k := prefix + "/" + n.Line
			if add {
				have[k] = true
			} else if !have[k] {
				t.Errorf("unrelated line %q is gone after apply", k)
			}
			walk(k, n.Children, add)
		}
	}
	walk("", config.Parse(after, dl).Nodes, true)
	walk("", config.Parse(before, dl).Nodes, false)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// untouchedDB checks that every CONFIG_DB field the rendered fragment does
// not set kept its value (QoS map keys fabricgen renders are its own).
func untouchedDB(t *testing.T, before, after, rendered string) {
	t.Helper()
	flat := func(s string) map[string]string {
		var doc map[string]map[string]map[string]any
		if err := json.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for tb, keys := range doc {
			for k, fs := range keys {
				for f, v := range fs {
					out[tb+"|"+k+"|"+f] = fmt.Sprint(v)
				}
			}
		}
		return out
	}
	b, a, r := flat(before), flat(after), flat(rendered)
	for f, v := range b {
		if _, ours := r[f]; ours {
			continue
		}
		if a[f] != v {
			t.Errorf("unrelated field %s changed from %q to %q", f, v, a[f])
		}
	}
}

// checkPatch applies the plan's diff to the running managed text with
// patch(1) and expects the desired managed text.
func checkPatch(t *testing.T, r *rig, pc platformCase, diff string) {
	t.Helper()
	if _, err := exec.LookPath("patch"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("patch(1) not found")
		}
		t.Skip("patch(1) not found: skipping the patch round trip")
	}
	dl, _ := platforms.Dialect(pc.dev.platform)
	running, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := config.Compare(pc.dev.name, running, pc.dev.rendered, dl)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "managed.txt")
	if err := os.WriteFile(file, []byte(cmp.Running), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "--quiet", file)
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	if got := readFile(t, file); got != cmp.Desired {
		t.Errorf("patched running != desired:\n%s\nwant:\n%s", got, cmp.Desired)
	}
}

// fetchDirect reads the device state the way plan does, over SSH.
func fetchDirect(r *rig, name string, dl *dialect.Dialect, rendered string) (string, error) {
	d := r.f.Device(name)
	conn, err := connect(context.Background(), d, dl, r.opts.address(d), &r.opts)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	return fetch(conn, dl, rendered)
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.Check(t, path, []byte(got), "go test ./push -update")
}

func scanDir(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil {
			noSecret(t, p, string(b))
		}
		return nil
	})
}

// TestStalePlanRefused: a change made on the device after the plan makes
// apply refuse the device and send nothing.
func TestStalePlanRefused(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			r := newRig(t, pc.dev)
			dev := r.lab.Device(pc.dev.name)
			p := r.plan()
			if err := dev.ConfigureOutOfBand(pc.oob); err != nil {
				t.Fatalf("out-of-band change: %v", err)
			}
			changed := dev.RunningConfig()
			res := r.apply(p, t.TempDir())
			if res[0].Status != StatusStale {
				t.Fatalf("apply after out-of-band change: %s (%s), want stale", res[0].Status, res[0].Reason)
			}
			dl, _ := platforms.Dialect(pc.dev.platform)
			if config.Normalize(dev.RunningConfig(), dl) != config.Normalize(changed, dl) {
				t.Errorf("a stale device was changed")
			}
		})
	}
}

// TestFailureRollsBack: a rejected command and a connection dropped in the
// middle of the change each leave the device exactly as before.
func TestFailureRollsBack(t *testing.T) {
	for _, pc := range platformCases(t) {
		faults := []struct {
			name  string
			fault lab.Fault
		}{
			{"rejected", lab.Fault{Reject: pc.reject}},
			{"disconnect", lab.Fault{DropAfter: max(pc.dropAfter, 3*btoi(pc.dropAfter == 0))}},
		}
		for _, fc := range faults {
			t.Run(string(pc.dev.platform)+"/"+fc.name, func(t *testing.T) {
				r := newRig(t, pc.dev)
				dev := r.lab.Device(pc.dev.name)
				before := dev.RunningConfig()
				p := r.plan()
				dev.SetFault(fc.fault)
				res := r.apply(p, t.TempDir())
				dev.ClearFault()
				t.Logf("%s: %s", res[0].Status, res[0].Reason)
				if res[0].Status != StatusRolledBack {
					t.Fatalf("apply with fault %s: %s (%s), want rolled back", fc.name, res[0].Status, res[0].Reason)
				}
				dl, _ := platforms.Dialect(pc.dev.platform)
				backup := readFile(t, res[0].Backup)
				if dl.Host {
					// A host has no config file: what can be compared is
					// every setting the script touches, read back with the
					// NIC tools, which is what the backup holds.
					now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
					if err != nil {
						t.Fatal(err)
					}
					if config.Normalize(now, dl) != config.Normalize(backup, dl) {
						t.Errorf("host settings differ from the backup after rollback:\n%s",
							config.Unified("backup", "now", config.Normalize(backup, dl), config.Normalize(now, dl)).Text)
					}
					return
				}
				if a, b := config.Normalize(before, dl), config.Normalize(dev.RunningConfig(), dl); a != b {
					t.Errorf("device changed after rollback:\n%s", config.Unified("before", "after", a, b).Text)
				}
				now, err := fetchDirect(r, pc.dev.name, dl, pc.dev.rendered)
				if err != nil {
					t.Fatal(err)
				}
				if config.Digest(backup, dl) != config.Digest(now, dl) {
					t.Errorf("backup differs from the running config after rollback")
				}
				noSecret(t, "result", res[0].Reason)
			})
		}
	}
}

var reFingerprint = regexp.MustCompile(`SHA256:[A-Za-z0-9+/]{43}`)

// TestHostKeyRefused: a changed host key and an unknown one are refused
// with the fingerprint; nothing is fetched.
func TestHostKeyRefused(t *testing.T) {
	pc := caseOf(t, schema.AristaEOS)
	r := newRig(t, pc.dev)
	if err := r.lab.RotateHostKey(pc.dev.name); err != nil {
		t.Fatal(err)
	}
	p := r.plan()
	d := p.Devices[0]
	if d.Status != planfile.StatusError || !strings.Contains(d.Error, "does not match known_hosts") || !reFingerprint.MatchString(d.Error) {
		t.Errorf("changed host key: status %s, error %q", d.Status, d.Error)
	}

	empty := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	hk, err := NewHostKeysForTest(empty)
	if err != nil {
		t.Fatal(err)
	}
	r.opts.HostKeys = hk
	d = r.plan().Devices[0]
	if d.Status != planfile.StatusError || !strings.Contains(d.Error, "is not in known_hosts") || !reFingerprint.MatchString(d.Error) {
		t.Errorf("unknown host key: status %s, error %q", d.Status, d.Error)
	}
	noSecret(t, "error", d.Error)
}

// TestFailFast: with --fail-fast and one device at a time, a failure on
// the first device leaves the second untouched and reported as skipped.
func TestFailFast(t *testing.T) {
	eos := goldenRender(t, schema.AristaEOS)
	r := newRig(t,
		testDevice{name: "leaf1", platform: schema.AristaEOS, rendered: eos},
		testDevice{name: "leaf2", platform: schema.AristaEOS, rendered: eos})
	p := r.plan()
	r.lab.Device("leaf1").SetFault(lab.Fault{Reject: `^qos map`})
	before := r.lab.Device("leaf2").RunningConfig()
	opts := r.opts
	opts.Parallelism = 1
	opts.State.BackupRoot = t.TempDir()
	res, err := Apply(context.Background(), p, r.f, r.inputs, ApplyOptions{Options: opts, FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != StatusRolledBack || res[1].Status != StatusSkipped {
		t.Fatalf("results: %s (%s), %s (%s); want rolled back, skipped", res[0].Status, res[0].Reason, res[1].Status, res[1].Reason)
	}
	dl, _ := platforms.Dialect(schema.AristaEOS)
	if config.Normalize(r.lab.Device("leaf2").RunningConfig(), dl) != config.Normalize(before, dl) {
		t.Error("a skipped device was changed")
	}
}

// missingPlatforms lists the platforms of the model missing from have,
// naming what was looked for.
func missingPlatforms(what string, have []schema.Platform) []string {
	var out []string
	for _, p := range schema.Platforms() {
		if !slices.Contains(have, p) {
			out = append(out, fmt.Sprintf("%s: no %s", p, what))
		}
	}
	return out
}

// TestDay2CasesComplete: the brownfield takeover cases and the change
// matrix cover every platform, and the check names one left out.
func TestDay2CasesComplete(t *testing.T) {
	var brownfield, matrix []schema.Platform
	for _, bc := range brownfieldCases(t) {
		brownfield = append(brownfield, bc.pc.dev.platform)
	}
	for _, md := range matrixDevices {
		matrix = append(matrix, md.platform)
	}
	for _, problem := range append(missingPlatforms("brownfield case (brownfieldCases in push/brownfield_test.go)", brownfield),
		missingPlatforms("change-matrix device (matrixDevices in push/matrix_helpers_test.go)", matrix)...) {
		t.Error(problem)
	}
	if got := missingPlatforms("case", matrix[1:]); len(got) != 1 || !strings.HasPrefix(got[0], string(matrix[0])+":") {
		t.Errorf("with %s left out: problems %q", matrix[0], got)
	}
}
