// Package format renders diagnostics — load and validation errors, lint
// findings, platform limits — in every output format fabricgen offers: one
// file per format, one registry (Formats) from which the CLI's --format
// flag, its help and the dispatch derive. Every format renders a whole
// Result, so an invalid intent reaches CI in the format CI asked for.
//
// The JSON document's shape is versioned (JSONFormatVersion) and
// documented in docs/rules.md.
package format

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
)

// Result is everything a format may print.
type Result struct {
	// Diagnostics are the load and validation diagnostics followed by the
	// lint findings, each part sorted (diag.Diagnostics.Sort).
	Diagnostics diag.Diagnostics
	// Valid is false when the intent (or the lint configuration) could not
	// be loaded; there are no findings then, only the errors that say why.
	Valid bool
	// Unloaded names what did not load when Valid is false: "" for the
	// intent, or e.g. "lint configuration .fabricgen.hcl".
	Unloaded string
	// Sources are the intent files' bytes by the names ranges use, for snippets.
	Sources map[string][]byte
	// Rules is the registry, for SARIF rule metadata and JUnit test cases.
	Rules []*lint.Rule
	// Color enables ANSI colour (text only); set it only for a terminal.
	Color bool
	// Version is the fabricgen version, for SARIF's tool driver.
	Version string
	// Fabrics are the fabric directories one report covers when there are
	// several (lint DIR..., --recursive): the text format's last line says
	// how many were linted, so a clean one is not silent.
	Fabrics []string
	// Suppressed are the findings suppressions hid (lint.RunReport). Only
	// SARIF shows them, as results with suppressions (GitHub code scanning
	// lists them as dismissed); the other formats leave them out, as they
	// leave them out of the counts.
	Suppressed []lint.Suppressed
	// BasePath, when set, is the directory SARIF and GitHub file names are
	// made relative to (the repository root), so code scanning and
	// annotations find the files; other formats print names as given.
	BasePath string
}

// Format is one output format.
type Format struct {
	// Name is what --format takes.
	Name string
	// Description is one line for help.
	Description string
	// Write renders the result.
	Write func(w io.Writer, r *Result) error
}

// Formats returns the registry, text (the default) first. Every format
// renders the prepared diagnostics (see prepared).
func Formats() []Format {
	fs := []Format{
		{Name: "text", Description: "human-readable: file:line:col, source snippet, hop trace, fix (default)", Write: writeText},
		{Name: "json", Description: "one JSON document (format_version " + JSONFormatVersion + "): valid, counts, every diagnostic", Write: writeJSON},
		{Name: "sarif", Description: "SARIF 2.1.0 for GitHub code scanning and other SARIF viewers", Write: writeSARIF},
		{Name: "github", Description: "GitHub Actions workflow commands (::error file=…::) that annotate a pull request", Write: writeGitHub},
		{Name: "junit", Description: "JUnit XML: one test case per rule, failures per finding", Write: writeJUnit},
		{Name: "checkstyle", Description: "Checkstyle XML", Write: writeCheckstyle},
		{Name: "compact", Description: "one line per diagnostic: file:line:col: severity - message (RULE)", Write: writeCompact},
		{Name: "markdown", Description: "a Markdown table for a pull-request comment", Write: writeMarkdown},
	}
	for i := range fs {
		write := fs[i].Write
		fs[i].Write = func(w io.Writer, r *Result) error {
			p := *r
			p.Diagnostics = prepared(r.Diagnostics)
			return write(w, &p)
		}
	}
	return fs
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

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summary is "2 errors, 1 warning, 0 infos".
func summary(ds diag.Diagnostics) string {
	e, w, i := ds.Counts()
	return plural(e, "error", "errors") + ", " + plural(w, "warning", "warnings") + ", " + plural(i, "info", "infos")
}

// ruleID is the diagnostic's rule, or lint.ValidationRule for a load or
// validation error, so structured formats always have a rule to file it under.
func ruleID(d *diag.Diagnostic) string {
	if d.Rule == "" {
		return lint.ValidationRule
	}
	return d.Rule
}

// prepared is what every format renders: ds with every diagnostic that has
// no rule (a load or validation error) filed under lint.ValidationRule, and
// locations in values given on the command line (-var NAME=VALUE) dropped,
// the variable named in the summary instead: they are no file a viewer can
// open. Diagnostics that change are copies; ds is not changed.
func prepared(ds diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		cmdline := d.Subject != nil && d.Subject.FromCommandLine()
		related := false
		for _, r := range d.Related {
			related = related || r.Range.FromCommandLine()
		}
		if d.Rule != "" && !cmdline && !related {
			out[i] = d
			continue
		}
		c := *d
		if c.Rule == "" {
			c.Rule = lint.ValidationRule
		}
		if cmdline {
			where := c.Subject.Filename
			c.Subject, c.Context = nil, nil
			if !strings.Contains(c.Summary+" "+c.Detail, strings.TrimPrefix(where, diag.CommandLinePrefix)) {
				c.Summary = where + ": " + c.Summary
			}
		}
		if related {
			c.Related = nil
			for _, r := range d.Related {
				if !r.Range.FromCommandLine() {
					c.Related = append(c.Related, r)
				}
			}
		}
		out[i] = &c
	}
	return out
}

