package schema

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/units"
)

// EnvVarPrefix prefixes environment variables that set intent variables:
// FABRICGEN_VAR_spines=8 sets var.spines.
const EnvVarPrefix = "FABRICGEN_VAR_"

var variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "type"}, {Name: "default"}, {Name: "description"}, {Name: "sensitive"},
}}

// variable is one declared input variable.
type variable struct {
	name    string
	typ     cty.Type
	def     cty.Value
	hasDef  bool
	declRng hcl.Range
	typeRng hcl.Range
	// typeFromDefault says typ is the default's (the block gives none).
	typeFromDefault bool
}

// decodeVariables evaluates every variable block against its default and
// the overrides (environment, then -var-file, then -var, the last winning).
func (d *decoder) decodeVariables(ctx context.Context, p *hclparse.Parser, blocks hcl.Blocks, opts Options) map[string]cty.Value {
	// Values from outside the intent files are evaluated with nothing but
	// the functions bound() makes templates and for expressions call.
	vctx := &hcl.EvalContext{Functions: internalFunctions(d.budget)}
	decl := map[string]*variable{}
	var names []string
	for _, b := range blocks {
		name := b.Labels[0]
		if prev, ok := decl[name]; ok {
			d.errorf(b.LabelRanges[0], "Duplicate variable", "A variable named %q was already declared at %s.", name, convRange(prev.declRng))
			continue
		}
		if !hclsyntax.ValidIdentifier(name) {
			d.errorf(b.LabelRanges[0], "Invalid variable name", "%q is not a valid name: use letters, digits, underscores and dashes, starting with a letter.", name)
			continue
		}
		content, ds := b.Body.Content(variableSchema)
		d.addHCL(ds)
		v := &variable{name: name, typ: cty.DynamicPseudoType, declRng: b.DefRange}
		if a, ok := content.Attributes["type"]; ok {
			t, ds := typeexpr.TypeConstraint(a.Expr)
			d.addHCL(ds)
			if !ds.HasErrors() {
				v.typ = t
			}
			v.typeRng = a.Expr.Range()
		}
		if a, ok := content.Attributes["default"]; ok {
			val, ds := a.Expr.Value(vctx)
			d.addHCL(ds)
			if err := checkDeep(val); !ds.HasErrors() && err != nil {
				d.errorf(a.Expr.Range(), "Invalid default value for variable", "The default of %q is too large: %s.", name, err)
			} else if !ds.HasErrors() {
				cv, err := convertVar(val, v.typ)
				if err != nil {
					d.errorf(a.Expr.Range(), "Invalid default value for variable", "The default of %q does not match its type %s: %s.", name, typeexpr.TypeString(v.typ), err)
				} else {
					v.def, v.hasDef = cv, true
				}
			}
		}
		if a, ok := content.Attributes["description"]; ok {
			if val, ds := a.Expr.Value(nil); !ds.HasErrors() && val.Type() == cty.String && val.IsKnown() && !val.IsNull() {
				if err := checkText(val.AsString(), TextRule{}); err != nil {
					d.errorf(a.Expr.Range(), "Invalid description", "%q cannot be a description: %v. A description is %s.", val.AsString(), err, textForm)
				}
			}
		}
		decl[name] = v
		names = append(names, name)
	}
	sort.Strings(names)

	values := map[string]cty.Value{}
	// bad lists the variables given a value that is not one: their
	// error is the only one (no "no value" error, no errors downstream).
	bad := map[string]bool{}
	// set takes a value from outside the files: -var (source "-var NAME")
	// or the environment. Such a value has no position, so its error
	// names the source and the variable's declaration instead.
	set := func(name, raw string, rng hcl.Range, from string) {
		v, ok := decl[name]
		if !ok {
			d.errorf(rng, "Undeclared variable", "%s sets %q, but no variable block declares it.%s", from, name, suggest(name, names))
			return
		}
		// An untyped variable whose default is a number or a bool takes
		// values of that type: "two" for a default of 64 is this one
		// error, not every expression that computes with it.
		pv := *v
		if pv.typ == cty.DynamicPseudoType && pv.hasDef && (pv.def.Type() == cty.Number || pv.def.Type() == cty.Bool) {
			pv.typ, pv.typeFromDefault = pv.def.Type(), true
		}
		val, err := parseVarValue(raw, pv.typ, rng.Filename, vctx, d.budget)
		if err != nil {
			source := from + " " + name
			if from != "-var" {
				source = from
			}
			// One error, naming the variable's declaration: the variable
			// keeps its default (or, with none, is unknown and what is
			// computed from it no error of its own).
			d.add(&Diagnostic{Severity: SevError, Summary: "Invalid value for variable", Detail: varValueError(source, raw, &pv, err)})
			bad[name] = true
			return
		}
		values[name] = val
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, name := range names {
		if raw := getenv(EnvVarPrefix + name); raw != "" {
			set(name, raw, decl[name].declRng, "environment variable "+EnvVarPrefix+name)
		}
	}
	for _, vf := range opts.VarFiles {
		d.readVarFile(ctx, p, vf, decl, names, values, vctx)
	}
	keys := make([]string, 0, len(opts.Vars))
	for k := range opts.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set(k, opts.Vars[k], hcl.Range{Filename: "-var " + k}, "-var")
	}

	out := map[string]cty.Value{}
	for _, name := range names {
		v := decl[name]
		switch val, ok := values[name]; {
		case ok:
			out[name] = val
		case v.hasDef:
			out[name] = v.def
		case bad[name]:
			out[name] = cty.DynamicVal
			d.badVars = true
		default:
			d.errorf(v.declRng, "No value for required variable", "Variable %q has no default: set it with -var %s=VALUE, -var-file, or %s%s.", name, name, EnvVarPrefix, name)
			out[name] = cty.DynamicVal
		}
	}
	return out
}

