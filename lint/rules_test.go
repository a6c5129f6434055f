package lint

import (
	"context"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

func lintRule(t *testing.T, f *schema.Fabric, id string) []Finding {
	t.Helper()
	fs, err := Run(context.Background(), f, Options{Only: []string{id}})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return fs
}

func TestRegistryValid(t *testing.T) {
	if err := ValidateRules(Rules()); err != nil {
		t.Fatal(err)
	}
}

func TestBaseFabricClean(t *testing.T) {
	fs, err := Run(context.Background(), baseFabric(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Errorf("unexpected %s %s: %s", f.Rule, f.Severity, f.Summary)
	}
}
