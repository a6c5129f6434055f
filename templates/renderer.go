package templates

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// entry is the template every platform's set must define; it renders one device.
const entry = "device.tmpl"

// Options configure a Renderer.
type Options struct {
	// Dir, when set, overrides the embedded templates: the files
	// DIR/<platform>/*.tmpl are laid over the platform's embedded set, each
	// replacing the embedded template of its name (device.tmpl, or a
	// sub-template such as interface.tmpl; see docs/templates.md).
	// Platforms without a folder in Dir keep the embedded templates.
	Dir string
	// TimeLimit, OutputLimit, StepLimit and StringLimit bound each render
	// with override templates (one execution of device.tmpl or of a
	// sub-template; zero: DefaultTimeLimit, DefaultOutputLimit,
	// DefaultStepLimit, DefaultStringLimit): its time, the bytes it
	// writes, its steps (actions, loop iterations, template and function
	// calls) and the bytes of the strings its functions build. Once one
	// render runs out of time, the Renderer's other override renders stop
	// too: a looping template costs one time limit per run.
	TimeLimit   time.Duration
	OutputLimit int
	StepLimit   int64
	StringLimit int64
}

// Output is one rendered device configuration.
type Output struct {
	Device   string
	Platform schema.Platform
	// Filename is "<device>.<ext>", e.g. leaf1.cfg, or for a platform
	// that renders several files (view.Info Files) "<device>.<first
	// file>", e.g. sm01.opensm.conf.
	Filename string
	Text     []byte
	// Extra are the device's other files, for a platform that renders
	// several (view.Info Files), each named "<device>.<file>"; nil
	// otherwise.
	Extra []File
	// Rounded lists the intent's values the render writes rounded to
	// what the platform takes, for a note each.
	Rounded []view.Rounding

	// pool takes Text back on Release (nil: Text is not pooled).
	pool *sync.Pool
}

// Bundle is the device's files as they are installed on it, in dir (a
// platform's view.Info Dir), as a file bundle (internal/filebundle): the
// rendered config push compares and writes.
func (o *Output) Bundle(dir string) ([]byte, error) {
	files := []filebundle.File{{Path: dir + "/" + strings.TrimPrefix(o.Filename, o.Device+"."), Text: o.Text}}
	for _, x := range o.Extra {
		files = append(files, filebundle.File{Path: dir + "/" + strings.TrimPrefix(x.Name, o.Device+"."), Text: x.Text})
	}
	return filebundle.Encode(files)
}

// File is one more file of a device's render.
type File struct {
	// Name is "<device>.<file>", e.g. sm01.qos-policy.conf.
	Name string
	Text []byte
}

// Release hands o.Text back to the renderer for a later render to reuse,
// and clears it: call it once the text is written, and not at all if the
// text is kept. Outputs that are never released are simply collected.
func (o *Output) Release() {
	if o.pool == nil || o.Text == nil {
		return
	}
	b := o.Text[:0]
	o.pool.Put(&b)
	o.Text, o.pool = nil, nil
}

// Renderer renders device configurations. It is safe for concurrent use.
type Renderer struct {
	specs map[schema.Platform]platformSpec
	sets  map[schema.Platform]*template.Template
	cache *view.ViewCache
	// sizes holds, per platform, the length of the last render: the next
	// render's buffer starts that large, so the output is written once
	// into the slice it is returned in (no growth copies, no final copy).
	sizes map[schema.Platform]*atomic.Int64
	// Sources records where each platform's templates came from ("embedded" or a path).
	sources map[schema.Platform]string
	// overrides run the platforms whose templates come from Options.Dir.
	overrides map[schema.Platform]*overrideSet
	// stanzas run the platforms' sub-templates for the builders.
	stanzas map[schema.Platform]*view.StanzaSet
	// bufs holds, per platform, output buffers given back by Output.Release.
	bufs map[schema.Platform]*sync.Pool
}