// varTypeError is a value that parses but is not of the variable's type
// (or is a word where a typed variable needs a literal). detail says why,
// "" when the type says it all ("two" is not a number).
type varTypeError struct{ detail string }

func (e *varTypeError) Error() string {
	if e.detail == "" {
		return "not of the variable's type"
	}
	return e.detail
}

// typeNoun names what a value of typ is, for "... is not a number".
func typeNoun(typ cty.Type) string {
	switch typ {
	case cty.Number:
		return "a number"
	case cty.Bool:
		return "true or false"
	case cty.String:
		return "a string"
	}
	return "of type " + typeexpr.TypeString(typ)
}

// primitiveText is a number's or a bool's value as the intent writes it.
func primitiveText(v cty.Value) string {
	switch {
	case !v.IsKnown() || v.IsNull():
		return "(unknown)"
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	}
	return v.GoString()
}

// varValueError is the detail of a -var or environment value that is no
// value of variable v: `-var spines: "two" is not a number (variable
// "spines" has type number, declared at fabric.fab.hcl:1).`
func varValueError(source, raw string, v *variable, err error) string {
	shown := raw
	if len(shown) > 200 {
		shown = shown[:200] + "…"
	}
	decl := convRange(v.declRng)
	where := fmt.Sprintf("variable %q has type %s, declared at %s:%d", v.name, typeexpr.TypeString(v.typ), decl.Filename, decl.Start.Line)
	switch {
	case v.typeFromDefault:
		where = fmt.Sprintf("variable %q has no type, and its default %s is %s; declared at %s:%d", v.name, primitiveText(v.def), typeNoun(v.typ), decl.Filename, decl.Start.Line)
	case v.typ == cty.DynamicPseudoType:
		where = fmt.Sprintf("variable %q, declared at %s:%d", v.name, decl.Filename, decl.Start.Line)
	}
	var te *varTypeError
	if errors.As(err, &te) {
		msg := fmt.Sprintf("%s: %q is not %s", source, shown, typeNoun(v.typ))
		if te.detail != "" {
			msg += ": " + strings.TrimSuffix(te.detail, ".")
		}
		return msg + " (" + where + ")."
	}
	return fmt.Sprintf("%s: %q: %s (%s).", source, shown, strings.TrimSuffix(err.Error(), "."), where)
}

