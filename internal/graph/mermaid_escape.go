package graph

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
)

// mermaidLabel escapes text for a quoted Mermaid label (["…"]): every
// character Mermaid or the Markdown fence around it could read as syntax
// becomes a #code; entity, control characters become spaces.
func mermaidLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case strings.ContainsRune("\"'`#&<>[]{}|\\", r):
			b.WriteString("#" + strconv.Itoa(int(r)) + ";")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// HopPath is a Mermaid flowchart of a hop trace, source first: one node
// per hop, left to right, with every hop that has a note, or whose port
// is at ("device:port", may be empty), in the "bad" class (red). Labels
// are the hop's port and note, escaped; node ids are generated, so no
// name reaches Mermaid's syntax. Empty when the trace is empty.
func HopPath(trace []diag.Step, at string) string {
	if len(trace) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	var bad []string
	for i, s := range trace {
		id := "h" + strconv.Itoa(i)
		label := mermaidLabel(s.Port)
		if s.Note != "" {
			label += "<br/>" + mermaidLabel(s.Note)
		}
		b.WriteString("  " + id + "[\"" + label + "\"]\n")
		if s.Note != "" || (at != "" && s.Port == at) {
			bad = append(bad, id)
		}
	}
	for i := 1; i < len(trace); i++ {
		b.WriteString("  h" + strconv.Itoa(i-1) + " --> h" + strconv.Itoa(i) + "\n")
	}
	if len(bad) > 0 {
		b.WriteString("  classDef bad fill:#fdd,stroke:#c00,stroke-width:3px,color:#600\n")
		b.WriteString("  class " + strings.Join(bad, ",") + " bad\n")
	}
	return b.String()
}

// Fence wraps a Mermaid diagram in a ```mermaid code fence for GitHub.
// The diagram's text never holds a backtick (labels escape it), so three
// are always enough.
func Fence(diagram string) string {
	return "```mermaid\n" + diagram + "```\n"
}
