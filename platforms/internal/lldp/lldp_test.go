package lldp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// TestParseLLDPD covers lldpd's JSON shapes: one interface as an object,
// several as a list, the same interface twice (two neighbours), a chassis
// without a system name, port ID types, no neighbours, and wrong types.
func TestParseLLDPD(t *testing.T) {
	iface := func(local, chassis, port string) string {
		return fmt.Sprintf(`{%q: {"via": "LLDP", "chassis": %s, "port": %s}}`, local, chassis, port)
	}
	named := `{"spine1": {"id": {"type": "mac", "value": "02:00:00:00:00:01"}}}`
	ifname := `{"id": {"type": "ifname", "value": "swp1"}, "descr": "uplink"}`
	for _, c := range []struct {
		name, out string
		want      string
		err       string
	}{
		{"single interface object", `{"lldp": {"interface": ` + iface("eth0", named, ifname) + `}}`, "[{eth0 spine1 swp1}]", ""},
		{"list", `{"lldp": {"interface": [` + iface("eth1", named, ifname) + `, ` + iface("eth0", named, ifname) + `]}}`, "[{eth0 spine1 swp1} {eth1 spine1 swp1}]", ""},
		{"two neighbours on a port", `{"lldp": {"interface": [` + iface("eth0", named, ifname) + `, ` + iface("eth0", `{"spine2": {}}`, ifname) + `]}}`, "[{eth0 spine1 swp1} {eth0 spine2 swp1}]", ""},
		{"no system name: the chassis ID", `{"lldp": {"interface": ` + iface("eth0", `{"id": {"type": "mac", "value": "02:00:00:00:00:09"}, "descr": "x"}`, ifname) + `}}`, "[{eth0 02:00:00:00:00:09 swp1}]", ""},
		{"MAC port ID: the description", `{"lldp": {"interface": ` + iface("eth0", named, `{"id": {"type": "mac", "value": "02:00:00:00:00:01"}, "descr": "ens1f0np0"}`) + `}}`, "[{eth0 spine1 ens1f0np0}]", ""},
		{"local port ID, no description", `{"lldp": {"interface": ` + iface("eth0", named, `{"id": {"type": "local", "value": "etp1"}}`) + `}}`, "[{eth0 spine1 etp1}]", ""},
		{"no neighbours", `{"lldp": {}}`, "[]", ""},
		{"no neighbours, empty list", `{"lldp": []}`, "[]", ""},
		{"json0", `{"lldp": [{"interface": [{"name": "eth0"}]}]}`, "", "json0"},
		{"no lldp", `{"lldpd": {}}`, "", `no "lldp"`},
		{"lldp a string", `{"lldp": "x"}`, "", "want an object"},
		{"interface a number", `{"lldp": {"interface": 1}}`, "", "a number"},
		{"interface body a list", `{"lldp": {"interface": {"eth0": []}}}`, "", `interface "eth0" is a list`},
		{"chassis a string", `{"lldp": {"interface": ` + iface("eth0", `"spine1"`, ifname) + `}}`, "", "chassis is a string"},
		{"chassis two names", `{"lldp": {"interface": ` + iface("eth0", `{"a": {}, "b": {}}`, ifname) + `}}`, "", "chassis has 2 keys"},
		{"terminal escape in a name", `{"lldp": {"interface": ` + iface("eth0", `{"evil\u001b]0;x\u0007": {}}`, ifname) + `}}`, "", "control characters"},
		{"long name", `{"lldp": {"interface": ` + iface("eth0", `{"`+strings.Repeat("s", 300)+`": {}}`, ifname) + `}}`, "", "over LLDP's 255"},
	} {
		got, err := ParseLLDPD(c.out)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && fmt.Sprint(nonNil(got)) != c.want:
			t.Errorf("%s: got %v, want %s", c.name, got, c.want)
		}
	}
}

func nonNil(ns []importer.Neighbor) []importer.Neighbor {
	if ns == nil {
		return []importer.Neighbor{}
	}
	return ns
}

// TestTooMany: a table over MaxNeighbors is refused.
func TestTooMany(t *testing.T) {
	var ns []importer.Neighbor
	var err error
	for i := 0; i <= MaxNeighbors && err == nil; i++ {
		ns, err = Add("x", ns, importer.Neighbor{LocalPort: "eth0", RemoteSystem: "s", RemotePort: "p"})
	}
	if err == nil || len(ns) != MaxNeighbors {
		t.Errorf("%d neighbours, %v", len(ns), err)
	}
}

// TestAnswerLLDPD: the lab's answer reads back with the parser, one
// linked port as an object and none as an empty lldp object.
func TestAnswerLLDPD(t *testing.T) {
	m := dataplane.New(nil, nil)
	m.AddDevice("h1", dataplane.Platform{Name: "linux_dcb", Host: true}, []string{"eth0"})
	out := AnswerLLDPD(m.View("h1"))
	if ns, err := ParseLLDPD(out); err != nil || len(ns) != 0 {
		t.Errorf("no links: %v, %v\n%s", ns, err, out)
	}
	if _, _, _, ok := ExecLLDPD(m.View("h1"), []string{"lldpctl", "-f", "xml"}); ok {
		t.Error("lldpctl -f xml answered")
	}
}
