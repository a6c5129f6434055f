// Package schema owns the fabric intent language: it reads every *.fab.hcl
// and *.fab.json file of a directory, evaluates variables, locals, functions,
// for_each/count and dynamic blocks, resolves references, and returns the
// typed, resolved Fabric with the source range of every value.
//
// Load is the entry point. It returns all diagnostics of a run, each with a
// subject range; with errors, the Fabric may be partial (or nil) and must
// only be used to print them. No HCL or cty type leaves this package.
package schema

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/units"
)

// Options are the inputs of a load besides the directory.
type Options struct {
	// Vars are -var name=value settings.
	Vars map[string]string
	// VarFiles are -var-file paths, applied in order.
	VarFiles []string
	// Getenv looks up FABRICGEN_VAR_name settings; nil means os.Getenv.
	Getenv func(string) string
	// Platforms is the catalog of platforms a device may name, with
	// everything the intent language needs of each (platforms.Catalog()
	// builds it from the platform folders). It is required: a load
	// without it fails.
	Platforms []PlatformSpec

	// Overlay holds the text of files an editor has open, by path
	// (filepath.Join(dir, name)): it replaces what is on disk, and an
	// intent file of dir that is only in the overlay (a new, unsaved
	// buffer) is read too. fabricgen lsp loads with it; nil reads the disk.
	Overlay map[string][]byte

	// limits replaces the load-wide totals (tests shrink them).
	limits *evalLimits
}

// MaxFileSize bounds one intent file; larger files are refused with a diagnostic.
const MaxFileSize = 16 << 20

// File suffixes of intent files.
const (
	HCLSuffix  = ".fab.hcl"
	JSONSuffix = ".fab.json"
)

var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "fabric", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "role", LabelNames: []string{"kind"}},
	{Type: "traffic_class", LabelNames: []string{"name"}},
	{Type: "ecn_profile", LabelNames: []string{"name"}},
	{Type: "pfc_watchdog", LabelNames: []string{"name"}},
	{Type: "qos_policy", LabelNames: []string{"name"}},
	{Type: "acl", LabelNames: []string{"name"}},
	{Type: "subnet", LabelNames: []string{"name"}},
	{Type: "device", LabelNames: []string{"name"}},
	{Type: "link", LabelNames: []string{"name"}},
	{Type: "mesh", LabelNames: []string{"name"}},
	{Type: "partition", LabelNames: []string{"name"}},
}}

// IntentFiles lists the intent files of dir in sorted order: every entry
// named *.fab.hcl or *.fab.json that is not a directory. A symlink counts
// (repositories share files that way); one to something other than a
// regular file, or a named pipe, is listed so that loading it reports it
// rather than leaving it out unnoticed.
func IntentFiles(dir string) ([]string, error) {
	ents, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, HCLSuffix) && !strings.HasSuffix(n, JSONSuffix) || e.IsDir() {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.IsDir() {
				continue
			}
		}
		out = append(out, filepath.Join(dir, n))
	}
	sort.Strings(out)
	return out, nil
}

// Load reads, evaluates and resolves the fabric in dir.
func Load(dir string, opts Options) (*Fabric, Diagnostics) {
	return LoadContext(context.Background(), dir, opts)
}

// LoadContext is Load, stopped when ctx is done: evaluation stops building
// values at once, a variable file being read (a named pipe without a
// writer) is left behind, and the only diagnostic is "Interrupted".
func LoadContext(ctx context.Context, dir string, opts Options) (*Fabric, Diagnostics) {
	return loadWith(ctx, dir, opts, newDecoder())
}

// loadWith is LoadContext with the decoder given (tests read its budget).
func loadWith(ctx context.Context, dir string, opts Options, d *decoder) (*Fabric, Diagnostics) {
	if opts.limits != nil {
		d.budget.limits = *opts.limits
	}
	stop := context.AfterFunc(ctx, func() { d.budget.cancelled.Store(true) })
	defer stop()
	f, diags := load(ctx, dir, opts, d)
	if err := ctx.Err(); err != nil {
		// What failed after the interrupt is its consequence, not the
		// intent's fault.
		return nil, Diagnostics{{Severity: SevError, Summary: "Interrupted",
			Detail: fmt.Sprintf("Loading %s stopped before it finished (%v); nothing was checked.", dir, context.Cause(ctx))}}
	}
	return f, diags
}

