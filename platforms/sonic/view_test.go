package sonic

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/templates/view"
)

// TestSONiCFieldLines pins how a SONiC stanza's FIELD VALUE lines become
// JSON fields: values are always JSON strings (a template cannot print a
// quote, a brace or a key into the file), blanks around a line and blank
// lines are dropped, a name alone is an empty value, a field twice fails.
func TestSONiCFieldLines(t *testing.T) {
	cases := []struct {
		text, want, err string
	}{
		{"mtu 9214\nspeed 400000\nfec rs", `"mtu":"9214" "speed":"400000" "fec":"rs"`, ""},
		{"\n  policy_desc   fabricgen acl a b \t\n\n", `"policy_desc":"fabricgen acl a b"`, ""},
		{"pfc_enable", `"pfc_enable":""`, ""},
		{`description x", "admin_status": "down`, `"description":"x\", \"admin_status\": \"down"`, ""},
		{"description }\n{", `"description":"}" "{":""`, ""},
		{"", "", ""},
		{"mtu 9214\nmtu 1500", "", "field mtu printed twice"},
	}
	for _, tc := range cases {
		got, err := viewSONiCFieldLines(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		var parts []string
		for _, f := range got {
			parts = append(parts, view.JSONString(f.Name)+":"+f.JSON)
		}
		if s := strings.Join(parts, " "); s != tc.want {
			t.Errorf("%q: fields %s, want %s", tc.text, s, tc.want)
		}
	}
}
