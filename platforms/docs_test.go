package platforms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/internal/platform"
)

const (
	docFile    = "../docs/adding-a-platform.md"
	partsBegin = "<!-- parts: generated from internal/platform.Parts by go test ./platforms -run AddingAPlatformDoc -update -->\n"
	partsEnd   = "<!-- parts: end -->\n"
)

// partsTable is the markdown table of every part a folder holds.
func partsTable() string {
	var b strings.Builder
	b.WriteString("| part | file in `platforms/<name>/` | required of | what it is |\n|---|---|---|---|\n")
	for _, p := range platform.Parts() {
		b.WriteString("| " + p.Name + " | `" + p.File + "` | " + p.For + " | " + p.Doc + " |\n")
	}
	return b.String()
}

// TestAddingAPlatformDoc: the table of parts in docs/adding-a-platform.md
// is the one internal/platform checks, so the page cannot name a part the
// registry does not require or miss one it does.
func TestAddingAPlatformDoc(t *testing.T) {
	for _, p := range platform.Parts() {
		if p.Doc == "" || p.File == "" || p.For == "" {
			t.Errorf("part %q has no Doc, File or For", p.Name)
		}
	}
	b, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, partsBegin), strings.Index(s, partsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q section", docFile, strings.TrimSpace(partsBegin), strings.TrimSpace(partsEnd))
	}
	got := s[:i+len(partsBegin)] + partsTable() + s[j:]
	golden.Check(t, filepath.Clean(docFile), []byte(got), "go test ./platforms -run AddingAPlatformDoc -update")
}
