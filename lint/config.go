package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// ConfigFileName is the lint configuration file, found by walking up from
// the fabric directory (like tflint's .tflint.hcl).
const ConfigFileName = ".fabricgen.hcl"

// Config is a parsed .fabricgen.hcl:
//
//	config {
//	  fail_level = "error"       # warning (default: any finding but info fails) | error
//	}
//	rule "QOS005" {
//	  enabled  = false
//	  severity = "info"
//	}
type Config struct {
	// Path is the file the config was read from ("" for none).
	Path string
	// FailLevel is the lowest severity that makes lint exit 2 (0: not set).
	FailLevel schema.Severity
	// Rules holds per-rule settings by rule ID.
	Rules map[string]RuleConfig
}

// RuleConfig is one rule block.
type RuleConfig struct {
	// Enabled is false to turn the rule off.
	Enabled bool
	// Severity overrides the rule's default (0: keep).
	Severity schema.Severity
}

// FindConfig walks up from dir and returns the path of the first
// .fabricgen.hcl, or "" when there is none.
func FindConfig(ctx context.Context, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding %s: %w", ConfigFileName, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		p := filepath.Join(abs, ConfigFileName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("reading %s: %w", p, err)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// ConfigError is an invalid .fabricgen.hcl: its diagnostics, each at the
// line to change, and the file's text for snippets. Every lint output
// format reports them, so CI sees a broken config as well as a broken intent.
type ConfigError struct {
	Path        string
	Source      []byte
	Diagnostics diag.Diagnostics
}

// Error is the diagnostics, one per line.
func (e *ConfigError) Error() string { return e.Diagnostics.Error() }

// MaxConfigSize bounds a .fabricgen.hcl: a few rule blocks.
const MaxConfigSize = 1 << 20

// LoadConfig reads and checks a .fabricgen.hcl. A file that cannot be read
// is a plain error; one that says something wrong is a *ConfigError.
func LoadConfig(ctx context.Context, path string) (*Config, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src, err := readlimit.File(path, MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("reading lint config: %w", err)
	}
	return ParseConfig(path, src)
}

// configSchema is what .fabricgen.hcl may hold.
var configSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "config"}, {Type: "rule", LabelNames: []string{"id"}}}}

// ParseConfig parses .fabricgen.hcl source. Errors are a *ConfigError whose
// diagnostics name the line, what is wrong and the fix.
func ParseConfig(name string, src []byte) (*Config, error) {
	var ds diag.Diagnostics
	fail := func(rng *hcl.Range, summary, detail string) {
		d := &diag.Diagnostic{Severity: diag.Error, Summary: summary, Detail: detail}
		if rng != nil {
			r := schema.RangeFromHCL(*rng)
			d.Subject = &r
		}
		ds = append(ds, d)
	}
	addHCL := func(hds hcl.Diagnostics, hint string) {
		for _, h := range hds {
			detail := h.Detail
			if hint != "" {
				detail = strings.TrimSpace(detail + " " + hint)
			}
			fail(h.Subject, "lint config: "+h.Summary, detail)
		}
	}
	const shape = "A .fabricgen.hcl holds `config { fail_level = \"warning|error\" }` and `rule \"ID\" { enabled = bool, severity = \"error|warning|info\" }` blocks."
	// Bounded before parsing: 100,000 nested brackets overflow the
	// parser's stack (a fatal error, not a recoverable panic).
	var deep *nestlimit.Error
	if errors.As(nestlimit.HCL(src, name), &deep) {
		fail(&deep.Range, "lint config: nested too deeply", fmt.Sprintf("This nests brackets, braces, parentheses or strings more than %d levels deep, which fabricgen refuses to parse (the parser would run out of stack). %s", nestlimit.Max, shape))
		return nil, &ConfigError{Path: name, Source: src, Diagnostics: ds}
	}
	file, hds := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if hds.HasErrors() {
		addHCL(hds, "")
		return nil, &ConfigError{Path: name, Source: src, Diagnostics: ds}
	}
	content, hds := file.Body.Content(configSchema)
	addHCL(hds, shape)
	c := &Config{Path: name, Rules: map[string]RuleConfig{}}
	// attrs decodes a block's attributes of the given names.
	attrs := func(b *hcl.Block, names ...string) map[string]*hcl.Attribute {
		sch := &hcl.BodySchema{}
		for _, n := range names {
			sch.Attributes = append(sch.Attributes, hcl.AttributeSchema{Name: n})
		}
		bc, hds := b.Body.Content(sch)
		addHCL(hds, shape)
		if bc == nil {
			return nil
		}
		return bc.Attributes
	}
	str := func(a *hcl.Attribute) (string, bool) {
		v, hds := a.Expr.Value(nil)
		if hds.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
			fail(a.Expr.Range().Ptr(), fmt.Sprintf("lint config: %s must be a string", a.Name), `Write it in quotes, e.g. "error".`)
			return "", false
		}
		return v.AsString(), true
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "config":
			a := attrs(b, "fail_level")["fail_level"]
			if a == nil {
				continue
			}
			v, ok := str(a)
			if !ok {
				continue
			}
			sev, err := schema.ParseSeverity(v)
			switch {
			case err != nil:
				fail(a.Expr.Range().Ptr(), "lint config: fail_level "+strconv.Quote(v), err.Error()+`; use "warning" (the default) or "error".`)
			case sev < schema.SevWarning:
				fail(a.Expr.Range().Ptr(), "lint config: fail_level "+strconv.Quote(v), `Info findings never fail a run; use "warning" (the default) or "error".`)
			default:
				c.FailLevel = sev
			}
		case "rule":
			id, idRange := b.Labels[0], b.LabelRanges[0]
			rule := Lookup(id)
			switch {
			case rule != nil && rule.ID == ValidationRule:
				fail(&idRange, fmt.Sprintf("lint config: rule %q cannot be configured", id), "An intent that does not load cannot be linted; remove the block.")
				continue
			case rule == nil:
				fail(&idRange, fmt.Sprintf("lint config: rule %q is not a fabricgen rule", id), "Run `fabricgen explain` for the list of rules."+suggestRule(id))
				continue
			}
			as := attrs(b, "enabled", "severity")
			rc := RuleConfig{Enabled: true}
			if a := as["enabled"]; a != nil {
				v, hds := a.Expr.Value(nil)
				if hds.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.Bool {
					fail(a.Expr.Range().Ptr(), "lint config: enabled must be true or false", "")
				} else {
					rc.Enabled = v.True()
				}
			}
			if a := as["severity"]; a != nil {
				if v, ok := str(a); ok {
					sev, err := schema.ParseSeverity(v)
					if err != nil {
						fail(a.Expr.Range().Ptr(), fmt.Sprintf("lint config: rule %q severity %q", id, v), err.Error()+".")
					} else {
						rc.Severity = sev
					}
				}
			}
			c.Rules[rule.ID] = rc
		}
	}
	if len(ds) > 0 {
		return nil, &ConfigError{Path: name, Source: src, Diagnostics: ds}
	}
	return c, nil
}

// suggestRule names the registry's rule closest to a mistyped ID ("QOS01"
// → " Did you mean QOS001?") within one edit, or "" (ties: the first ID).
func suggestRule(id string) string {
	up := strings.ToUpper(id)
	for _, r := range Rules() {
		if levenshtein.Distance(up, r.ID, nil) <= 1 {
			return " Did you mean " + r.ID + "?"
		}
	}
	return ""
}