func load(cctx context.Context, dir string, opts Options, d *decoder) (*Fabric, Diagnostics) {
	f := &Fabric{Dir: dir, Files: map[string][]byte{}}
	if summary, detail := catalogProblems(opts.Platforms); summary != "" {
		d.add(&Diagnostic{Severity: SevError, Summary: summary, Detail: detail})
		return nil, d.diags
	}
	paths, err := IntentFiles(dir)
	if err == nil {
		paths = withOverlay(dir, paths, opts.Overlay)
	}
	if err != nil {
		d.add(&Diagnostic{Severity: SevError, Summary: "Cannot read fabric directory",
			Detail: fmt.Sprintf("%v. Pass the directory that holds the *.fab.hcl files.", err)})
		return nil, d.diags
	}
	if len(paths) == 0 {
		d.add(&Diagnostic{Severity: SevError, Summary: "No fabric files",
			Detail: fmt.Sprintf("%s holds no *%s or *%s files. A fabric is a directory of such files.", dir, HCLSuffix, JSONSuffix)})
		return nil, d.diags
	}
	p := hclparse.NewParser()
	var files []*hcl.File
	h := sha256.New()
	for _, path := range paths {
		if cctx.Err() != nil {
			return nil, d.diags
		}
		src, ok := d.readSource(path, opts.Overlay)
		if !ok {
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(path), len(src))
		h.Write(src)
		f.Files[path] = src
		if !d.checkNesting(src, path) {
			continue
		}
		var file *hcl.File
		var ds hcl.Diagnostics
		if strings.HasSuffix(path, JSONSuffix) {
			file, ds = p.ParseJSON(src, path)
		} else {
			file, ds = p.ParseHCL(src, path)
			if body, ok := bodyOf(file); ok && !ds.HasErrors() {
				ds = append(ds, bound(body, d.budget)...)
			}
		}
		clampRanges(ds, len(src))
		d.addHCL(ds)
		if file != nil && !ds.HasErrors() {
			files = append(files, file)
		}
	}
	if d.diags.HasErrors() {
		return nil, d.diags
	}
	content, ds := hcl.MergeFiles(files).Content(rootSchema)
	d.addHCL(ds)

	blocks := map[string]hcl.Blocks{}
	for _, b := range content.Blocks {
		blocks[b.Type] = append(blocks[b.Type], b)
	}
	vars := d.decodeVariables(cctx, p, blocks["variable"], opts)
	h.Write([]byte(varsJSON(vars)))
	f.Digest = hex.EncodeToString(h.Sum(nil))

	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}, Functions: functions(d.budget)}
	r := newResolver(d, f, opts.Platforms)
	r.declareRefs(ctx, blocks)
	ctx.Variables["local"] = cty.ObjectVal(d.decodeLocals(blocks["locals"], ctx))

	r.decodeLinkLayer(blocks["fabric"], ctx)
	r.decodeECNProfiles(blocks["ecn_profile"], ctx)
	r.decodeWatchdogs(blocks["pfc_watchdog"], ctx)
	r.decodeClasses(blocks["traffic_class"], ctx)
	r.decodeACLs(blocks["acl"], ctx)
	r.decodePolicies(blocks["qos_policy"], ctx)
	r.decodeFabric(blocks["fabric"], ctx, files)
	r.decodeRoles(blocks["role"], ctx)
	r.decodeDevices(blocks["device"], ctx)
	r.decodeLinks(blocks["link"], ctx)
	r.decodeMeshes(blocks["mesh"], ctx)
	r.decodeSubnets(blocks["subnet"], ctx)
	r.decodePartitions(blocks["partition"], ctx)
	r.finish()
	r.checkRenderedNames()

	d.diags.Sort()
	return f, d.diags
}

// withOverlay is paths with the intent files of dir that only the
// overlay holds, sorted.
func withOverlay(dir string, paths []string, overlay map[string][]byte) []string {
	if len(overlay) == 0 {
		return paths
	}
	have := make(map[string]bool, len(paths))
	for _, p := range paths {
		have[p] = true
	}
	added := false
	for p := range overlay {
		n := filepath.Base(p)
		if have[p] || filepath.Join(dir, n) != p || !strings.HasSuffix(n, HCLSuffix) && !strings.HasSuffix(n, JSONSuffix) {
			continue
		}
		paths = append(paths, p)
		added = true
	}
	if added {
		sort.Strings(paths)
	}
	return paths
}

