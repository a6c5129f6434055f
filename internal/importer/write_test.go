package importer

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/schema"
)

func intp0(v int) *int { return &v }

func tinyQoS() *QoS {
	q := &QoS{Trust: "dscp", DSCP: map[int]int{26: 3, 48: 6}, DefaultPriority: intp0(0), PFC: []int{3}, PFCSet: true,
		Queues: map[int]*Queue{3: {Sched: "dwrr", Weight: intp0(50), ECN: &ECN{MinBytes: 150000, MaxBytes: 1500000, Probability: 100, Mark: true}}, 6: {Sched: "strict"}}}
	return q
}

// TestWriteEscapesDeviceStrings: a description is data. HCL template
// sequences, quotes and backslashes come back as the same string, never
// as an expression; control characters are never written (the report
// says why, escaped).
func TestWriteEscapesDeviceStrings(t *testing.T) {
	tests := []struct {
		desc    string
		written bool
	}{
		{"${file(\"/etc/passwd\")}", true},
		{"%{ for x in y }x%{ endfor }", true},
		{`say "hi" \ back`, true},
		{"$(reboot) `id`", true},
		{"bell\x07 and \x1b[31mred", false},
		{"line\nbreak", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			d := &Device{Name: "leaf1", Platform: "sonic", Src: Span{File: "leaf1.json"}, Default: tinyQoS(),
				Ports: []*Port{{Name: "Ethernet0", Description: tc.desc, Src: Span{File: "leaf1.json", From: 7}}}}
			in, err := Write([]*Device{d}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			src := in.Files[FileDevices]
			f, diags := hclsyntax.ParseConfig(src, FileDevices, hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatalf("the written file does not parse: %v\n%s", diags, src)
			}
			got := describe(t, f)
			if tc.written {
				if got != tc.desc {
					t.Errorf("description came back as %q, want %q\n%s", got, tc.desc, src)
				}
				return
			}
			if got != "" {
				t.Errorf("a description with control characters was written: %q", got)
			}
			said := false
			for _, l := range in.Report {
				if strings.ContainsAny(l.Why, "\x07\x1b\n") {
					t.Errorf("the report echoes control characters: %q", l.Why)
				}
				said = said || strings.Contains(l.Why, "description")
			}
			if !said {
				t.Errorf("the report does not say why the description was left out: %+v", in.Report)
			}
		})
	}
}

// describe evaluates the first port description of the file (a literal:
// evaluating it with no variables or functions fails for any expression).
func describe(t *testing.T, f *hcl.File) string {
	t.Helper()
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		for _, p := range b.Body.Blocks {
			if a, ok := p.Body.Attributes["description"]; ok {
				v, diags := a.Expr.Value(nil)
				if diags.HasErrors() {
					t.Fatalf("description is an expression, not data: %v", diags)
				}
				return v.AsString()
			}
		}
	}
	return ""
}

// TestWriteNames: a hostname that is no device name is cleaned and
// reported; two files with one hostname get distinct names.
func TestWriteNames(t *testing.T) {
	devs := []*Device{
		{Name: "leaf 1;rm -rf", Platform: "sonic", Src: Span{File: "a.json"}, Default: tinyQoS()},
		{Name: "leaf2", Platform: "sonic", Src: Span{File: "b.json"}, Default: tinyQoS()},
		{Name: "LEAF2", Platform: "sonic", Src: Span{File: "c.json"}, Default: tinyQoS()},
	}
	in, err := Write(devs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(in.Devices, ",")
	for _, n := range in.Devices {
		if err := schema.CheckDeviceName(n); err != nil {
			t.Errorf("written name %q is invalid: %v", n, err)
		}
	}
	if !strings.Contains(got, "leaf2") || !strings.Contains(got, "LEAF2-2") {
		t.Errorf("names %s: want leaf2 and LEAF2-2", got)
	}
	if len(in.Report) < 2 {
		t.Errorf("renaming not reported: %+v", in.Report)
	}
}

// TestWriteFactors: equal devices share one policy at the fabric; a port
// that differs gets a delta policy with only what differs.
func TestWriteFactors(t *testing.T) {
	odd := tinyQoS()
	odd.MTU = 1500
	devs := []*Device{
		{Name: "leaf1", Platform: "sonic", Src: Span{File: "leaf1.json"}, Default: tinyQoS(), Ports: []*Port{{Name: "Ethernet0"}, {Name: "Ethernet8", QoS: odd}}},
		{Name: "leaf2", Platform: "sonic", Src: Span{File: "leaf2.json"}, Default: tinyQoS(), Ports: []*Port{{Name: "Ethernet0"}}},
	}
	in, err := Write(devs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	qos := string(in.Files[FileQoS])
	if strings.Count(qos, "qos_policy \"") != 2 || !strings.Contains(qos, "qos_policy = qos_policy.fabric") {
		t.Errorf("want one fabric policy and one port policy:\n%s", qos)
	}
	i := strings.Index(qos, "qos_policy \"leaf1-Ethernet8\"")
	if i < 0 {
		t.Fatalf("no port policy:\n%s", qos)
	}
	port := qos[i:]
	if !strings.Contains(port, "mtu = 1500") || strings.Contains(port, "classes") || strings.Contains(port, "trust") {
		t.Errorf("the port policy is not a delta:\n%s", port)
	}
}

// TestWriteLinks: LLDP neighbours that name each other are one link; a
// neighbour no file imports, or a far end that names someone else, is
// reported; a port only LLDP names is added; a port's cable length moves
// to its link.
func TestWriteLinks(t *testing.T) {
	devs := []*Device{
		{Name: "leaf1", Platform: "arista_eos", Src: Span{File: "leaf1.cfg"}, Default: tinyQoS(),
			Ports:     []*Port{{Name: "Ethernet49", CableM: 30}},
			Neighbors: []Neighbor{{"Ethernet49", "spine1", "Ethernet1"}, {"Ethernet1", "gpu01", "eth0"}, {"Ethernet50", "spine1", "Ethernet9"}}},
		{Name: "spine1", Platform: "arista_eos", Src: Span{File: "spine1.cfg"}, Default: tinyQoS(),
			Neighbors: []Neighbor{{"Ethernet1", "leaf1", "Ethernet49"}, {"Ethernet9", "leaf2", "Ethernet50"}}},
	}
	in, err := Write(devs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(in.Files[FileDevices])
	if strings.Count(text, "link \"") != 1 || !strings.Contains(text, `a            = "leaf1:Ethernet49"`) || !strings.Contains(text, `b            = "spine1:Ethernet1"`) || !strings.Contains(text, `cable_length = "30m"`) {
		t.Errorf("want one link leaf1:Ethernet49 - spine1:Ethernet1 of 30m:\n%s", text)
	}
	if !strings.Contains(text, `port "Ethernet1"`) {
		t.Errorf("spine1's Ethernet1, named only by LLDP, was not added:\n%s", text)
	}
	var why []string
	for _, l := range in.Report {
		why = append(why, l.Why)
	}
	all := strings.Join(why, "\n")
	for _, w := range []string{"gpu01 eth0 is not among the imported devices", "which names leaf2 Ethernet50 instead", "leaf2 Ethernet50 is not among"} {
		if !strings.Contains(all, w) {
			t.Errorf("report lacks %q:\n%s", w, all)
		}
	}
	if devs[0].Ports[0].CableM != 30 {
		t.Error("Write changed the caller's port")
	}
}
