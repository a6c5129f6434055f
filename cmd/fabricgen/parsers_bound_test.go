package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// issueDepth is the nesting of issue 21: 100,000 brackets in a
// .fabricgen.hcl overflowed hclsyntax's stack (a fatal error).
const issueDepth = 100_000

// TestEveryParserBoundsNesting feeds 100,000 nested brackets, braces,
// parentheses and JSON arrays and objects to every parser entry point
// besides the intent loader's (schema's TestBadInput and
// TestBoundedEvaluation cover intent files, -var, -var-file and
// FABRICGEN_VAR_): each must refuse the text with "nested too deeply" at
// FILE:2:COLUMN, never crash. The nesting starts on line 2.
func TestEveryParserBoundsNesting(t *testing.T) {
	hclKinds := []struct{ name, open, close string }{
		{"brackets", "[", "]"},
		{"braces", "{a=", "}"},
		{"parentheses", "(", ")"},
	}
	jsonKinds := []struct{ name, open, close string }{
		{"JSON arrays", "[", "]"},
		{"JSON objects", `{"a":`, "}"},
	}
	type entry struct {
		name string
		file string // the file's name, written with src
		run  func(t *testing.T, path string, src []byte) error
	}
	hclEntries := []entry{
		{".fabricgen.hcl (lint.LoadConfig)", lint.ConfigFileName, func(t *testing.T, path string, _ []byte) error {
			_, err := lint.LoadConfig(t.Context(), path)
			return err
		}},
		{"fabricgen fmt (formatHCL)", "x.fab.hcl", func(t *testing.T, path string, src []byte) error {
			if _, ds := formatHCL(src, path); ds.HasErrors() {
				return ds
			}
			return nil
		}},
		{"nestlimit.HCLExpression (-var)", "-var v", func(t *testing.T, path string, src []byte) error {
			_, expr, _ := strings.Cut(string(src), "= ")
			return nestlimit.HCLExpression([]byte("\n"+expr), path)
		}},
	}
	jsonEntries := []entry{
		{"--inventory (readInventory)", "inventory.json", func(t *testing.T, path string, _ []byte) error {
			_, err := readInventory(path)
			return err
		}},
		{"plan file (planfile.Load)", "plan.json", func(t *testing.T, path string, _ []byte) error {
			_, err := planfile.Load(path)
			return err
		}},
		{"state record (state.Dir.Applied)", ".fabricgen/applied/leaf1.json", func(t *testing.T, path string, _ []byte) error {
			_, err := state.Dir{Path: filepath.Dir(filepath.Dir(path))}.Applied("leaf1")
			return err
		}},
		{"check snapshot (check.ReadFile)", "snap.json", func(t *testing.T, path string, _ []byte) error {
			_, err := check.ReadFile(path)
			return err
		}},
		{"nestlimit.JSON", "x.json", func(t *testing.T, path string, src []byte) error {
			return nestlimit.JSON(src, path)
		}},
	}
	run := func(t *testing.T, e entry, src string, want string) {
		dir := t.TempDir()
		path := filepath.Join(dir, filepath.FromSlash(e.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		err := e.run(t, path, []byte(src))
		if err == nil {
			t.Fatal("accepted; want a nesting error")
		}
		msg := err.Error()
		if !strings.Contains(strings.ToLower(msg), "nested too deeply") || !strings.Contains(msg, want) {
			t.Errorf("error = %.600s\nwant %q and %q", msg, "nested too deeply", want)
		}
	}
	for _, e := range hclEntries {
		for _, k := range hclKinds {
			t.Run(e.name+"/"+k.name, func(t *testing.T) {
				src := "config {\n  x = " + strings.Repeat(k.open, issueDepth) + "1" + strings.Repeat(k.close, issueDepth) + " }\n"
				run(t, e, src, filepath.Base(e.file)+":2:")
			})
		}
	}
	for _, e := range jsonEntries {
		for _, k := range jsonKinds {
			t.Run(e.name+"/"+k.name, func(t *testing.T) {
				src := "{\"a\":\n" + strings.Repeat(k.open, issueDepth) + "1" + strings.Repeat(k.close, issueDepth) + "}\n"
				run(t, e, src, filepath.Base(e.file)+":2:")
			})
		}
	}
}

// TestNestlimitIsAnError: a nesting error can be told apart.
func TestNestlimitIsAnError(t *testing.T) {
	err := nestlimit.JSON([]byte(strings.Repeat("[", 101)), "f.json")
	if !errors.Is(err, nestlimit.ErrTooDeep) || !strings.HasPrefix(err.Error(), "f.json:1:101: nested too deeply") {
		t.Fatalf("err = %v", err)
	}
	if err := nestlimit.JSON([]byte(strings.Repeat("[", 100)+`"[[[["`+strings.Repeat("]", 100)), "f.json"); err != nil {
		t.Fatalf("100 levels and brackets in a string: %v", err)
	}
}