// pathPrefix is "element 0: " or "attribute \"a\": " (steps joined) for
// a conversion error inside a collection, "" otherwise.
func pathPrefix(err error) string {
	var pe cty.PathError
	if !errors.As(err, &pe) || len(pe.Path) == 0 {
		return ""
	}
	var parts []string
	for _, step := range pe.Path {
		switch st := step.(type) {
		case cty.IndexStep:
			switch {
			case st.Key.Type() == cty.Number && st.Key.IsKnown():
				parts = append(parts, "element "+st.Key.AsBigFloat().Text('f', -1))
			case st.Key.Type() == cty.String && st.Key.IsKnown():
				parts = append(parts, fmt.Sprintf("key %q", st.Key.AsString()))
			}
		case cty.GetAttrStep:
			parts = append(parts, fmt.Sprintf("attribute %q", st.Name))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + ": "
}

// sentence is err's text without a final period, for "...: %s.".
func sentence(err error) string { return strings.TrimSuffix(err.Error(), ".") }

// parseVarValue reads a command-line or environment value: taken
// literally for strings, parsed as an HCL expression otherwise (for an
// untyped variable, text that is no literal value is taken as a string), within
// the limits of intent files (nesting, size, numbers). filename names the
// value's source in ranges ("-var spines").
func parseVarValue(raw string, typ cty.Type, filename string, ctx *hcl.EvalContext, b *budget) (cty.Value, error) {
	if len(raw) > MaxStringLen {
		return cty.NilVal, fmt.Errorf("the value is %d bytes long; at most %d (%s)", len(raw), MaxStringLen, units.Size(MaxStringLen))
	}
	if typ == cty.String {
		return cty.StringVal(raw), nil
	}
	toks, _ := hclsyntax.LexExpression([]byte(raw), filename, hcl.InitialPos)
	if _, msg, deep := tooDeep(toks); deep {
		return cty.NilVal, fmt.Errorf("nested too deeply: %s", strings.TrimSuffix(msg, "."))
	}
	expr, ds := hclsyntax.ParseExpression([]byte(raw), filename, hcl.InitialPos)
	if ds.HasErrors() {
		if typ == cty.DynamicPseudoType {
			return cty.StringVal(raw), nil
		}
		return cty.NilVal, &varTypeError{"it does not parse: " + ds[0].Detail}
	}
	if ds := bound(expr, b); ds.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s", ds[0].Detail)
	}
	if _, ref := expr.(*hclsyntax.ScopeTraversalExpr); ref {
		if typ == cty.DynamicPseudoType {
			// An untyped variable takes a bare word as its text, as
			// terraform takes -var site=dc2: values from outside never
			// reference anything.
			return cty.StringVal(raw), nil
		}
		return cty.NilVal, &varTypeError{} // -var spines=two
	}
	val, ds := expr.Value(ctx)
	if ds.HasErrors() {
		if typ == cty.DynamicPseudoType {
			return cty.StringVal(raw), nil // -var site=dc-2, -var name=a.b: text
		}
		return cty.NilVal, &varTypeError{ds[0].Detail}
	}
	if err := checkDeep(val); err != nil {
		return cty.NilVal, err
	}
	cv, err := convertVar(val, typ)
	if err != nil {
		detail := ""
		if !typ.IsPrimitiveType() {
			// ("a number is required" would say no more than the type.)
			detail = pathPrefix(err) + err.Error()
		}
		return cty.NilVal, &varTypeError{detail}
	}
	return cv, nil
}

// readVarFile reads a -var-file: at most MaxVarFileSize bytes (read
// through a bounded reader, so /dev/zero is refused at once), checked
// like an intent file, then evaluated like -var values.
func (d *decoder) readVarFile(cctx context.Context, p *hclparse.Parser, path string, decl map[string]*variable, names []string, values map[string]cty.Value, ctx *hcl.EvalContext) {
	src, err := readlimit.FileContext(cctx, path, MaxVarFileSize)
	if err != nil {
		d.add(&Diagnostic{Severity: SevError, Summary: "Cannot read variable file", Subject: &Range{Filename: path, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}},
			Detail: fmt.Sprintf("%s: %v.", filepath.Clean(path), err)})
		return
	}
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) {
		d.add(&Diagnostic{Severity: SevError, Summary: "Cannot read variable file", Subject: &Range{Filename: path, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}},
			Detail: fmt.Sprintf("%s is not UTF-8 text (it holds a NUL byte or invalid UTF-8).", filepath.Clean(path))})
		return
	}
	isJSON := strings.HasSuffix(path, ".json")
	if !d.checkNesting(src, path) {
		return
	}
	var f *hcl.File
	var ds hcl.Diagnostics
	if isJSON {
		f, ds = p.ParseJSON(src, path)
	} else {
		f, ds = p.ParseHCL(src, path)
		if body, ok := bodyOf(f); ok && !ds.HasErrors() {
			ds = append(ds, bound(body, d.budget)...)
		}
	}
	clampRanges(ds, len(src))
	d.addHCL(ds)
	if f == nil || ds.HasErrors() {
		return
	}
	attrs, ds := f.Body.JustAttributes()
	d.addHCL(ds)
	for _, a := range attrs {
		v, ok := decl[a.Name]
		if !ok {
			d.errorf(a.NameRange, "Undeclared variable", "%s sets %q, but no variable block declares it.%s", path, a.Name, suggest(a.Name, names))
			continue
		}
		val, ds := a.Expr.Value(ctx)
		d.addHCL(ds)
		if ds.HasErrors() {
			continue
		}
		if err := checkDeep(val); err != nil {
			d.errorf(a.Expr.Range(), "Invalid value for variable", "%q is too large: %s.", a.Name, err)
			continue
		}
		cv, err := convertVar(val, v.typ)
		if err != nil {
			d.errorf(a.Expr.Range(), "Invalid value for variable", "%q must be %s: %s.", a.Name, typeexpr.TypeString(v.typ), sentence(err))
			continue
		}
		values[a.Name] = cv
	}
}

