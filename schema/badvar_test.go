package schema_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestBadVariableIsOneError: a value from outside that is not one of the
// variable's values is one error, at the variable's declaration, and
// nothing computed from the variable fails too (it once cascaded into
// "No value for required variable", "Value not known" and function errors).
func TestBadVariableIsOneError(t *testing.T) {
	const src = `variable "n" { type = number }
variable "spines" { default = 2 }
locals {
  names  = [for i in range(var.n) : "leaf${i + 1}"]
  spines = [for i in range(var.spines) : "spine${i + 1}"]
}
fabric "x" {}
device "leaf" {
  for_each = toset(local.names)
  kind     = "leaf"
  platform = "probe_a"
}
device "spine" {
  for_each = toset(local.spines)
  kind     = "spine"
  platform = "probe_a"
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.fab.hcl"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  map[string]string
		vars map[string]string
		line int
		want string
	}{
		{"typed, no default, from the environment", map[string]string{"FABRICGEN_VAR_n": "two"}, nil, 1, `"two" is not a number`},
		{"typed, no default, -var", nil, map[string]string{"n": "two"}, 1, `"two" is not a number`},
		{"untyped, number default", map[string]string{"FABRICGEN_VAR_n": "1", "FABRICGEN_VAR_spines": "two"}, nil, 2, `its default 2 is a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := schema.Load(dir, schema.Options{Vars: tt.vars, Getenv: func(k string) string { return tt.env[k] }, Platforms: loadCatalog()})
			var errs []string
			for _, d := range ds {
				if d.Severity == schema.SevError {
					errs = append(errs, d.Range().String()+": "+d.Summary+": "+d.Detail)
				}
			}
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1:\n%s", len(errs), strings.Join(errs, "\n"))
			}
			at := fmt.Sprintf("declared at %s:%d", filepath.Join(dir, "f.fab.hcl"), tt.line)
			if !strings.Contains(errs[0], tt.want) || !strings.Contains(errs[0], at) {
				t.Errorf("error %s, want it to say %q and %q", errs[0], tt.want, at)
			}
		})
	}
}
