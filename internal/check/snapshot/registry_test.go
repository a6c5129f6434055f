package snapshot

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming every platform fabricgen knows that
// check has no collector for.
func TestRegistryComplete(t *testing.T) {
	for _, p := range schema.Platforms() {
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