// decodeLocals evaluates all locals blocks in dependency order: each
// local once its dependencies are known (Kahn's algorithm, linear in the
// locals and their references), the locals of one round in parallel (big
// for expressions are independent of each other), each in a scope that
// holds only the locals it refers to. Each value is checked before others
// may use it: at most MaxValueElements elements expanded, MaxNesting
// levels deep.
func (d *decoder) decodeLocals(blocks hcl.Blocks, ctx *hcl.EvalContext) map[string]cty.Value {
	attrs := map[string]*hcl.Attribute{}
	var names []string
	for _, b := range blocks {
		as, ds := b.Body.JustAttributes()
		d.addHCL(ds)
		for _, a := range as {
			if prev, ok := attrs[a.Name]; ok {
				d.errorf(a.NameRange, "Duplicate local value", "A local value named %q was already defined at %s.", a.Name, convRange(prev.NameRange))
				continue
			}
			attrs[a.Name] = a
			names = append(names, a.Name)
		}
	}
	sort.Strings(names)
	deps := d.localDeps(attrs, names)
	waiting := make(map[string]int, len(names)) // dependencies not yet evaluated
	users := map[string][]string{}
	var ready []string
	for _, n := range names {
		waiting[n] = len(deps[n])
		for _, dep := range deps[n] {
			users[dep] = append(users[dep], n)
		}
		if waiting[n] == 0 {
			ready = append(ready, n)
		}
	}
	values := make(map[string]cty.Value, len(names))
	// failed holds the locals that could not be evaluated: those that use
	// them are not evaluated either (their errors would only repeat it).
	failed := map[string]bool{}
	for len(ready) > 0 {
		results := make([]cty.Value, len(ready))
		ok := make([]bool, len(ready))
		parallel(len(ready), func(i int) {
			for _, dep := range deps[ready[i]] {
				if failed[dep] {
					results[i] = cty.DynamicVal
					return
				}
			}
			results[i], ok[i] = d.evalLocal(attrs[ready[i]], deps[ready[i]], values, ctx)
		})
		var next []string
		for i, n := range ready {
			values[n] = results[i]
			if !ok[i] {
				failed[n] = true
			}
			for _, u := range users[n] {
				if waiting[u]--; waiting[u] == 0 {
					next = append(next, u)
				}
			}
		}
		sort.Strings(next)
		ready = next
	}
	if len(values) < len(names) {
		var cyc []string
		for _, n := range names {
			if _, done := values[n]; !done {
				cyc = append(cyc, "local."+n)
				values[n] = cty.DynamicVal
			}
		}
		first := attrs[strings.TrimPrefix(cyc[0], "local.")]
		shown := cyc
		if len(shown) > 20 {
			shown = append(shown[:20:20], fmt.Sprintf("and %d more", len(cyc)-20))
		}
		d.errorf(first.Range, "Cycle in local values", "These local values refer to each other in a cycle: %s. Break the cycle.", strings.Join(shown, ", "))
	}
	return values
}

