package dialect

import (
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// missingPlatforms lists the platforms of the model that table has no
// entry for, in schema.Platforms order.
func missingPlatforms[V any](table map[schema.Platform]V) []schema.Platform {
	var out []schema.Platform
	for _, p := range schema.Platforms() {
		if _, ok := table[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}

// TestRegistryComplete: every platform of the model has a dialect entry,
// and the entry describes that platform (not a copy of another's).
func TestRegistryComplete(t *testing.T) {
	for _, p := range missingPlatforms(platforms()) {
		t.Errorf("platform %s has no dialect: add its line to the platforms table in dialect.go and its file beside it", p)
	}
	for p, build := range platforms() {
		if d := build(); d.Platform != p {
			t.Errorf("the platforms entry for %s builds the dialect of %s", p, d.Platform)
		}
	}
	want := make([]string, 0, len(schema.Platforms()))
	for _, p := range schema.Platforms() {
		want = append(want, string(p))
	}
	slices.Sort(want)
	if got := Supported(); !slices.Equal(got, want) {
		t.Errorf("Supported() = %v, want %v", got, want)
	}
}

// TestRegistryCompleteCanFail: the completeness check names a platform
// whose entry is removed.
func TestRegistryCompleteCanFail(t *testing.T) {
	for _, p := range schema.Platforms() {
		table := platforms()
		delete(table, p)
		if got := missingPlatforms(table); !slices.Equal(got, []schema.Platform{p}) {
			t.Errorf("with %s removed, missingPlatforms = %v", p, got)
		}
	}
}
