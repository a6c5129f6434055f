package opensm_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestSMHostsOwnPriority: two subnet managers written as separate blocks
// with the same settings but their own election priority (lint's
// IBQ015 pass fixture) render, and their files differ in exactly the
// sm_priority line; the same settings written twice are not refused for
// being written in two places.
func TestSMHostsOwnPriority(t *testing.T) {
	// The case with its family base, as lint's fixture harness loads it.
	lintData := filepath.Join("..", "..", "lint", "testdata")
	dir := t.TempDir()
	for _, src := range []string{
		filepath.Join(lintData, "fixtures", "ibq015-pass-priorities-differ", "fabric.fab.hcl"),
		filepath.Join(lintData, "fixtures-bases", "ibq.fab.hcl"),
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sms []*schema.Device
	for _, d := range f.Devices {
		if d.Kind.V == schema.KindSubnetManager {
			sms = append(sms, d)
		}
	}
	if len(sms) != 2 {
		t.Fatalf("the fixture has %d subnet managers, want 2", len(sms))
	}
	outs, err := r.RenderAll(context.Background(), f, sms)
	if err != nil {
		t.Fatalf("render refused SM hosts that differ only in priority: %v", err)
	}
	a, b := strings.Split(string(outs[0].Text), "\n"), strings.Split(string(outs[1].Text), "\n")
	if len(a) != len(b) {
		t.Fatalf("opensm.conf of %s has %d lines, of %s %d", sms[0].Name, len(a), sms[1].Name, len(b))
	}
	var diff []string
	for i := range a {
		if a[i] != b[i] {
			diff = append(diff, a[i]+" | "+b[i])
		}
	}
	prio := func(d *schema.Device) string { return "sm_priority " + strconv.Itoa(d.SM.Priority.V) }
	if len(diff) != 1 || diff[0] != prio(sms[0])+" | "+prio(sms[1]) {
		t.Errorf("the SM hosts' opensm.conf differ in %q, want only their sm_priority lines", diff)
	}
	for i := range outs[0].Extra {
		if string(outs[0].Extra[i].Text) != string(outs[1].Extra[i].Text) {
			t.Errorf("%s differs between the SM hosts", outs[0].Extra[i].Name)
		}
	}
}