// NewRenderer parses the embedded templates and any overrides in opts.Dir.
func NewRenderer(opts Options) (*Renderer, error) {
	r := &Renderer{sizes: map[schema.Platform]*atomic.Int64{}, cache: &view.ViewCache{}, specs: registry(), sets: map[schema.Platform]*template.Template{}, sources: map[schema.Platform]string{},
		overrides: map[schema.Platform]*overrideSet{}, stanzas: map[schema.Platform]*view.StanzaSet{}, bufs: map[schema.Platform]*sync.Pool{}}
	lim := limits{time: opts.TimeLimit, out: opts.OutputLimit, steps: opts.StepLimit, strBytes: opts.StringLimit}
	if lim.time <= 0 {
		lim.time = DefaultTimeLimit
	}
	if lim.out <= 0 {
		lim.out = DefaultOutputLimit
	}
	if lim.steps <= 0 {
		lim.steps = DefaultStepLimit
	}
	if lim.strBytes <= 0 {
		lim.strBytes = DefaultStringLimit
	}
	stop := new(atomic.Bool) // set once an override template runs out of time

	var over *overridesFolder
	if opts.Dir != "" {
		var err error
		if over, err = openOverrides(opts.Dir); err != nil {
			return nil, err
		}
		defer over.close()
	}
	for _, pl := range rendered() {
		p := pl.Name
		r.sizes[p] = new(atomic.Int64)
		r.bufs[p] = new(sync.Pool)
		src := "embedded"
		t, err := parseSet(template.New(string(p)).Option("missingkey=error").Funcs(view.Funcs()), pl.Templates, ".")
		if err != nil {
			return nil, fmt.Errorf("%s templates (%s): %w", p, src, err)
		}
		if over != nil && over.folders[p] {
			src = filepath.Join(opts.Dir, string(p))
			files, err := over.platformFiles(p)
			if err == nil {
				t, err = parseFiles(t, files, over.read)
			}
			if err != nil {
				return nil, fmt.Errorf("%s templates (%s): %w", p, src, err)
			}
		}
		r.sets[p] = t
		r.sources[p] = src
		st := &view.StanzaSet{Embedded: t}
		if src != "embedded" {
			o, err := newOverrideSet(t, lim, stop)
			if err != nil {
				return nil, fmt.Errorf("%s templates (%s): %w", p, src, err)
			}
			r.overrides[p] = o
			st = &view.StanzaSet{Over: o}
		}
		r.stanzas[p] = st
	}
	return r, nil
}

// parseSet adds the *.tmpl files of dir in fsys to t, in name order. A file
// takes its base name as template name and replaces a template of that
// name already in t, as does a {{define}} of a name t holds: an override
// folder is laid over the embedded set, so it may replace device.tmpl, one
// sub-template (interface.tmpl, ...), or both.
func parseSet(t *template.Template, fsys fs.FS, dir string) (*template.Template, error) {
	pattern := "*.tmpl"
	if dir != "." {
		pattern = dir + "/*.tmpl"
	}
	matches, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, fmt.Errorf("listing templates: %w", err)
	}
	return parseFiles(t, matches, func(m string) ([]byte, error) { return readlimit.FS(fsys, m, MaxTemplateFile) })
}

// parseFiles is parseSet's work on the files matches (sorted here), each
// read with read.
func parseFiles(t *template.Template, matches []string, read func(string) ([]byte, error)) (*template.Template, error) {
	if len(matches) == 0 {
		return nil, errors.New("no *.tmpl files found")
	}
	sort.Strings(matches)
	for _, m := range matches {
		b, err := read(m)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", m, err)
		}
		if _, err := t.New(filepath.Base(m)).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("parsing %s: %w", m, err)
		}
	}
	if t.Lookup(entry) == nil {
		return nil, fmt.Errorf("no %s among %v", entry, matches)
	}
	return t, nil
}

// Source reports where the platform's templates were loaded from:
// "embedded" or the override folder.
func (r *Renderer) Source(p schema.Platform) string { return r.sources[p] }

