// Package brownfield runs fabricgen import: it reads configuration files
// with their platform's importer (platforms/<name>/importer.go), writes
// the intent with internal/importer, and saves it to a directory. The
// command (cmd/fabricgen import) and the round-trip tests share it.
package brownfield

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// Source is one configuration to import: a name (its file's path, as the
// user gave it) and its bytes.
type Source struct {
	Name string
	Data []byte
	// Platform is the source's platform ("": the import's --platform).
	Platform schema.Platform
	// Neighbors are the device's LLDP neighbours, read live.
	Neighbors []importer.Neighbor
}

// Options are an import's settings.
type Options struct {
	// Platform is the platform every source is a configuration of.
	Platform schema.Platform
	// Fabric names the fabric ("imported" when empty).
	Fabric string
	// OSVersion is the release of devices whose configuration does not
	// name theirs ("" leaves them at fabricgen's default).
	OSVersion string
	// Attrs are device attributes to give every device whose
	// configuration does not name them (asic, hwsku, model, driver, buffer_model).
	Attrs map[string]string
	// Username, PasswordEnv and KeyFile become every device's
	// credentials block when Username is set.
	Username, PasswordEnv, KeyFile string
}

// ReadFiles reads paths as sources, each bounded by importer.MaxFileBytes
// and refused unless it is a regular file (readlimit).
func ReadFiles(ctx context.Context, paths []string) ([]Source, error) {
	var out []Source
	for _, p := range paths {
		b, err := readlimit.FileContext(ctx, p, importer.MaxFileBytes)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{Name: p, Data: b})
	}
	return out, nil
}

// Import reads every source with the platform's importer and writes the
// intent. An error is a source that cannot be read at all (an
// *importer.Error names its file and line).
func Import(ctx context.Context, srcs []Source, o Options) (*importer.Intent, []*importer.Device, error) {
	byName := map[schema.Platform]platform.Platform{}
	for _, p := range platforms.Needing("importer") {
		byName[p.Name] = p
	}
	plats := make([]platform.Platform, len(srcs))
	for i, s := range srcs {
		name := s.Platform
		if name == "" {
			name = o.Platform
		}
		p, ok := byName[name]
		if !ok {
			return nil, nil, fmt.Errorf("%s: unknown platform %q: use one of %s", s.Name, name, strings.Join(Names(), ", "))
		}
		if p.Import == nil {
			return nil, nil, fmt.Errorf("%s: platform %s has no importer yet", s.Name, p.Name)
		}
		plats[i] = p
	}
	// The sources are read in parallel, one worker per CPU (as render
	// renders); the devices keep the sources' order, and an error is the
	// first source's in that order, whichever worker met it first.
	devs := make([]*importer.Device, len(srcs))
	errs := make([]error, len(srcs))
	workers := runtime.GOMAXPROCS(0)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(srcs) {
					return
				}
				devs[i], errs[i] = readOne(ctx, plats[i], srcs[i], o)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	in, err := importer.Write(devs, importer.Options{Fabric: o.Fabric, Spec: Spec, Username: o.Username, PasswordEnv: o.PasswordEnv, KeyFile: o.KeyFile})
	if err != nil {
		return nil, nil, err
	}
	return in, devs, nil
}

// readOne reads one source with its platform's importer and fills in
// what the source does not say (name, release, attributes).
func readOne(ctx context.Context, p platform.Platform, s Source, o Options) (*importer.Device, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(s.Data) > importer.MaxFileBytes {
		return nil, importer.Errorf(s.Name, 0, "%d bytes is more than an import reads (%d): split the file per device", len(s.Data), importer.MaxFileBytes)
	}
	d, err := p.Import(ctx, s.Name, s.Data)
	if err != nil {
		var ie *importer.Error
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, importer.Errorf(s.Name, 0, "%v", err)
	}
	if d == nil {
		return nil, importer.Errorf(s.Name, 0, "the %s importer read no device", p.Name)
	}
	d.Platform = string(p.Name)
	if d.Src.File == "" {
		d.Src.File = s.Name
	}
	if d.Name == "" {
		d.Name = stem(s.Name)
	}
	if d.OSVersion == "" {
		d.OSVersion = o.OSVersion
	}
	// --attr fills what the configuration does not say.
	attrs := map[string]*string{"asic": &d.ASIC, "hwsku": &d.HWSKU, "model": &d.Model, "driver": &d.Driver, "buffer_model": &d.BufferModel}
	for k, v := range o.Attrs {
		if f, ok := attrs[k]; ok && *f == "" {
			*f = v
		}
	}
	if p.Spec.Host && d.Kind == "" {
		d.Kind = "nic"
	}
	if len(s.Neighbors) > 0 {
		d.Neighbors = s.Neighbors
	}
	return d, nil
}

