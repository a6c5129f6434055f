package aristaeos

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// TestParseRunningConfig pins what the one EOS running-config parser
// (config.Parse with this folder's text form) gives the readers, push and
// the lab: "!" and "end" dropped with their places marked (Gap), a banner
// one verbatim node whatever its text holds, ACL port names canonical for
// Parse and as printed for ParseAsPrinted, and the dialect the same text
// form as textForm.
func TestParseRunningConfig(t *testing.T) {
	text := "! Command: show running-config\n" +
		"hostname leaf1\n!\n" +
		"banner login\ninterface Ethernet9\n   not config\n!\nEOF\n!\n" +
		"ip access-list A\n   10 permit tcp any any eq bgp\n" +
		"interface Ethernet1\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 bytes\n!\nend\n"
	tr := config.Parse(text, textForm())
	var heads []string
	for _, n := range tr.Nodes {
		heads = append(heads, n.Line)
	}
	want := []string{"hostname leaf1", "banner login\ninterface Ethernet9\n   not config\n!\nEOF", "ip access-list A", "interface Ethernet1"}
	if len(heads) != len(want) {
		t.Fatalf("top-level nodes %q, want %q", heads, want)
	}
	for i := range want {
		if heads[i] != want[i] {
			t.Errorf("node %d = %q, want %q", i, heads[i], want[i])
		}
	}
	if n := tr.Nodes[1]; !n.Block || !n.Gap || len(n.Children) != 0 {
		t.Errorf("banner: Block %v, Gap %v, %d children; want a block after a gap, no children", n.Block, n.Gap, len(n.Children))
	}
	if !tr.Nodes[2].Gap || tr.Nodes[3].Gap {
		t.Errorf("gaps: access-list %v (after !), interface %v (right after the list)", tr.Nodes[2].Gap, tr.Nodes[3].Gap)
	}
	if got := tr.Nodes[2].Children[0].Line; got != "10 permit tcp any any eq 179" {
		t.Errorf("Parse: ACL entry %q, want the port by number", got)
	}
	if got := config.ParseAsPrinted(text, textForm()).Nodes[2].Children[0].Line; got != "10 permit tcp any any eq bgp" {
		t.Errorf("ParseAsPrinted: ACL entry %q, want it as printed", got)
	}
	if q := tr.Nodes[3].Children[0].Children[0].Line; q != "random-detect ecn minimum-threshold 1 bytes" {
		t.Errorf("nesting: %q", q)
	}
	d, form := dialect(), textForm()
	if len(d.Volatile) != len(form.Volatile) || d.Indent != form.Indent || d.Block == nil || d.Canonical == nil {
		t.Errorf("the dialect's text form differs from textForm")
	}
	for i := range form.Volatile {
		if d.Volatile[i].String() != form.Volatile[i].String() {
			t.Errorf("volatile %d: %s, textForm %s", i, d.Volatile[i], form.Volatile[i])
		}
	}
}