// message is the summary plus count, detail, paths, trace, related places,
// implied findings and fix, for formats with one text field. File names in
// it are made relative to base (as relPath does; "" keeps them as given).
func message(d *diag.Diagnostic, base string) string {
	var b strings.Builder
	b.WriteString(d.Summary)
	if d.Count > 1 {
		fmt.Fprintf(&b, " (%d places)", d.Count)
	}
	if d.Detail != "" {
		b.WriteString("\n")
		b.WriteString(d.Detail)
	}
	if len(d.Trace) > 0 {
		fmt.Fprintf(&b, "\npath: %s", d.TraceString())
		if ps := d.PathsString(); ps != "" {
			fmt.Fprintf(&b, " (%s share this)", ps)
		}
	}
	for _, r := range d.Related {
		if !r.Range.IsZero() {
			rel := r.Range
			rel.Filename, _ = relPath(base, rel.Filename)
			fmt.Fprintf(&b, "\nsee: %s: %s", rel, r.Message)
		}
	}
	for _, im := range d.Implied {
		fmt.Fprintf(&b, "\nalso %s[%s]: %s", im.Severity, im.Rule, im.Summary)
	}
	for _, e := range d.Evidence {
		fmt.Fprintf(&b, "\nseen: %s", e.String())
	}
	if d.Fix != "" {
		fmt.Fprintf(&b, "\nfix: %s", d.Fix)
	}
	return b.String()
}

// ruleIndex maps rule IDs to registry positions.
func ruleIndex(rs []*lint.Rule) map[string]int {
	m := make(map[string]int, len(rs))
	for i, r := range rs {
		m[r.ID] = i
	}
	return m
}

// withDiagnosticRules returns rs plus a stand-in for every rule a diagnostic
// names that rs lacks (the validation rule, a rule from a newer registry).
func withDiagnosticRules(rs []*lint.Rule, ds diag.Diagnostics) ([]*lint.Rule, map[string]int) {
	idx := ruleIndex(rs)
	out := rs
	for _, d := range ds {
		id := ruleID(d)
		if _, ok := idx[id]; ok {
			continue
		}
		r := lint.Lookup(id)
		if r == nil {
			r = &lint.Rule{ID: id, Title: id, Severity: d.Severity, Rationale: id, Fix: d.Fix}
		}
		out = append(out[:len(out):len(out)], r)
		idx[id] = len(out) - 1
	}
	return out, idx
}

// relPath makes name relative to base (both resolved against the working
// directory), with forward slashes; inside says whether it lies under base.
// A name outside base becomes absolute (a name relative to the working
// directory means nothing to a viewer rooted at base); with no base, or a
// name that cannot be resolved, the name stays as given.
func relPath(base, name string) (path string, inside bool) {
	if base == "" || name == "" {
		return filepath.ToSlash(name), false
	}
	ab, err1 := filepath.Abs(base)
	an, err2 := filepath.Abs(name)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(name), false
	}
	rel, err := filepath.Rel(ab, an)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(an), false
	}
	return filepath.ToSlash(rel), true
}

// fingerprints identifies each diagnostic independently of its line
// number: the rule, the file, the text of the subject's line, the device,
// port and summary, and the occurrence of that combination ("hash:2" for
// the second of otherwise identical results, such as the same typo on four
// lines), so an alert keeps its identity when lines are added above it and
// distinct results never share one. uris are the results' artifact URIs.
func fingerprints(ds diag.Diagnostics, uris []string, sources map[string][]byte) []string {
	out := make([]string, len(ds))
	seen := map[string]int{}
	for i, d := range ds {
		h := sha256.New()
		line := ""
		if d.Subject != nil {
			line, _ = diag.SourceLine(sources, d.Subject.Filename, int(d.Subject.Start.Line))
		}
		for _, s := range []string{ruleID(d), uris[i], strings.TrimSpace(line), d.Device, d.Port, d.Summary} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		sum := hex.EncodeToString(h.Sum(nil)[:16])
		seen[sum]++
		out[i] = sum + ":" + strconv.Itoa(seen[sum])
	}
	return out
}
