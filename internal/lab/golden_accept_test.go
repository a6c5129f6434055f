package lab

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

var (
	goldenPlatformRe = regexp.MustCompile(`device (\S+) \(([a-z_]+)\)`)
	// goldenDriverRe is a linux_dcb script's header line naming its NIC driver.
	goldenDriverRe = regexp.MustCompile(`(?m)^# NIC driver (\S+)`)
	// goldenHostPortRe is a host script's heading of one port's commands
	// (a blank line, then "# NAME"): the netdevs the emulated host has.
	goldenHostPortRe = regexp.MustCompile(`(?m)^\n# (\S+)$`)
)

// TestTemplatesGoldenAccepted loads every rendered configuration kept as
// a golden file, the examples' (templates/testdata/golden) and every
// registry folder's fixture goldens (platforms/<name>/testdata/golden:
// every port and ACL entry shape of the platform, IPv6 ACLs included),
// into the matching emulator: each line the templates produce must be
// accepted.
func TestTemplatesGoldenAccepted(t *testing.T) {
	type golden struct {
		path, label string
		// pl is the platform of the file, when known from where it is.
		pl *platform.Platform
	}
	var files []golden
	const examples = "../../templates/testdata/golden"
	err := filepath.WalkDir(examples, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("../../templates/testdata", p)
			files = append(files, golden{path: p, label: filepath.ToSlash(rel)})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range platformtest.All("../..") {
		paths, err := fx.Goldens()
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Errorf("platforms/%s: no fixture goldens (testdata/golden)", fx.Platform.Folder)
		}
		for _, p := range paths {
			files = append(files, golden{path: p, label: "platforms/" + fx.Platform.Folder + "/" + filepath.Base(p), pl: &fx.Platform})
		}
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f.path, ".err") || strings.Contains(filepath.ToSlash(f.path), "/ib-cluster/") {
			// ib-cluster is InfiniBand: its subnet manager files are
			// not typed into a CLI but swapped in whole, which the opensm
			// emulator accepts through push (platforms/opensm/emulator,
			// cmd/fabricgen TestInfiniBandPushRoundTrip); its hosts' job
			// environment files are not pushed.
			continue
		}
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		n++
		name := f.label
		if strings.HasSuffix(f.path, ".json") {
			t.Run(name, func(t *testing.T) {
				pl := f.pl
				if pl == nil {
					pl = configDBPlatform(t)
				}
				acceptConfigDB(t, *pl, strings.TrimSuffix(filepath.Base(f.path), ".json"), string(data))
			})
			continue
		}
		m := goldenPlatformRe.FindStringSubmatch(string(data))
		if m == nil {
			t.Errorf("%s: no \"device NAME (PLATFORM)\" header and not CONFIG_DB JSON: the lab cannot tell which emulator takes it", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			p := schema.Platform(m[2])
			if f.pl != nil && f.pl.Name != p {
				t.Fatalf("the golden of platforms/%s says it is a %s device", f.pl.Folder, p)
			}
			spec := cli.Spec{Name: m[1], Platform: p, Username: testUser, Password: testPass}
			if dm := goldenDriverRe.FindStringSubmatch(string(data)); dm != nil {
				spec.Driver = dm[1]
			}
			if platforms.IsHost(p) {
				for _, pm := range goldenHostPortRe.FindAllStringSubmatch(string(data), -1) {
					spec.Ports = append(spec.Ports, pm[1])
				}
			}
			env := &cli.Env{
				Spec:      spec,
				AfterFunc: func(time.Duration, func()) func() { return func() {} },
				Now:       time.Now,
			}
			emu, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			if isScript(t, p) {
				lines = scriptBody(lines)
			}
			if err := emu.OutOfBand(lines); err != nil {
				t.Errorf("%v", err)
			}
		})
	}
	t.Logf("%d golden configurations checked", n)
}

