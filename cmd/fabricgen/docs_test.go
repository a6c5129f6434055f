package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/fabricgen/fabricgen/internal/golden"
)

// manDate is the date the man pages carry; fixed so the pages are
// reproducible (cobra would stamp today's date).
var manDate = time.Date(2026, time.December, 1, 0, 0, 0, 0, time.UTC)

// TestCLIDocs keeps docs/cli/*.md and docs/man/*.1 equal to what cobra/doc
// generates from the commands; `make docs` (go test ./cmd/fabricgen -run
// TestCLIDocs -update) rewrites them. A page for a command that no longer
// exists fails too.
func TestCLIDocs(t *testing.T) {
	root := newRootCommand(&streams{getenv: func(string) string { return "" }})
	root.DisableAutoGenTag = true
	root.InitDefaultCompletionCmd()
	docs := filepath.Join(repoRoot(t), "docs")
	const hint = "make docs"
	want := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root || c.IsAdditionalHelpTopicCommand() {
			return
		}
		base := strings.ReplaceAll(c.CommandPath(), " ", "_")
		var md bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &md, func(name string) string { return name }); err != nil {
			t.Fatal(err)
		}
		mdPath := filepath.Join(docs, "cli", base+".md")
		golden.Check(t, mdPath, md.Bytes(), hint)
		var man bytes.Buffer
		hdr := &doc.GenManHeader{Title: strings.ToUpper(base), Section: "1", Date: &manDate, Source: "fabricgen", Manual: "fabricgen manual"}
		if err := doc.GenMan(c, hdr, &man); err != nil {
			t.Fatal(err)
		}
		manPath := filepath.Join(docs, "man", strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")
		golden.Check(t, manPath, man.Bytes(), hint)
		want[mdPath], want[manPath] = true, true
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	var stale []string
	for _, pattern := range []string{filepath.Join(docs, "cli", "*.md"), filepath.Join(docs, "man", "*.1")} {
		have, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range have {
			if want[p] {
				continue
			}
			if golden.Updating() {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("pages for commands that no longer exist: %v (run %s)", stale, hint)
	}
	if len(want) < 30 {
		t.Errorf("generated only %d pages", len(want))
	}
}

// htmlLike matches text the man-page converter (md2man) reads as an HTML
// tag and drops: "OUT/<device>.cfg" would print as "OUT/.cfg".
var htmlLike = regexp.MustCompile(`<[A-Za-z/][^>\n]*>`)

// TestHelpTextSurvivesManPages refuses help text with <placeholders>:
// md2man swallows them in docs/man, so placeholders are written in
// capitals (DEVICE, PLATFORM) as man pages do.
func TestHelpTextSurvivesManPages(t *testing.T) {
	root := newRootCommand(&streams{getenv: func(string) string { return "" }})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(what, text string) {
			if m := htmlLike.FindString(text); m != "" {
				t.Errorf("%s: %s contains %q, which the man page drops; write the placeholder in capitals", c.CommandPath(), what, m)
			}
		}
		check("Long", c.Long)
		check("Example", c.Example)
		check("Short", c.Short)
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { check("--"+f.Name, f.Usage) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
