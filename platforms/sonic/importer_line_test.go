package sonic

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// TestUnmappedFieldLine: a field a row lacks is reported at the row's own
// line, never line 0, both through unmappedField and through an import
// of a BUFFER_PG row that names no profile.
func TestUnmappedFieldLine(t *testing.T) {
	const file = "sw1.json"
	data := []byte(`{
  "BUFFER_PG": {
    "Ethernet0|3-4": {
      "size": "0"
    },
    "Ethernet4|3-4": {
      "profile": "pg_hand"
    }
  }
}
`)
	for _, tc := range []struct {
		name, table, key, field string
		wantLine                int
		wantText                string
	}{
		{name: "missing field", table: "BUFFER_PG", key: "Ethernet0|3-4", field: "profile", wantLine: 3, wantText: "BUFFER_PG|Ethernet0|3-4"},
		{name: "present field", table: "BUFFER_PG", key: "Ethernet4|3-4", field: "profile", wantLine: 7, wantText: "BUFFER_PG|Ethernet4|3-4|profile = pg_hand"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := parseConfigDB(file, data)
			if err != nil {
				t.Fatal(err)
			}
			im := &sonicImport{file: file, root: root, dev: &importer.Device{}, ports: map[string]*sonicPort{}, reported: map[sonicLine]bool{}}
			row := im.row(tc.table, tc.key)
			if row == nil {
				t.Fatalf("no row %s|%s", tc.table, tc.key)
			}
			im.unmappedField(tc.table, row, row.Val.member(tc.field), "why")
			if len(im.dev.Unmapped) != 1 {
				t.Fatalf("unmapped: %v, want one line", im.dev.Unmapped)
			}
			if u := im.dev.Unmapped[0]; u.Line != tc.wantLine || u.Text != tc.wantText {
				t.Errorf("reported line %d %q, want line %d %q", u.Line, u.Text, tc.wantLine, tc.wantText)
			}
		})
	}
	d, err := importConfig(context.Background(), file, data)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, u := range d.Unmapped {
		if strings.HasPrefix(u.Text, "BUFFER_PG|Ethernet0|3-4") {
			found = true
			if u.Line < 1 || u.Line != 3 {
				t.Errorf("the row with no profile is reported at line %d, want 3", u.Line)
			}
		}
	}
	if !found {
		t.Errorf("the BUFFER_PG row with no profile is not reported: %v", d.Unmapped)
	}
}
