package lint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

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

type rawConfig struct {
	Config *struct {
		FailLevel *string `hcl:"fail_level,optional"`
	} `hcl:"config,block"`
	Rules []struct {
		ID       string  `hcl:"id,label"`
		Enabled  *bool   `hcl:"enabled,optional"`
		Severity *string `hcl:"severity,optional"`
	} `hcl:"rule,block"`
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

// LoadConfig reads and checks a .fabricgen.hcl.
func LoadConfig(ctx context.Context, path string) (*Config, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading lint config: %w", err)
	}
	return ParseConfig(path, src)
}

// ParseConfig parses .fabricgen.hcl source; errors name the line and the fix.
func ParseConfig(name string, src []byte) (*Config, error) {
	file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("lint config: %w", diags)
	}
	var raw rawConfig
	if diags := gohcl.DecodeBody(file.Body, nil, &raw); diags.HasErrors() {
		return nil, fmt.Errorf("lint config (expected `config { fail_level = \"warning|error\" }` and `rule \"ID\" { enabled = bool, severity = \"error|warning|info\" }` blocks): %w", diags)
	}
	c := &Config{Path: name, Rules: map[string]RuleConfig{}}
	if raw.Config != nil && raw.Config.FailLevel != nil {
		s, err := schema.ParseSeverity(*raw.Config.FailLevel)
		if err != nil {
			return nil, fmt.Errorf("%s: fail_level: %w", name, err)
		}
		if s < schema.SevWarning {
			return nil, fmt.Errorf("%s: fail_level = %q: info findings never fail a run; use \"warning\" (the default) or \"error\"", name, *raw.Config.FailLevel)
		}
		c.FailLevel = s
	}
	for _, r := range raw.Rules {
		rule := Lookup(r.ID)
		if rule != nil && rule.ID == ValidationRule {
			return nil, fmt.Errorf("%s: rule %q cannot be configured: an intent that does not load cannot be linted", name, r.ID)
		}
		if rule == nil {
			return nil, fmt.Errorf("%s: rule %q is not a fabricgen rule; run `fabricgen explain` for the list", name, r.ID)
		}
		rc := RuleConfig{Enabled: true}
		if r.Enabled != nil {
			rc.Enabled = *r.Enabled
		}
		if r.Severity != nil {
			s, err := schema.ParseSeverity(*r.Severity)
			if err != nil {
				return nil, fmt.Errorf("%s: rule %q severity: %w", name, r.ID, err)
			}
			rc.Severity = s
		}
		c.Rules[rule.ID] = rc
	}
	return c, nil
}
