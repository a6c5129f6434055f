// Package hclfmt formats intent files the way fabricgen fmt does: the
// canonical layout of HCL native syntax, refused for text that does not
// parse (hclwrite would happily "format" broken input) or nests too deeply.
package hclfmt

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// Format parses src first and returns the canonical text, or the
// diagnostics that stop it.
func Format(src []byte, path string) ([]byte, schema.Diagnostics) {
	// Bounded before parsing, as the loader bounds it: 100,000 nested
	// brackets overflow the parser's stack.
	var deep *nestlimit.Error
	if errors.As(nestlimit.HCL(src, path), &deep) {
		r := schema.RangeFromHCL(deep.Range)
		return nil, schema.Diagnostics{{Severity: schema.SevError, Summary: "Nested too deeply", Detail: deep.Detail, Subject: &r}}
	}
	_, ds := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if ds.HasErrors() {
		var out schema.Diagnostics
		for _, d := range ds {
			sd := &schema.Diagnostic{Severity: schema.SevError, Summary: d.Summary, Detail: d.Detail}
			if d.Subject != nil {
				r := schema.RangeFromHCL(*d.Subject)
				sd.Subject = &r
			}
			out = append(out, sd)
		}
		return nil, out
	}
	return hclwrite.Format(src), nil
}