// localDeps lists, per local, the distinct locals its expression refers
// to (local.NAME or local["NAME"]), reporting references to undeclared ones.
func (d *decoder) localDeps(attrs map[string]*hcl.Attribute, names []string) map[string][]string {
	deps := map[string][]string{}
	for _, n := range names {
		seen := map[string]bool{}
		for _, tr := range attrs[n].Expr.Variables() {
			if tr.RootName() != "local" || len(tr) < 2 {
				continue
			}
			var name string
			switch step := tr[1].(type) {
			case hcl.TraverseAttr:
				name = step.Name
			case hcl.TraverseIndex:
				if step.Key.Type() != cty.String || !step.Key.IsKnown() || step.Key.IsNull() {
					continue
				}
				name = step.Key.AsString()
			default:
				continue
			}
			if _, known := attrs[name]; !known {
				d.errorf(tr.SourceRange(), "Reference to undeclared local value", "No local value named %q is declared.%s", name, suggest(name, names))
				continue
			}
			if !seen[name] {
				seen[name] = true
				deps[n] = append(deps[n], name)
			}
		}
	}
	return deps
}

// evalLocal evaluates one local in a scope holding its dependencies'
// values, and checks the result's size; false means it failed.
func (d *decoder) evalLocal(a *hcl.Attribute, deps []string, values map[string]cty.Value, ctx *hcl.EvalContext) (cty.Value, bool) {
	if d.budget.exhausted() {
		return cty.DynamicVal, false
	}
	scope := make(map[string]cty.Value, len(deps))
	for _, dep := range deps {
		scope[dep] = values[dep]
	}
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{"local": cty.ObjectVal(scope)}
	v, ds := a.Expr.Value(child)
	d.addHCL(ds)
	if ds.HasErrors() || !d.checkSize(v, a.Expr.Range(), "local."+a.Name) {
		return cty.DynamicVal, false
	}
	return v, true
}

// varsJSON renders variable values deterministically for the digest.
func varsJSON(vals map[string]cty.Value) string {
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		v := vals[n]
		if !v.IsWhollyKnown() {
			continue
		}
		j, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s=%s\n", n, j)
	}
	return b.String()
}

// convertVar converts a variable's value to its type, a large tuple of
// one element type straight into a list or set (see homogeneousCollection).
func convertVar(v cty.Value, typ cty.Type) (cty.Value, error) {
	if fast, ok := homogeneousCollection(v, typ); ok {
		return fast, nil
	}
	return convert.Convert(v, typ)
}
