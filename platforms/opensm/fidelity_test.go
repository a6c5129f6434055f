package opensm

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	hexRe    = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	numRe    = regexp.MustCompile(`\b\d+\b`)
	listRe   = regexp.MustCompile(`(?:[NX](?::N|=full|=limited)?|ALL=full|SELF=full)(?:, ?(?:[NX](?::N|=full|=limited)?|ALL=full|SELF=full))+`)
	nameRe   = regexp.MustCompile(`^(\s*(?:name|source|destination|qos-level-name): ).*$`)
	useRe    = regexp.MustCompile(`^(\s*use: ).*$`)
	partRe   = regexp.MustCompile(`^[A-Za-z][\w-]*=X`)
	pathRe   = regexp.MustCompile(`^(\w+_file) /etc/opensm/.*$`)
	setRe    = regexp.MustCompile(`^qos_(ca|swe|sw0|rtr)_`)
	arbRe    = regexp.MustCompile(`^(qos_SET_vlarb_(?:high|low)) .*$`)
	engineRe = regexp.MustCompile(`^routing_engine [\w-]+(?:,[\w-]+)*$`)
	shapeRe  = regexp.MustCompile("^\\| `([^`]+)` \\|")
)

// shape is a rendered line with its values abstracted: X a hex number, N
// a number, LIST a comma list, NAME a name, TEXT free text.
func shape(line string) string {
	line = strings.TrimSpace(line)
	line = pathRe.ReplaceAllString(line, "$1 /etc/opensm/FILE")
	line = setRe.ReplaceAllString(line, "qos_SET_")
	line = arbRe.ReplaceAllString(line, "${1} LIST")
	line = engineRe.ReplaceAllString(line, "routing_engine ENGINES")
	line = nameRe.ReplaceAllString(line, "${1}NAME")
	line = useRe.ReplaceAllString(line, "${1}TEXT")
	line = hexRe.ReplaceAllString(line, "X")
	line = numRe.ReplaceAllString(line, "N")
	line = listRe.ReplaceAllString(line, "LIST")
	line = partRe.ReplaceAllString(line, "NAME=X")
	return line
}

// TestFidelityCoversGoldens: every line shape of the golden files has a
// row in fidelity.md, and every row is emitted by some golden.
func TestFidelityCoversGoldens(t *testing.T) {
	rows := map[string]bool{}
	for _, l := range strings.Split(fidelity, "\n") {
		if m := shapeRe.FindStringSubmatch(l); m != nil {
			rows[strings.ReplaceAll(m[1], `\|`, "|")] = true
		}
	}
	if len(rows) == 0 {
		t.Fatal("fidelity.md has no rows")
	}
	seen := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join("testdata", "render", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			s := shape(l)
			seen[s] = true
			if !rows[s] {
				t.Errorf("%s: line %q (shape %q) has no fidelity.md row", filepath.Base(f), l, s)
			}
		}
	}
	var unused []string
	for r := range rows {
		if !seen[r] {
			unused = append(unused, r)
		}
	}
	sort.Strings(unused)
	for _, r := range unused {
		t.Errorf("fidelity.md row %q: no golden emits it", r)
	}
}
