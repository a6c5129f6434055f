package push

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// platformCase is one platform's lab device and rendered config: its
// folder's push end-to-end case (platforms/<f>/testdata/push.json).
type platformCase struct {
	// pl is the platform's registry entry, fx its folder's fixture.
	pl  platform.Platform
	fx  platformtest.Fixture
	dev testDevice
	// oob is an out-of-band change another administrator makes.
	oob []string
	// reject matches a line of the change set, for the rejected-command test.
	reject string
	// dropAfter is the number of config commands after which the
	// disconnect test drops the connection (default 3).
	dropAfter int
}

// repoRoot is the repository's root as push's tests see it.
const repoRoot = ".."

// caseFrom reads fixture fx's push end-to-end case.
func caseFrom(fx platformtest.Fixture) (platformCase, error) {
	c, err := fx.Push()
	if err != nil {
		return platformCase{}, err
	}
	return platformCase{
		pl: fx.Platform, fx: fx,
		dev: testDevice{name: c.Device, platform: fx.Platform.Name, rendered: c.Rendered, ports: c.Ports, driver: c.Driver},
		oob: c.OOB, reject: c.Reject, dropAfter: c.DropAfter,
	}, nil
}

// platformCases returns the end-to-end case of every platform of the
// registry, in registry order, its config the folder's golden render; it
// fails the test naming every folder without a usable case.
func platformCases(t testing.TB) []platformCase {
	t.Helper()
	var out []platformCase
	var problems []string
	for _, fx := range platformtest.All(repoRoot) {
		pc, err := caseFrom(fx)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out = append(out, pc)
	}
	if len(problems) > 0 {
		t.Fatalf("push end-to-end cases:\n%s", strings.Join(problems, "\n"))
	}
	return out
}

// caseWhere returns the first end-to-end case, in registry order, that is
// what, failing the test when none is (never a case found by its position
// in the list or by its platform's name).
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

// casesWhere returns every end-to-end case that is what, failing the test
// when none is.
func casesWhere(t testing.TB, what string, is func(platformCase) bool) []platformCase {
	t.Helper()
	var out []platformCase
	for _, pc := range platformCases(t) {
		if is(pc) {
			out = append(out, pc)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no push end-to-end case for %s", what)
	}
	return out
}

// dialectOf is the case's platform dialect.
func (pc platformCase) dialect() *dialect.Dialect { return pc.pl.Dialect() }

// planGolden is the golden file of the case's first plan diff, in its
// platform's folder.
func (pc platformCase) planGolden() string { return filepath.Join(pc.fx.Dir, "push", "plan.diff") }

// TestE2ECasesComplete: every platform of the registry has an end-to-end
// case whose device has a golden render, and a folder whose push.json is
// missing, broken or names another device fails naming the folder (on a
// temporary copy of the fixture).
func TestE2ECasesComplete(t *testing.T) {
	for _, fx := range platformtest.All(repoRoot) {
		if _, err := caseFrom(fx); err != nil {
			t.Error(err)
			continue
		}
		want := "platforms/" + fx.Platform.Folder + ":"
		for name, edit := range map[string]func(string) error{
			"missing": os.Remove,
			"broken":  func(p string) error { return os.WriteFile(p, []byte(`{"device": `), 0o600) },
			"other device": func(p string) error {
				ports := ""
				if fx.Platform.Spec.Host {
					ports = `, "ports": ["p"]`
				}
				return os.WriteFile(p, []byte(`{"device": "no-such-device", "oob": ["x"], "reject": "x"`+ports+`}`), 0o600)
			},
			"unknown field": func(p string) error {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				return os.WriteFile(p, []byte(strings.Replace(string(b), "{", `{"devise": "x",`, 1)), 0o600)
			},
		} {
			cp := copyFixture(t, fx)
			if err := edit(filepath.Join(cp.Dir, "push.json")); err != nil {
				t.Fatal(err)
			}
			if _, err := caseFrom(cp); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s with push.json %s: error %v, want one naming the folder", fx.Platform.Folder, name, err)
			}
		}
	}
}

// copyFixture copies the fixture's push.json and golden renders to a
// temporary testdata directory.
func copyFixture(t *testing.T, fx platformtest.Fixture) platformtest.Fixture {
	t.Helper()
	cp := platformtest.Fixture{Platform: fx.Platform, Dir: filepath.Join(t.TempDir(), "testdata")}
	goldens, err := fx.Goldens()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range append(goldens, filepath.Join(fx.Dir, "push.json")) {
		rel, err := filepath.Rel(fx.Dir, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := golden.Write(filepath.Join(cp.Dir, rel), []byte(readFile(t, src))); err != nil {
			t.Fatal(err)
		}
	}
	return cp
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
			checkGolden(t, pc.planGolden(), d.Diff.Text)
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
	pc := caseWhere(t, "a switch", func(pc platformCase) bool { return !pc.pl.Spec.Host })
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
	pc := caseWhere(t, "a switch", func(pc platformCase) bool { return !pc.pl.Spec.Host })
	first, second := pc.dev, pc.dev
	first.name, second.name = "leaf1", "leaf2"
	r := newRig(t, first, second)
	p := r.plan()
	r.lab.Device("leaf1").SetFault(lab.Fault{Reject: pc.reject})
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
	dl := pc.dialect()
	if config.Normalize(r.lab.Device("leaf2").RunningConfig(), dl) != config.Normalize(before, dl) {
		t.Error("a skipped device was changed")
	}
}

// TestDay2CasesComplete: every platform of the registry has an end-to-end
// case and a day-2 change (TestDay2ChangeEveryPlatform), and the check
// names a folder whose fixture cannot take the day-2 change.
func TestDay2CasesComplete(t *testing.T) {
	for _, pc := range platformCases(t) {
		text := readFile(t, filepath.Join(pc.fx.FabricDir(), "qos.fab.hcl"))
		for _, e := range day2Edit {
			if !strings.Contains(text, e.old) {
				t.Errorf("platforms/%s: testdata/fabric/qos.fab.hcl has no %q for the day-2 change", pc.pl.Folder, e.old)
			}
		}
	}
}
