package snapshot

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming every platform of the registry that
// check has no collector for.
func TestRegistryComplete(t *testing.T) {
	for _, p := range platforms.NamesNeeding("check collector") {
		c, err := Lookup(p)
		if err != nil {
			pl, _ := platforms.Get(p)
			t.Errorf("platform %s has no collector: give platforms/%s its collector.go and its Collector line (%v)", p, pl.Folder, err)
			continue
		}
		if len(c.Commands()) == 0 {
			t.Errorf("%s: the collector lists no command", p)
		}
	}
	if _, err := Lookup("vyos"); err == nil || !strings.Contains(err.Error(), "no collector") {
		t.Errorf("Lookup(vyos) = %v", err)
	}
}

// TestCollectorsOnlyRead runs a whole collection with every device of the
// lab refusing every command that would change it (Fault.Reject ".*"):
// each collector command must be a read-only form, so nothing fails, and
// the devices' configurations are untouched.
func TestCollectorsOnlyRead(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	fl := startFabricLab(t, "clos-400g")
	before := map[string]string{}
	for _, n := range fl.lab.Names() {
		before[n] = stable(fl.lab.Device(n).Export())
		fl.lab.Device(n).SetFault(lab.Fault{Reject: ".*"})
	}
	s, err := Take(context.Background(), fl.f.Devices, fl.opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Devices {
		if d.Error != "" {
			t.Errorf("%s (%s): %s", d.Name, d.Platform, d.Error)
		}
		if len(d.Ports) == 0 {
			t.Errorf("%s: no port read", d.Name)
		}
	}
	for _, n := range fl.lab.Names() {
		if got := stable(fl.lab.Device(n).Export()); got != before[n] {
			t.Errorf("%s: the collection changed the configuration", n)
		}
	}
	// Every collector's listed commands, on its platform's shell or CLI,
	// are among what the devices ran: each on every device of the
	// platform, or (a command only some devices need, such as the MLNX_OFED
	// DCQCN read-back) on at least one device of the collector.
	seen := map[string]bool{}
	for _, n := range fl.lab.Names() {
		hist := strings.Join(fl.lab.Device(n).History(), "\n")
		c, _ := Lookup(fl.f.Device(n).Platform.V)
		for _, cmd := range c.Commands() {
			if commandPattern(cmd).MatchString(hist) {
				seen[cmd] = true
			} else if !strings.Contains(cmd, "PRIO") {
				t.Errorf("%s: %q was never run", n, cmd)
			}
		}
	}
	for _, n := range fl.lab.Names() {
		c, _ := Lookup(fl.f.Device(n).Platform.V)
		for _, cmd := range c.Commands() {
			if !seen[cmd] {
				t.Errorf("%s: no device ran %q", fl.f.Device(n).Platform.V, cmd)
				seen[cmd] = true
			}
		}
	}
}

// TestCollectorsOnFolderFixtures: for every platform of the registry, a
// lab of its folder's fixture devices (platformtest), with the fixture's
// intent applied, is read by check: the folder's collector runs against
// the folder's data-plane responder in the lab. Every device is read
// without error, every port of the intent is read, and every command the
// collector lists is run (IF, DEV, PRIO on at least one device). A copy
// of a folder (scripts/newplatform) is checked the same way.
func TestCollectorsOnFolderFixtures(t *testing.T) {
	for _, fx := range platformtest.All(filepath.Join("..", "..", "..")) {
		t.Run(string(fx.Platform.Name), func(t *testing.T) {
			f, err := fx.Load()
			if err != nil {
				t.Fatal(err)
			}
			// The fixture has no credentials: log in as the lab's user.
			for _, d := range f.Devices {
				d.Credentials.Username = schema.Value[string]{V: "admin", Set: true}
				d.Credentials.PasswordEnv = schema.Value[string]{V: "FABRICGEN_PASSWORD", Set: true}
			}
			devs := fx.Devices(f)
			if linkPairs(f, devs) == 0 {
				t.Fatalf("platforms/%s: the fixture's devices have fewer than two ports: check reads linked ports", fx.Platform.Folder)
			}
			// The factory configuration is read: applying the fixture is
			// push's test (a fixture device may hold what push refuses).
			fl := startLabOf(t, f, devs)
			s, err := Take(context.Background(), devs, fl.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Devices) != len(devs) {
				t.Fatalf("%d devices read, want %d", len(s.Devices), len(devs))
			}
			byName := map[string]*schema.Device{}
			for _, d := range devs {
				byName[d.Name] = d
			}
			for _, d := range s.Devices {
				if d.Error != "" {
					t.Errorf("%s: %s", d.Name, d.Error)
					continue
				}
				read := map[string]bool{}
				for _, p := range d.Ports {
					read[p.Name] = true
				}
				dev := byName[d.Name]
				if dev == nil {
					t.Errorf("%s: read, but not a device of the fixture", d.Name)
					continue
				}
				for _, p := range dev.Ports {
					if p.Link != nil && !read[p.Name] {
						t.Errorf("%s: port %s was not read", d.Name, p.Name)
					}
				}
			}
			c, err := Lookup(fx.Platform.Name)
			if err != nil {
				t.Fatal(err)
			}
			var hist []string
			for _, d := range devs {
				hist = append(hist, fl.lab.Device(d.Name).History()...)
			}
			all := strings.Join(hist, "\n")
			for _, cmd := range c.Commands() {
				if !commandPattern(cmd).MatchString(all) {
					t.Errorf("platforms/%s: the collector's %q was never run", fx.Platform.Folder, cmd)
				}
			}
		})
	}
}

// linkPairs links the ports of devs two by two, in order (check reads a
// device's linked ports; a folder's fixture has no links, so that growing
// it changes no other folder's goldens). It returns the number of links.
func linkPairs(f *schema.Fabric, devs []*schema.Device) int {
	var ports []*schema.Port
	for _, d := range devs {
		for _, p := range d.Ports {
			if p.Link == nil {
				ports = append(ports, p)
			}
		}
	}
	for i := 0; i+1 < len(ports); i += 2 {
		l := &schema.Link{Name: fmt.Sprintf("test[%d]", i/2), A: ports[i], B: ports[i+1],
			Media: schema.Value[string]{V: "dac", Set: true}, CableLength: schema.Value[float64]{V: 3, Set: true}}
		ports[i].Link, ports[i+1].Link = l, l
		ports[i].Peer, ports[i+1].Peer = ports[i+1], ports[i]
		f.Links = append(f.Links, l)
	}
	return len(ports) / 2
}

// commandPattern matches a listed command in a history, IF, DEV and PRIO
// standing for a port, an RDMA device and a priority.
func commandPattern(cmd string) *regexp.Regexp {
	q := regexp.QuoteMeta(cmd)
	q = strings.NewReplacer("IF", `[\w./:-]+`, "DEV", `\w+`, "PRIO", `[0-7]`).Replace(q)
	return regexp.MustCompile(`(?m)^` + q + `($|;)`)
}

// stable drops the clock lines a configuration prints (NX-OS "!Time:").
func stable(cfg string) string {
	var out []string
	for _, l := range strings.Split(cfg, "\n") {
		if !strings.HasPrefix(l, "!Time:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
