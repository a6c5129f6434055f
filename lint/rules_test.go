package lint

import (
	"context"
	"testing"
)

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
