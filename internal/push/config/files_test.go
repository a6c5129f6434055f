package config

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

func bundle(t *testing.T, files ...filebundle.File) string {
	t.Helper()
	b, err := filebundle.Encode(files)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCompareFiles: a Files dialect compares whole files byte for byte
// (a blank line or a missing last newline is a change), writes each
// differing file whole, and the change set carries exactly the bytes
// through an edit check.
func TestCompareFiles(t *testing.T) {
	d := &dialect.Dialect{Files: true, Lines: dialect.LinesFiles}
	conf := "/etc/opensm/opensm.conf"
	pol := "/etc/opensm/qos-policy.conf"
	rendered := bundle(t, filebundle.File{Path: conf, Text: []byte("qos TRUE\nmax_op_vls 4\n")}, filebundle.File{Path: pol, Text: []byte("qos-levels\nend-qos-levels\n")})
	cases := []struct {
		name    string
		running string
		changed []string
		removed []string
	}{
		{"same", rendered, nil, nil},
		{"absent", bundle(t, filebundle.File{Path: conf, Absent: true}, filebundle.File{Path: pol, Absent: true}), []string{conf, pol}, nil},
		{"one line", bundle(t, filebundle.File{Path: conf, Text: []byte("qos TRUE\nmax_op_vls 8\n")}, filebundle.File{Path: pol, Text: []byte("qos-levels\nend-qos-levels\n")}),
			[]string{conf}, []string{conf + " > max_op_vls 8"}},
		{"blank line only", bundle(t, filebundle.File{Path: conf, Text: []byte("qos TRUE\n\nmax_op_vls 4\n")}, filebundle.File{Path: pol, Text: []byte("qos-levels\nend-qos-levels\n")}),
			[]string{conf}, nil},
		{"no last newline", bundle(t, filebundle.File{Path: conf, Text: []byte("qos TRUE\nmax_op_vls 4")}, filebundle.File{Path: pol, Text: []byte("qos-levels\nend-qos-levels\n")}),
			[]string{conf}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmp, err := CompareScoped("sm01", c.running, rendered, "", d)
			if err != nil {
				t.Fatal(err)
			}
			writes, err := FileWrites(cmp.Changes)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range writes {
				got = append(got, w.Path)
				want := filebundle.Map(mustFiles(t, rendered))[w.Path]
				if string(w.Text) != string(want.Text) {
					t.Errorf("%s: the change writes %q, want %q", w.Path, w.Text, want.Text)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.changed, ",") {
				t.Errorf("files written = %v, want %v", got, c.changed)
			}
			if strings.Join(cmp.Replaced, ",") != strings.Join(c.removed, ",") {
				t.Errorf("replaced = %v, want %v", cmp.Replaced, c.removed)
			}
			if (len(c.changed) == 0) != (cmp.Diff.Text == "") {
				t.Errorf("diff %q for changes %v", cmp.Diff.Text, c.changed)
			}
			if err := CheckSendable(cmp.Changes, d); err != nil {
				t.Error(err)
			}
		})
	}
	// The digest counts every byte: a trailing space is a change.
	if Digest(rendered, d) == Digest(strings.Replace(rendered, "qos TRUE", "qos TRUE ", 1), d) {
		t.Error("two bundles differing by a trailing space have one digest")
	}
}

func mustFiles(t *testing.T, b string) []filebundle.File {
	t.Helper()
	f, err := FilesOf(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFileWritesRefusesEdits: a change set whose lines were edited (a
// plan file changed by hand) or whose path leaves the files' directory
// form is refused before anything is written.
func TestFileWritesRefusesEdits(t *testing.T) {
	d := &dialect.Dialect{Files: true}
	rendered := bundle(t, filebundle.File{Path: "/etc/opensm/opensm.conf", Text: []byte("qos TRUE\n")})
	cmp, err := CompareScoped("sm01", "", rendered, "", d)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(cs *ChangeSet)) *ChangeSet {
		cs := &ChangeSet{}
		for _, b := range cmp.Changes.Blocks {
			cs.Blocks = append(cs.Blocks, Block{Path: append([]string(nil), b.Path...), Lines: append([]string(nil), b.Lines...)})
		}
		f(cs)
		return cs
	}
	cases := map[string]*ChangeSet{
		"line edited":    edit(func(cs *ChangeSet) { cs.Blocks[0].Lines[0] = "qos FALSE" }),
		"line added":     edit(func(cs *ChangeSet) { cs.Blocks[0].Lines = append(cs.Blocks[0].Lines, "max_op_vls 1") }),
		"path escapes":   edit(func(cs *ChangeSet) { cs.Blocks[0].Path[0] = "file /etc/opensm/../shadow" }),
		"path relative":  edit(func(cs *ChangeSet) { cs.Blocks[0].Path[0] = "file opensm.conf" }),
		"no digest":      edit(func(cs *ChangeSet) { cs.Blocks[0].Path = cs.Blocks[0].Path[:1] }),
		"remove w/lines": {Blocks: []Block{{Path: []string{"remove /etc/opensm/x"}, Lines: []string{"y"}}}},
		"unknown block":  {Blocks: []Block{{Path: []string{"interface Ethernet1"}, Lines: []string{"mtu 9214"}}}},
	}
	for name, cs := range cases {
		if _, err := FileWrites(cs); err == nil {
			t.Errorf("%s: FileWrites took %+v", name, cs.Blocks)
		}
	}
	if w, err := FileWrites(cmp.Changes); err != nil || len(w) != 1 || string(w[0].Text) != "qos TRUE\n" {
		t.Errorf("FileWrites of the unedited change set = %+v, %v", w, err)
	}
}
