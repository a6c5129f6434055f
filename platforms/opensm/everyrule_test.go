package opensm_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// TestEveryIBRuleHasOpenSMBehaviour: every lint rule only an InfiniBand
// fabric has is tied to what the real OpenSM does with the input it flags: a
// test named TestOpenSM_<RULE>_… in this folder. A new IBQ rule without
// one fails here.
func TestEveryIBRuleHasOpenSMBehaviour(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^func TestOpenSM_([A-Z]{3}\d{3})_\w+\(t \*testing\.T\)`)
	var have []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			have = append(have, m[1])
		}
	}
	n := 0
	for _, r := range lint.Rules() {
		if len(r.LinkLayers) != 1 || r.LinkLayers[0] != schema.LinkInfiniBand {
			continue // Ethernet's, or about the intent itself (VAL, SUP)
		}
		n++
		if !slices.Contains(have, r.ID) {
			t.Errorf("%s (%s) has no real-OpenSM behaviour test: add TestOpenSM_%s_<WhatOpenSMDoes> showing what OpenSM does with the input it flags", r.ID, r.Title, r.ID)
		}
	}
	if n == 0 {
		t.Fatal("no lint rule runs on an InfiniBand fabric")
	}
}
