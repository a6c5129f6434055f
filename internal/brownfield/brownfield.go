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
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Source is one configuration to import: a name (its file's path, as the
// user gave it) and its bytes.
type Source struct {
	Name string
	Data []byte
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
	p, ok := platforms.Get(o.Platform)
	if !ok {
		return nil, nil, fmt.Errorf("unknown platform %q: use one of %s", o.Platform, strings.Join(Names(), ", "))
	}
	if p.Import == nil {
		return nil, nil, fmt.Errorf("platform %s has no importer yet", p.Name)
	}
	devs, err := readAll(ctx, p, srcs, o)
	if err != nil {
		return nil, nil, err
	}
	in, err := importer.Write(devs, importer.Options{Fabric: o.Fabric, Spec: Spec})
	if err != nil {
		return nil, nil, err
	}
	return in, devs, nil
}

func readAll(ctx context.Context, p platform.Platform, srcs []Source, o Options) ([]*importer.Device, error) {
	var devs []*importer.Device
	for _, s := range srcs {
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
		for k, v := range o.Attrs {
			switch k {
			case "asic":
				if d.ASIC == "" {
					d.ASIC = v
				}
			case "hwsku":
				if d.HWSKU == "" {
					d.HWSKU = v
				}
			case "model":
				if d.Model == "" {
					d.Model = v
				}
			case "driver":
				if d.Driver == "" {
					d.Driver = v
				}
			case "buffer_model":
				if d.BufferModel == "" {
					d.BufferModel = v
				}
			}
		}
		if p.Spec.Host && d.Kind == "" {
			d.Kind = "nic"
		}
		devs = append(devs, d)
	}
	return devs, nil
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
	for _, p := range platforms.All() {
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