// readSource reads one file (from the overlay when it holds it) and
// refuses what cannot be intent text.
func (d *decoder) readSource(path string, overlay map[string][]byte) ([]byte, bool) {
	if src, ok := overlay[path]; ok {
		start := &Range{Filename: path, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}}
		if len(src) > MaxFileSize {
			d.add(&Diagnostic{Severity: SevError, Summary: "File too large", Subject: start,
				Detail: fmt.Sprintf("%s is %d bytes; intent files are limited to %s. Split the fabric into several files or use for_each.", path, len(src), units.Size(MaxFileSize))})
			return nil, false
		}
		return d.checkText(path, src)
	}
	st, err := os.Stat(path)
	if err != nil {
		d.add(&Diagnostic{Severity: SevError, Summary: "Cannot read file", Detail: err.Error()})
		return nil, false
	}
	start := &Range{Filename: path, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}}
	if !st.Mode().IsRegular() {
		d.add(&Diagnostic{Severity: SevError, Summary: "Not a regular file", Subject: start,
			Detail: fmt.Sprintf("%s is a %s, not a file of intent text: replace it with a regular file (or a symlink to one), or rename it so that it does not end in %s or %s.", path, readlimit.Kind(st.Mode()), HCLSuffix, JSONSuffix)})
		return nil, false
	}
	if st.Size() > MaxFileSize {
		d.add(&Diagnostic{Severity: SevError, Summary: "File too large", Subject: start,
			Detail: fmt.Sprintf("%s is %d bytes; intent files are limited to %s. Split the fabric into several files or use for_each.", path, st.Size(), units.Size(MaxFileSize))})
		return nil, false
	}
	// Bounded: the size Stat gave is not what a read returns for a
	// device or a symlink to one (/dev/zero has size 0).
	src, err := readlimit.File(path, MaxFileSize)
	if errors.Is(err, readlimit.ErrTooLarge) {
		d.add(&Diagnostic{Severity: SevError, Summary: "File too large", Subject: start,
			Detail: fmt.Sprintf("%s holds more than %s; intent files are limited to %s. Split the fabric into several files or use for_each.", path, units.Size(MaxFileSize), units.Size(MaxFileSize))})
		return nil, false
	}
	if err != nil {
		d.add(&Diagnostic{Severity: SevError, Summary: "Cannot read file", Subject: start, Detail: err.Error()})
		return nil, false
	}
	return d.checkText(path, src)
}

// checkText refuses a file's bytes that are not UTF-8 text.
func (d *decoder) checkText(path string, src []byte) ([]byte, bool) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		r := posAt(src, path, i)
		d.add(&Diagnostic{Severity: SevError, Summary: "Binary file", Subject: &r,
			Detail: fmt.Sprintf("%s contains a NUL byte; intent files are UTF-8 text.", path)})
		return nil, false
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			rr, size := utf8.DecodeRune(src[i:])
			if rr == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		r := posAt(src, path, i)
		d.add(&Diagnostic{Severity: SevError, Summary: "Invalid UTF-8", Subject: &r,
			Detail: fmt.Sprintf("%s is not valid UTF-8 at byte %d; save the file as UTF-8.", path, i)})
		return nil, false
	}
	return src, true
}

// posAt is the one-character range at byte offset i of src.
func posAt(src []byte, path string, i int) Range {
	line := 1 + bytes.Count(src[:i], []byte{'\n'})
	col := i - bytes.LastIndexByte(src[:i], '\n')
	p := Pos{Line: int32(line), Column: int32(col), Byte: int32(i)}
	e := p
	e.Column++
	e.Byte++
	return Range{Filename: path, Start: p, End: e}
}

// clampRanges keeps the parser's diagnostic ranges inside a file of size
// bytes: HCL's JSON scanner reports an unterminated string at the end of
// the input one byte past it, which would make a snippet writer read
// beyond the source.
func clampRanges(ds hcl.Diagnostics, size int) {
	clamp := func(r *hcl.Range) {
		if r == nil {
			return
		}
		for _, p := range []*hcl.Pos{&r.Start, &r.End} {
			if over := p.Byte - size; over > 0 {
				p.Byte = size
				p.Column = max(1, p.Column-over)
			}
		}
	}
	for _, d := range ds {
		clamp(d.Subject)
		clamp(d.Context)
	}
}

// bodyOf is a parsed native-syntax file's body.
func bodyOf(f *hcl.File) (*hclsyntax.Body, bool) {
	if f == nil {
		return nil, false
	}
	b, ok := f.Body.(*hclsyntax.Body)
	return b, ok
}