// isScript reports whether platform p's render is a script (shell words
// or a host script), whose shebang and comments are no configuration.
func isScript(t *testing.T, p schema.Platform) bool {
	t.Helper()
	dl, err := platforms.Dialect(p)
	if err != nil {
		t.Fatal(err)
	}
	return dl.Lines == dialect.LinesShellWords || dl.Lines == dialect.LinesHostScript
}

// configDBPlatform returns the registry's platform whose configuration is
// CONFIG_DB JSON (an example's golden .json file).
func configDBPlatform(t *testing.T) *platform.Platform {
	t.Helper()
	for _, pl := range platforms.Needing("lab emulator") {
		if pl.Dialect != nil && pl.Dialect().ConfigDB && pl.Render.Ext == "json" {
			return &pl
		}
	}
	t.Fatal("no platform of the registry renders CONFIG_DB JSON")
	return nil
}

// acceptConfigDB applies a rendered CONFIG_DB fragment to a SONiC
// emulator the way push does: compare it with the running CONFIG_DB, write
// the JSON Patch to a file in a shell session and run `sudo config
// apply-patch` on it; the switch must then hold every rendered field.
func acceptConfigDB(t *testing.T, pl platform.Platform, device, rendered string) {
	t.Helper()
	var doc map[string]map[string]any
	if err := json.Unmarshal([]byte(rendered), &doc); err != nil {
		t.Fatalf("rendered CONFIG_DB: %v", err)
	}
	ports := slices.Sorted(maps.Keys(doc["PORT"]))
	if len(ports) == 0 {
		t.Fatal("the rendered CONFIG_DB has no PORT table")
	}
	env := testEnv(device, pl.Name)
	env.Spec.Ports = ports
	emu, err := newEmulator(env)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := platforms.Dialect(pl.Name)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := config.CompareConfigDB(device, emu.Running(), rendered, dl)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Changes.Empty() {
		t.Fatal("the rendered CONFIG_DB changes nothing on a factory switch: the check would prove nothing")
	}
	patch := strings.ReplaceAll(config.PatchDocument(cmp.Changes), "'", `'\''`)
	s := emu.NewSession(&cli.Term{}, testUser)
	for _, line := range []string{
		"printf '%s' '" + patch + "' > /tmp/golden-patch.json",
		"sudo config apply-patch /tmp/golden-patch.json",
	} {
		if r := s.Handle(line); r.Status != 0 {
			t.Fatalf("%.80s: status %d: %s", line, r.Status, r.Out)
		}
	}
	after, err := config.CompareConfigDB(device, emu.Running(), rendered, dl)
	if err != nil {
		t.Fatal(err)
	}
	if !after.Changes.Empty() {
		t.Errorf("after apply-patch the switch still differs from the render:\n%s", strings.Join(after.Changes.Commands(), "\n"))
	}
}

// scriptBody drops the shebang and comments of a host script.
func scriptBody(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// TestUnnumberedPortsAccepted: every switch folder's fixture keeps a
// routed port without an address (routed = true: BGP unnumbered on the
// IPv6 link-local address), so TestTemplatesGoldenAccepted loads one
// render of it into each switch platform's emulator (the examples'
// goldens cover only some platforms).
func TestUnnumberedPortsAccepted(t *testing.T) {
	for _, fx := range platformtest.All("../..") {
		if fx.Platform.Spec.Host {
			continue // a host port is not routed
		}
		t.Run(string(fx.Platform.Name), func(t *testing.T) {
			fab, err := fx.Load()
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range fx.Devices(fab) {
				for _, p := range d.Ports {
					if p.Routed.V && !p.IP.Set {
						if _, err := os.Stat(fx.Golden(d.Name)); err != nil {
							t.Fatalf("%s has the unnumbered port %s but no golden render: %v", d.Name, p.Name, err)
						}
						return
					}
				}
			}
			t.Errorf("platforms/%s: the fixture (testdata/fabric) has no routed port without an address (routed = true)", fx.Platform.Folder)
		})
	}
}
