package platforms

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
)

// TestRegistryComplete: every platform the intent accepts has one folder
// with every part.
func TestRegistryComplete(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// TestRegistryNamesWhatIsMissing: with one platform's line removed, or any
// one part of one folder taken away, the check fails naming the platform
// and the part.
func TestRegistryNamesWhatIsMissing(t *testing.T) {
	all := All()
	names := List()
	for i, p := range all {
		drop := slices.Delete(slices.Clone(all), i, i+1)
		got := Problems(drop, names)
		if len(got) != 1 || !strings.Contains(got[0], string(p.Name)) || !strings.Contains(got[0], "no line") {
			t.Errorf("without %s's line: %v", p.Name, got)
		}
		for _, part := range platform.Parts() {
			if !part.AppliesTo(p.Spec) {
				continue
			}
			broken := slices.Clone(all)
			broken[i] = without(t, p, part)
			got := Problems(broken, names)
			if len(got) == 0 {
				t.Errorf("%s without its %s: no problem reported", p.Name, part.Name)
				continue
			}
			if !strings.Contains(strings.Join(got, "\n"), "platforms/"+p.Folder+": no "+part.Name) {
				t.Errorf("%s without its %s: %v does not name the folder and the part", p.Name, part.Name, got)
			}
		}
	}
}

// without returns p with part removed: each field of Platform is zeroed
// in turn until the part reports itself absent. A part no single field
// removes fails the test, as does a field whose loss no part notices.
func without(t *testing.T, p platform.Platform, part platform.Part) platform.Platform {
	t.Helper()
	v := reflect.ValueOf(p)
	for i := range v.NumField() {
		q := p
		f := reflect.ValueOf(&q).Elem().Field(i)
		f.Set(reflect.Zero(f.Type()))
		if !part.Present(q) {
			return q
		}
	}
	t.Fatalf("no way to remove %s from %s", part.Name, p.Name)
	return p
}

// TestEveryFieldIsAPart: zeroing any one field of a complete Platform is
// reported as a missing part, so no part can be added without its check.
func TestEveryFieldIsAPart(t *testing.T) {
	p := All()[0]
	v := reflect.ValueOf(p)
	for i := range v.NumField() {
		q := p
		f := reflect.ValueOf(&q).Elem().Field(i)
		f.Set(reflect.Zero(f.Type()))
		if len(q.Missing()) == 0 {
			t.Errorf("Platform.%s zeroed: Missing reports nothing; give the field a Part in internal/platform", v.Type().Field(i).Name)
		}
	}
}
