package osmconf

import (
	"strings"
	"testing"
)

func TestParseGUIDFile(t *testing.T) {
	runParseCases(t, ParseGUIDFile, []parseCase[[]uint64]{
		{name: "plain", text: "0x0002c90300a00301\n0x0002c90300a00401\n", want: []uint64{0x0002c90300a00301, 0x0002c90300a00401}},
		{name: "comments, blanks, trailing text, decimal", text: "# roots\n\n  0x10 spine-1\n\t0x20# x\n32\r\n", want: []uint64{0x10, 0x20, 32}},
		{name: "no trailing newline", text: "0x1", want: []uint64{1}},
		{name: "empty", text: "# none\n", wantErr: "line 1: no GUID"},
		{name: "not a number", text: "0x1\nspine-1\n", wantErr: "line 2: \"spine-1\" does not start with a GUID"},
		{name: "glued text", text: "0x1g\n", wantErr: "line 1: \"0x1g\": the GUID is followed by \"g\""},
		{name: "long line", text: "0x1 " + strings.Repeat("x", 300) + "\n", wantErr: "line 1: 304 bytes"},
		{name: "NUL", text: "0x1\n0x2\x00\n", wantErr: "line 2: NUL"},
	})
}

func FuzzParseGUIDFile(f *testing.F) {
	fuzzParse(f, "root-guids.conf", []string{"# x\n 0x1 a\n-1\n"}, ParseGUIDFile, func(t *testing.T, text string, err error) {
		if len(text) <= MaxTextSize && !strings.HasPrefix(err.Error(), "line ") {
			t.Fatalf("error without a line: %v", err)
		}
	}, func(t *testing.T, got []uint64) {
		if len(got) == 0 {
			t.Fatal("no error and no GUID")
		}
	})
}
