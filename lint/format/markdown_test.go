package format

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/mdtable"
)

// TestMarkdownHopPathsHostile: names and messages with fence, HTML and
// Mermaid syntax stay inside their diagram, and the diagrams are capped.
func TestMarkdownHopPathsHostile(t *testing.T) {
	evil := &diag.Diagnostic{Severity: diag.Warning, Rule: "QOS001", Summary: "x ``` </details> y",
		Device: "sw```", Port: "e1",
		Trace: []diag.Step{{Port: "nic\"]:e0"}, {Port: "sw```:e1", Note: "</details>"}, {Port: "b[0]:e2"}}}
	ds := diag.Diagnostics{evil}
	for i := 0; i < maxHopDiagrams+3; i++ {
		ds = append(ds, &diag.Diagnostic{Severity: diag.Warning, Rule: "MTU002", Summary: fmt.Sprint("s", i),
			Trace: []diag.Step{{Port: "a:e0"}, {Port: "b:e1"}}})
	}
	var b bytes.Buffer
	if err := writeMarkdown(&b, &Result{Valid: true, Diagnostics: ds}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "```mermaid"); n != maxHopDiagrams {
		t.Errorf("%d diagrams, want %d", n, maxHopDiagrams)
	}
	if !strings.Contains(out, "And 4 more") {
		t.Errorf("no note about the diagrams left out:\n%s", out)
	}
	// Every fence opens ```mermaid or closes with a bare ```; no other
	// line holds three backticks.
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "```") && l != "```mermaid" && l != "```" {
			t.Errorf("line breaks a fence: %q", l)
		}
	}
	if strings.Count(out, "</details>") != 1 || strings.Count(out, "<details>") != 1 {
		t.Errorf("names opened or closed a details element:\n%s", out)
	}
	if !strings.Contains(out, "class h1 bad") {
		t.Errorf("the noted hop is not marked:\n%s", out)
	}
}

// TestMarkdownTableColumns: the report's table keeps its header's column
// count as GitHub counts cells, whatever a finding says (pipes, pipes in
// file names and code, line breaks).
func TestMarkdownTableColumns(t *testing.T) {
	r := sampleResult()
	hostile := *r.Diagnostics[0]
	hostile.Summary = "match ip udp|tcp | `a|b` \\| c"
	hostile.Detail = "line one |\nline | two"
	hostile.Fix = "use `x|y`"
	sub := *hostile.Subject
	sub.Filename = "a|b.fab.hcl"
	hostile.Subject = &sub
	r.Diagnostics = append(r.Diagnostics, &hostile)
	out := string(render(t, "markdown", r))
	if ps := mdtable.Check(out); len(ps) > 0 {
		t.Errorf("markdown report has rows GitHub draws with the wrong column count:\n%v\n%s", ps, out)
	}
	if !strings.Contains(out, "| Severity |") {
		t.Fatalf("no table in:\n%s", out)
	}
}
