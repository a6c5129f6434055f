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
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

var (
	goldenPlatformRe = regexp.MustCompile(`device (\S+) \(([a-z_]+)\)`)
	// goldenDriverRe is a linux_dcb script's header line naming its NIC driver.
	goldenDriverRe = regexp.MustCompile(`(?m)^# NIC driver (\S+)`)
	// goldenHostPortRe is a host script's heading of one port's commands
	// (a blank line, then "# NAME"): the netdevs the emulated host has.
	goldenHostPortRe = regexp.MustCompile(`(?m)^\n# (\S+)$`)
)

// TestTemplatesGoldenAccepted loads every rendered configuration the
// templates package keeps as a golden file into the matching emulator:
// each line the templates produce must be accepted.
func TestTemplatesGoldenAccepted(t *testing.T) {
	var files []string
	// The examples' goldens and the stanza fixture's (every port and ACL
	// entry shape of every platform, IPv6 ACLs included).
	for _, root := range []string{"../../templates/testdata/golden", "../../templates/testdata/stanza/golden"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".err") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		name, _ := filepath.Rel("../../templates/testdata", f)
		if strings.HasSuffix(f, ".json") {
			t.Run(filepath.ToSlash(name), func(t *testing.T) {
				acceptConfigDB(t, strings.TrimSuffix(filepath.Base(f), ".json"), string(data))
			})
			continue
		}
		m := goldenPlatformRe.FindStringSubmatch(string(data))
		if m == nil {
			t.Errorf("%s: no \"device NAME (PLATFORM)\" header and not CONFIG_DB JSON: the lab cannot tell which emulator takes it", name)
			continue
		}
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			spec := cli.Spec{Name: m[1], Platform: schema.Platform(m[2]), Username: testUser, Password: testPass}
			if dm := goldenDriverRe.FindStringSubmatch(string(data)); dm != nil {
				spec.Driver = dm[1]
			}
			if platforms.IsHost(schema.Platform(m[2])) {
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
			if p := schema.Platform(m[2]); platforms.IsHost(p) || p == schema.NvidiaCumulus {
				lines = scriptBody(lines)
			}
			if err := emu.OutOfBand(lines); err != nil {
				t.Errorf("%v", err)
			}
		})
	}
	t.Logf("%d golden configurations checked", n)
}

// acceptConfigDB applies a rendered CONFIG_DB fragment to a SONiC
// emulator the way push does: compare it with the running CONFIG_DB, write
// the JSON Patch to a file in a shell session and run `sudo config
// apply-patch` on it; the switch must then hold every rendered field.
func acceptConfigDB(t *testing.T, device, rendered string) {
	t.Helper()
	var doc map[string]map[string]any
	if err := json.Unmarshal([]byte(rendered), &doc); err != nil {
		t.Fatalf("rendered CONFIG_DB: %v", err)
	}
	ports := slices.Sorted(maps.Keys(doc["PORT"]))
	if len(ports) == 0 {
		t.Fatal("the rendered CONFIG_DB has no PORT table")
	}
	env := testEnv(device, schema.SONiC)
	env.Spec.Ports = ports
	emu, err := newEmulator(env)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := platforms.Dialect(schema.SONiC)
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

// TestUnnumberedPortsAccepted renders a routed port without an address
// (routed = true: BGP unnumbered on the IPv6 link-local address) for every
// switch platform whose templates render one, and loads each into its
// emulator: the examples' goldens cover EOS only.
func TestUnnumberedPortsAccepted(t *testing.T) {
	dir := t.TempDir()
	src := `
traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  queue    = 3
  lossless = true
}
qos_policy "p" {
  trust   = "dscp"
  classes = [traffic_class.roce]
}
fabric "unnumbered" {
  qos_policy = qos_policy.p
}
device "eos1" {
  kind     = "leaf"
  platform = "arista_eos"
  port "Ethernet1" { routed = true }
}
device "nxos1" {
  kind     = "leaf"
  platform = "cisco_nxos"
  port "Ethernet1/1" { routed = true }
}
device "junos1" {
  kind     = "leaf"
  platform = "juniper_junos"
  port "et-0/0/0" { routed = true }
}
device "cumulus1" {
  kind     = "leaf"
  platform = "nvidia_cumulus"
  port "swp1" { routed = true }
}
`
	if err := os.WriteFile(filepath.Join(dir, "u.fab.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Devices {
		t.Run(string(d.Platform.V), func(t *testing.T) {
			out, err := r.Render(f, d)
			if err != nil {
				t.Fatal(err)
			}
			env := &cli.Env{
				Spec:      cli.Spec{Name: d.Name, Platform: d.Platform.V, Username: testUser, Password: testPass},
				AfterFunc: func(time.Duration, func()) func() { return func() {} },
				Now:       time.Now,
			}
			emu, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(out.Text), "\n")
			if d.Platform.V == schema.NvidiaCumulus {
				lines = scriptBody(lines)
			}
			if err := emu.OutOfBand(lines); err != nil {
				t.Errorf("%v\n%s", err, out.Text)
			}
		})
	}
}
