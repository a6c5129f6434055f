package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestAlikeFindingsGroup: links in separate blocks that lack cable_length
// and assume the same length are one BUF002 finding, at the first link,
// with the other link as a related place; a fabric whose links assume
// different lengths keeps them apart (their fixes differ).
func TestAlikeFindingsGroup(t *testing.T) {
	f, ds := schema.Load("testdata/fixtures/buf002-fail-separate-links", schema.Options{Platforms: platforms.Catalog()})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	fs, err := Run(context.Background(), f, Options{Only: []string{"BUF002"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 {
		t.Fatalf("got %d BUF002 findings, want 1: %v", len(fs), fs)
	}
	fd := fs[0]
	if fd.Count != 2 || len(fd.Related) != 1 {
		t.Fatalf("count %d, related %v: want 2 places, 1 related", fd.Count, fd.Related)
	}
	if r := fd.Related[0]; r.Range.Start.Line == fd.Subject.Start.Line || !strings.Contains(r.Message, "up2") {
		t.Errorf("related place %v %q: want the up2 link's line", r.Range, r.Message)
	}
	if !strings.Contains(fd.Detail, "up1") || !strings.Contains(fd.Fix, "40m") || strings.Contains(fd.Summary, "up1") {
		t.Errorf("summary %q detail %q fix %q: want the group's wording, this place in the detail, the assumed length in the fix", fd.Summary, fd.Detail, fd.Fix)
	}
}

// TestGroupAlikeKeepsDifferentFixes: findings alike but for their fix (or
// severity) stay separate; findings reported with Report never group.
func TestGroupAlikeKeepsDifferentFixes(t *testing.T) {
	at := func(line int32) *schema.Range {
		return &schema.Range{Filename: "a.fab.hcl", Start: schema.Pos{Line: line, Column: 1}, End: schema.Pos{Line: line, Column: 5}}
	}
	a := &Alike{Key: "k", Place: "p", Summary: func(n int) string { return "grouped" }}
	tests := []struct {
		name string
		in   []reported
		want int
	}{
		{"same fix", []reported{{Finding{Subject: at(1), Fix: "x", Summary: "s1"}, a}, {Finding{Subject: at(2), Fix: "x", Summary: "s2"}, a}}, 1},
		{"different fix", []reported{{Finding{Subject: at(1), Fix: "x"}, a}, {Finding{Subject: at(2), Fix: "y"}, a}}, 2},
		{"different severity", []reported{{Finding{Subject: at(1), Severity: schema.SevError}, a}, {Finding{Subject: at(2), Severity: schema.SevWarning}, a}}, 2},
		{"not alike", []reported{{Finding{Subject: at(1), Summary: "s"}, nil}, {Finding{Subject: at(2), Summary: "s"}, nil}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := groupAlike(tt.in, nil)
			if len(got) != tt.want {
				t.Fatalf("got %d findings, want %d", len(got), tt.want)
			}
			if tt.want == 1 && (got[0].Summary != "grouped" || got[0].Count != 2) {
				t.Errorf("grouped finding %q count %d", got[0].Summary, got[0].Count)
			}
		})
	}
}

// TestAlikeRoCEv1NICsGroup: RoCE v1 NICs, each with its own transport
// line, behind the same routed port are one NIC007 finding at the first
// NIC's line, saying how many NICs, with both NICs as places and the other
// NIC's transport line as a related location.
func TestAlikeRoCEv1NICsGroup(t *testing.T) {
	f, ds := schema.Load("testdata/fixtures/nic007-fail-several-nics-one-cause", schema.Options{Platforms: platforms.Catalog()})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	fs, err := Run(context.Background(), f, Options{Only: []string{"NIC007"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 {
		t.Fatalf("got %d NIC007 findings, want 1: %v", len(fs), fs)
	}
	fd := fs[0]
	var places []string
	for _, r := range fd.Places {
		places = append(places, r.Message)
	}
	if fd.Count != 2 || strings.Join(places, "|") != "device gpu1|device gpu2" {
		t.Errorf("count %d, places %q: want 2, device gpu1|device gpu2", fd.Count, places)
	}
	if !strings.HasPrefix(fd.Summary, "2 NICs send RoCE v1") || !strings.Contains(fd.Detail, "NIC gpu1") {
		t.Errorf("summary %q detail %q: want the group's wording, this NIC in the detail", fd.Summary, fd.Detail)
	}
	other := false
	for _, r := range fd.Related {
		other = other || strings.Contains(r.Message, "NIC gpu2")
	}
	if !other {
		t.Errorf("related %v: want gpu2's transport line", fd.Related)
	}
}