// View builds the data the platform's templates receive for d, without
// rendering it. Tests and docs use it; Render calls it.
func (r *Renderer) View(f *schema.Fabric, d *schema.Device) (any, error) {
	spec, ok := r.specs[d.Platform.V]
	if !ok {
		return nil, fmt.Errorf("device %s: unknown platform %q (known: %v)", d.Name, d.Platform.V, renderedNames())
	}
	if err := r.cache.CheckNames(f, d); err != nil {
		return nil, err
	}
	// Refusals do not stop the builders: every value the platform cannot
	// express is named, not only the first.
	var rej view.Collector
	b, err := view.BuildBase(f, d, r.cache, spec.info, r.stanzas[d.Platform.V])
	if !rej.Add(err) {
		return nil, err
	}
	v, err := spec.build(f, d, b)
	if !rej.Add(err) {
		return nil, err
	}
	if err := rej.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

// Render renders one device.
func (r *Renderer) Render(f *schema.Fabric, d *schema.Device) (*Output, error) {
	v, err := r.View(f, d)
	if err != nil {
		return nil, err
	}
	spec := r.specs[d.Platform.V]
	size := r.sizes[d.Platform.V]
	hint := int(size.Load())
	pool := r.bufs[d.Platform.V]
	need := hint + hint/16 + 256
	var raw []byte
	if v, ok := pool.Get().(*[]byte); ok && cap(*v) >= need {
		raw = (*v)[:0]
	} else {
		raw = make([]byte, 0, need)
	}
	buf := bytes.NewBuffer(raw)
	if o := r.overrides[d.Platform.V]; o != nil {
		err = o.Execute(buf, entry, v)
	} else {
		err = r.sets[d.Platform.V].ExecuteTemplate(buf, entry, v)
	}
	if err != nil {
		return nil, fmt.Errorf("device %s: executing %s templates (%s): %w", d.Name, d.Platform.V, r.sources[d.Platform.V], err)
	}
	text := buf.Bytes()
	size.Store(int64(len(text)))
	if n := len(text); n > 0 && text[n-1] != '\n' {
		text = append(text, '\n')
	}
	if cap(text) > 2*len(text)+4096 { // a much smaller device than the last one: do not keep the slack
		big := text[:0]
		text = append([]byte(nil), text...)
		pool.Put(&big)
	}
	out := &Output{
		Device:   d.Name,
		Platform: d.Platform.V,
		Filename: d.Name + "." + spec.Ext,
		Text:     text,
		pool:     pool,
	}
	if files := spec.info.Files; len(files) > 0 {
		out.Filename = d.Name + "." + files[0]
		if out.Extra, err = r.renderExtra(d, files[1:], v); err != nil {
			out.Release()
			return nil, err
		}
	}
	if rv, ok := v.(interface{ Roundings() []view.Rounding }); ok {
		out.Rounded = rv.Roundings()
	}
	return out, nil
}

// renderExtra renders a device's other files (view.Info Files after the
// first), each from the template of its name plus ".tmpl", leaving out
// the blank ones.
func (r *Renderer) renderExtra(d *schema.Device, files []string, v any) ([]File, error) {
	var out []File
	for _, name := range files {
		var buf bytes.Buffer
		var err error
		if o := r.overrides[d.Platform.V]; o != nil {
			err = o.Execute(&buf, name+".tmpl", v)
		} else {
			err = r.sets[d.Platform.V].ExecuteTemplate(&buf, name+".tmpl", v)
		}
		if err != nil {
			return nil, fmt.Errorf("device %s: executing %s templates (%s) for %s: %w", d.Name, d.Platform.V, r.sources[d.Platform.V], name, err)
		}
		text := buf.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if text[len(text)-1] != '\n' {
			text = append(text, '\n')
		}
		out = append(out, File{Name: d.Name + "." + name, Text: text})
	}
	return out, nil
}

// RenderAll renders devices in parallel (one worker per CPU) and returns the
// outputs in the order of devices. Every device is attempted; the error joins
// the failures, in device order. Outputs of failed devices are nil.
func (r *Renderer) RenderAll(ctx context.Context, f *schema.Fabric, devices []*schema.Device) ([]*Output, error) {
	out := make([]*Output, len(devices))
	errs := make([]error, len(devices))
	err := r.RenderEach(ctx, f, devices, func(i int, o *Output, err error) error {
		out[i], errs[i] = o, err
		return nil
	})
	if err != nil {
		return out, err
	}
	return out, errors.Join(errs...)
}

// RenderEach renders devices in parallel (one worker per CPU) and calls
// emit for each device from the worker that rendered it, with the device's
// index and either its output or its render error, as soon as it is
// rendered: outputs are not kept, so a caller that writes and drops them
// holds a few renders at a time. emit runs concurrently for different
// devices and is called once per device unless it fails: its first error
// stops the remaining work and is returned (as is cancellation of ctx).
func (r *Renderer) RenderEach(ctx context.Context, f *schema.Fabric, devices []*schema.Device, emit func(i int, o *Output, err error) error) error {
	g, ctx := errgroup.WithContext(ctx)
	workers := runtime.GOMAXPROCS(0)
	chunk := (len(devices) + workers*8 - 1) / (workers * 8)
	if chunk < 1 {
		chunk = 1
	}
	g.SetLimit(workers)
	for start := 0; start < len(devices); start += chunk {
		end := min(start+chunk, len(devices))
		g.Go(func() error {
			for i := start; i < end; i++ {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("rendering cancelled: %w", err)
				}
				o, err := r.Render(f, devices[i])
				if err := emit(i, o, err); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return nil
}
