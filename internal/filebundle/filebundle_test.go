package filebundle

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	cases := [][]File{
		nil,
		{{Path: "/etc/opensm/opensm.conf", Text: []byte("qos TRUE\n")}},
		{{Path: "/a", Text: []byte("no newline at the end")}, {Path: "/b", Absent: true}, {Path: "/c"}},
		// Content that looks like a header is content.
		{{Path: "/x", Text: []byte("=== /y 3\nabc\n# fabricgen files 1\n")}, {Path: "/y", Text: []byte("\n\n")}},
	}
	for i, files := range cases {
		b, err := Encode(files)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("case %d: decode %q: %v", i, b, err)
		}
		if len(got) != len(files) {
			t.Fatalf("case %d: %d files back, want %d", i, len(got), len(files))
		}
		for j := range files {
			if got[j].Path != files[j].Path || !bytes.Equal(got[j].Text, files[j].Text) || got[j].Absent != files[j].Absent {
				t.Errorf("case %d file %d: got %+v, want %+v", i, j, got[j], files[j])
			}
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "not a fabricgen file bundle"},
		{Magic + "\n=== /a 5\nabc\n", "said to hold 5 bytes"},
		{Magic + "\n=== /a 3\nabcd\n", "said to hold 3 bytes"},
		{Magic + "\n=== /a -1\n", "not a byte count"},
		{Magic + "\n=== /a 03\nabc\n", "not a byte count"},
		{Magic + "\n=== /a 99999999999999999999999\n", "not a byte count"},
		{Magic + "\n=== a 0\n\n", "not absolute"},
		{Magic + "\n=== /a/../b 0\n\n", "not clean"},
		{Magic + "\n=== /a;rm 0\n\n", "which a shell would read"},
		{Magic + "\n=== /a absent\n=== /a absent\n", "twice"},
		{Magic + "\nhello\n", "line 2: \"hello\" is not a file header"},
		{Magic + "\n=== /a 1\nx\n=== /b\n", "line 4: header \"=== /b\" has no size"},
		{Magic + "\n=== /a", "has no newline"},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	if _, err := Encode([]File{{Path: "/a", Absent: true, Text: []byte("x")}}); err == nil {
		t.Error("Encode took an absent file with bytes")
	}
	if _, err := Encode([]File{{Path: "relative"}}); err == nil {
		t.Error("Encode took a relative path")
	}
}

func TestDecodeBoundsFiles(t *testing.T) {
	var b strings.Builder
	b.WriteString(Magic + "\n")
	for i := 0; i <= MaxFiles; i++ {
		b.WriteString("=== /f/" + strconv.Itoa(i) + " absent\n")
	}
	if _, err := Decode([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("Decode of %d files: %v", MaxFiles+1, err)
	}
}

func FuzzDecode(f *testing.F) {
	b, _ := Encode([]File{{Path: "/etc/opensm/opensm.conf", Text: []byte("qos TRUE\n")}, {Path: "/r", Absent: true}})
	f.Add(b)
	f.Add([]byte(Magic + "\n=== /a 3\nabc\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Decode(data)
		if err != nil {
			return
		}
		again, err := Encode(files)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		back, err := Decode(again)
		if err != nil || len(back) != len(files) {
			t.Fatalf("decode of the re-encoding: %v", err)
		}
		for i := range files {
			if back[i].Path != files[i].Path || !bytes.Equal(back[i].Text, files[i].Text) || back[i].Absent != files[i].Absent {
				t.Fatalf("file %d changed in a round trip", i)
			}
		}
	})
}