// stem is a file's base name without its extension.
func stem(path string) string {
	b := filepath.Base(path)
	if i := strings.IndexByte(b, '.'); i > 0 {
		b = b[:i]
	}
	return b
}

// Spec returns the registry's spec of a platform, nil for none.
func Spec(name string) *schema.PlatformSpec {
	for _, s := range platforms.Catalog() {
		if string(s.Name) == name {
			return &s
		}
	}
	return nil
}

// Names lists the platforms that import, sorted.
func Names() []string {
	var out []string
	for _, p := range platforms.Needing("importer") {
		if p.Import != nil {
			out = append(out, string(p.Name))
		}
	}
	sort.Strings(out)
	return out
}

// WriteDir saves the intent's files in dir, creating it. It refuses a
// directory that already holds intent (*.fab.hcl, *.fab.json): an import
// never overwrites a fabric.
func WriteDir(dir string, in *importer.Intent) error {
	if ents, err := readlimit.ReadDir(dir); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".fab.hcl") || strings.HasSuffix(e.Name(), ".fab.json") {
				return fmt.Errorf("%s already holds a fabric (%s): import writes into a new or empty directory; give another -o", dir, e.Name())
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	names := make([]string, 0, len(in.Files))
	for n := range in.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := readlimit.WriteFile(filepath.Join(dir, n), in.Files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Renders renders every device of an imported fabric and returns the
// refusals: import never writes intent that render refuses, so an error
// here is a bug of an importer or the writer.
func Renders(f *schema.Fabric) error {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range f.Devices {
		out, err := r.Render(f, d)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", d.Name, err))
			continue
		}
		out.Release()
	}
	return errors.Join(errs...)
}

// PlatformRule gives the files or devices whose names match Glob
// (path.Match syntax, on a file's base name or a device's name) a
// platform.
type PlatformRule struct {
	Glob     string
	Platform schema.Platform
}

// ParsePlatforms reads --platform: one platform for every source
// ("arista_eos"), or a comma-separated list of GLOB=PLATFORM rules
// ("leaf3*=sonic,spine*=juniper_junos,*=arista_eos"), the first match
// winning.
func ParsePlatforms(flag string) (schema.Platform, []PlatformRule, error) {
	if !strings.Contains(flag, "=") {
		if _, ok := platforms.Get(schema.Platform(flag)); !ok {
			return "", nil, fmt.Errorf("--platform %q: use one of %s, or GLOB=PLATFORM rules", flag, strings.Join(Names(), ", "))
		}
		return schema.Platform(flag), nil, nil
	}
	var out []PlatformRule
	for _, part := range strings.Split(flag, ",") {
		g, p, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || g == "" {
			return "", nil, fmt.Errorf("--platform %q: write GLOB=PLATFORM rules separated by commas", part)
		}
		if _, err := path.Match(g, ""); err != nil {
			return "", nil, fmt.Errorf("--platform %q: %w", g, err)
		}
		if _, ok := platforms.Get(schema.Platform(p)); !ok {
			return "", nil, fmt.Errorf("--platform %q: unknown platform %q: use one of %s", part, p, strings.Join(Names(), ", "))
		}
		out = append(out, PlatformRule{Glob: g, Platform: schema.Platform(p)})
	}
	return "", out, nil
}

// PlatformOf is the platform rules give name (a file's base name or a
// device's name), else def; "" when none applies.
func PlatformOf(name string, def schema.Platform, rules []PlatformRule) schema.Platform {
	for _, r := range rules {
		if ok, _ := path.Match(r.Glob, name); ok {
			return r.Platform
		}
	}
	return def
}
