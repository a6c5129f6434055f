// Package format renders lint findings: one file per output format, one
// registry (Formats) from which the CLI's -format help derives.
package format

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// Result is everything a format may print.
type Result struct {
	// Findings are sorted (lint.Run sorts them).
	Findings []lint.Finding
	// Sources are the intent files' bytes by the names ranges use, for snippets.
	Sources map[string][]byte
	// Rules is the registry, for SARIF rule metadata and JUnit test cases.
	Rules []*lint.Rule
	// Color enables ANSI colour (text only); set it only for a terminal.
	Color bool
	// Version is the fabricgen version, for SARIF's tool driver.
	Version string
}

// Format is one output format.
type Format struct {
	// Name is what -format takes.
	Name string
	// Description is one line for help.
	Description string
	// Write renders the result.
	Write func(w io.Writer, r *Result) error
}

// Formats returns the registry, text (the default) first.
func Formats() []Format {
	return []Format{
		{Name: "text", Description: "human-readable: file:line:col, source snippet, hop trace, fix (default)", Write: writeText},
		{Name: "json", Description: "one JSON document with every finding and a summary", Write: writeJSON},
		{Name: "sarif", Description: "SARIF 2.1.0 for GitHub code scanning and other SARIF viewers", Write: writeSARIF},
		{Name: "github", Description: "GitHub Actions workflow commands (::error file=…::) that annotate a pull request", Write: writeGitHub},
		{Name: "junit", Description: "JUnit XML: one test case per rule, failures per finding", Write: writeJUnit},
		{Name: "checkstyle", Description: "Checkstyle XML", Write: writeCheckstyle},
		{Name: "compact", Description: "one line per finding: file:line:col: severity - message (RULE)", Write: writeCompact},
	}
}

// Lookup returns the named format.
func Lookup(name string) (Format, error) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown format %q: use one of %s", name, strings.Join(Names(), ", "))
}

// Names lists the format names in registry order.
func Names() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Name)
	}
	return out
}

// Help is a multi-line description of every format, for flag help.
func Help() string {
	var b strings.Builder
	for _, f := range Formats() {
		fmt.Fprintf(&b, "%s: %s\n", f.Name, f.Description)
	}
	return strings.TrimRight(b.String(), "\n")
}

// counts returns errors, warnings and infos.
func counts(fs []lint.Finding) (e, w, i int) {
	for _, f := range fs {
		switch f.Severity {
		case schema.SevError:
			e++
		case schema.SevWarning:
			w++
		default:
			i++
		}
	}
	return
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summary is "2 errors, 1 warning, 0 infos".
func summary(fs []lint.Finding) string {
	e, w, i := counts(fs)
	return plural(e, "error", "errors") + ", " + plural(w, "warning", "warnings") + ", " + plural(i, "info", "infos")
}

// detail is the message plus paths, trace and fix, for formats with one text field.
func detail(f *lint.Finding) string {
	var b strings.Builder
	b.WriteString(f.Message)
	if f.Count > 1 {
		fmt.Fprintf(&b, " (%d places)", f.Count)
	}
	if len(f.Trace) > 0 {
		fmt.Fprintf(&b, "\npath: %s", f.TraceString())
		if f.Paths > 0 {
			fmt.Fprintf(&b, " (%s share this)", plural64(f.Paths, "path", "paths"))
		}
	}
	if f.Fix != "" {
		fmt.Fprintf(&b, "\nfix: %s", f.Fix)
	}
	return b.String()
}

func plural64(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ruleIndex maps rule IDs to registry positions.
func ruleIndex(rs []*lint.Rule) map[string]int {
	m := make(map[string]int, len(rs))
	for i, r := range rs {
		m[r.ID] = i
	}
	return m
}

// fileNames lists the files findings point at, sorted.
func fileNames(fs []lint.Finding) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		n := f.Subject.Filename
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
