package lint

import (
	"path/filepath"
	"sort"

	"github.com/fabricgen/fabricgen/diag"
)

// Report is a lint run's findings and the findings suppressions hid.
type Report struct {
	// Findings are what Run returns.
	Findings []Finding
	// Suppressed are the hidden findings, sorted like Findings.
	Suppressed []Suppressed
}

// Suppression kinds, as SARIF names them (suppression.kind).
const (
	// SuppressedInSource is a finding hidden by a `# fabricgen:ignore` comment.
	SuppressedInSource = "inSource"
	// SuppressedExternal is a finding of a rule the lint configuration
	// (.fabricgen.hcl) turns off.
	SuppressedExternal = "external"
)

// Suppressed is a finding a suppression hid, with the suppression's kind
// and justification (the ignore comment's reason; "" when it gave none).
type Suppressed struct {
	Finding       Finding
	Kind          string
	Justification string
}

// configOff reports whether r is a rule the configuration turns off, and
// that would run otherwise.
func configOff(r *Rule, opts Options) bool {
	if r.ID == ValidationRule || opts.Config == nil {
		return false
	}
	if len(opts.Only) > 0 && !containsInsensitive(opts.Only, r.ID) {
		return false
	}
	rc, ok := opts.Config.Rules[r.ID]
	return ok && !rc.Enabled
}

// configName is the configuration's file name for messages (a SARIF
// justification is shown beside the repository's files, so no directory).
func configName(c *Config) string {
	if c == nil || c.Path == "" {
		return ConfigFileName
	}
	return filepath.Base(c.Path)
}

// mergeSuppressed merges each rule's hidden findings of one kind and
// justification at a line, as mergeSameLine does for shown ones, and sorts
// them.
func mergeSuppressed(byRule [][]Suppressed) []Suppressed {
	var out []Suppressed
	for _, ss := range byRule {
		type key struct{ kind, why string }
		groups := map[key][]Finding{}
		var order []key
		for _, s := range ss {
			k := key{s.Kind, s.Justification}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], s.Finding)
		}
		for _, k := range order {
			for _, fd := range mergeSameLine(groups[k], nil) {
				out = append(out, Suppressed{Finding: fd, Kind: k.kind, Justification: k.why})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return diag.Less(&out[i].Finding, &out[j].Finding) })
	return out
}
