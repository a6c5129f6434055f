// Package platformtest gives the test suites of every layer each platform
// folder's own fixture, so a test loops over the registry (platforms.All)
// and never names a platform:
//
//	platforms/<name>/testdata/fabric/   a fabric with the platform's devices
//	platforms/<name>/testdata/golden/   their renders (<device>.<ext>)
//	platforms/<name>/testdata/push.json the push end-to-end case
//
// A fixture belongs to its folder: a copy of the folder (scripts/newplatform)
// copies it, and growing it changes no other platform's goldens.
package platformtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Fixture is one platform folder's test fixture.
type Fixture struct {
	// Platform is the folder's registry entry.
	Platform platform.Platform
	// Dir is the folder's testdata directory.
	Dir string
}

// All returns the fixture of every Ethernet platform with a lab emulator
// (whose fixtures render, push and run in the lab through the shared
// Ethernet matrices: a clos fabric, PFC, ECN, DSCP), in registry order;
// root is the repository's root as the calling test sees it ("..",
// "../.."). A subnet manager (opensm) has a lab emulator too; its file
// swap is tested in its folder against an InfiniBand fabric.
func All(root string) []Fixture {
	var out []Fixture
	for _, p := range platforms.Needing("lab emulator") {
		if p.Spec.SpeaksLinkLayer(schema.LinkEthernet) {
			out = append(out, Of(root, p))
		}
	}
	return out
}

// Of returns platform p's fixture.
func Of(root string, p platform.Platform) Fixture {
	return Fixture{Platform: p, Dir: filepath.Join(root, "platforms", p.Folder, "testdata")}
}

// FabricDir is the directory of the fixture fabric.
func (f Fixture) FabricDir() string { return filepath.Join(f.Dir, "fabric") }

// GoldenDir is the directory of the fixture's golden renders.
func (f Fixture) GoldenDir() string { return filepath.Join(f.Dir, "golden") }

// Golden is the path of device's golden render.
func (f Fixture) Golden(device string) string {
	return filepath.Join(f.GoldenDir(), device+"."+f.Platform.Render.Ext)
}

// Load loads the fixture fabric with the registry's catalog. It fails,
// naming the folder, when the folder has no fabric or the fabric has no
// device of the platform.
func (f Fixture) Load() (*schema.Fabric, error) {
	fab, diags := schema.Load(f.FabricDir(), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		return nil, fmt.Errorf("platforms/%s: its fixture fabric (testdata/fabric) does not load: %w", f.Platform.Folder, diags)
	}
	if len(f.Devices(fab)) == 0 {
		return nil, fmt.Errorf("platforms/%s: its fixture fabric (testdata/fabric) has no %s device", f.Platform.Folder, f.Platform.Name)
	}
	return fab, nil
}

// Devices returns the fixture fabric's devices of the platform, in the
// fabric's order (the others are its peers: NICs under a switch, a switch
// above a NIC).
func (f Fixture) Devices(fab *schema.Fabric) []*schema.Device {
	var out []*schema.Device
	for _, d := range fab.Devices {
		if d.Platform.V == f.Platform.Name {
			out = append(out, d)
		}
	}
	return out
}

// Push is a platform's push end-to-end case (testdata/push.json): a device
// of the fixture, whose golden render the tests apply to a lab device, and
// what the tests do to it.
type Push struct {
	// Device is the fixture device whose golden render is pushed.
	Device string `json:"device"`
	// Ports are the lab host's interfaces (hosts only).
	Ports []string `json:"ports,omitempty"`
	// Driver is the lab host's NIC kernel driver (hosts only; empty: the
	// lab's default), as the device's render names it.
	Driver string `json:"driver,omitempty"`
	// OOB is an out-of-band change another administrator makes.
	OOB []string `json:"oob"`
	// Reject matches a line of the change set, for the rejected-command
	// test.
	Reject string `json:"reject"`
	// DropAfter is the number of config commands after which the
	// disconnect test drops the connection (0: the test's default).
	DropAfter int `json:"drop_after,omitempty"`
	// Rendered is the device's golden render (read, not in the file).
	Rendered string `json:"-"`
}

// maxCase bounds push.json, maxGolden a golden render.
const (
	maxCase   = 64 << 10
	maxGolden = 16 << 20
)

// Push reads the folder's push end-to-end case and its device's golden
// render. It fails, naming the folder, when the case is missing, names
// another field, or its device has no golden render.
func (f Fixture) Push() (Push, error) {
	path := filepath.Join(f.Dir, "push.json")
	b, err := readlimit.File(path, maxCase)
	if err != nil {
		return Push{}, fmt.Errorf("platforms/%s: no push end-to-end case (testdata/push.json): %w", f.Platform.Folder, err)
	}
	if err := nestlimit.JSON(b, path); err != nil {
		return Push{}, fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Push
	if err := dec.Decode(&c); err != nil {
		return Push{}, fmt.Errorf("platforms/%s: testdata/push.json: %w", f.Platform.Folder, err)
	}
	if c.Device == "" || len(c.OOB) == 0 || c.Reject == "" {
		return Push{}, fmt.Errorf("platforms/%s: testdata/push.json needs a device, an oob change and a reject pattern", f.Platform.Folder)
	}
	if f.Platform.Spec.Host != (len(c.Ports) > 0) {
		return Push{}, fmt.Errorf("platforms/%s: testdata/push.json: ports are the lab host's interfaces, given for hosts only", f.Platform.Folder)
	}
	g, err := readlimit.File(f.Golden(c.Device), maxGolden)
	if err != nil {
		return Push{}, fmt.Errorf("platforms/%s: the push case's device %s has no golden render: %w", f.Platform.Folder, c.Device, err)
	}
	c.Rendered = string(g)
	return c, nil
}

// Goldens lists the golden render files of the fixture, sorted.
func (f Fixture) Goldens() ([]string, error) {
	ents, err := readlimit.ReadDir(f.GoldenDir())
	if err != nil {
		return nil, fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(f.GoldenDir(), e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// PushData decodes the folder's push test data testdata/push/<name>.json
// into v (unknown fields are an error): the per-platform tables of push's
// tests (races, takeovers) that a copy of the folder copies. It fails,
// naming the folder, when the file is missing or does not decode.
func (f Fixture) PushData(name string, v any) error {
	path := filepath.Join(f.Dir, "push", name+".json")
	b, err := readlimit.File(path, maxCase)
	if err != nil {
		return fmt.Errorf("platforms/%s: no push test data testdata/push/%s.json: %w", f.Platform.Folder, name, err)
	}
	if err := nestlimit.JSON(b, path); err != nil {
		return fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("platforms/%s: testdata/push/%s.json: %w", f.Platform.Folder, name, err)
	}
	return nil
}

// LabData decodes the folder's lab test data testdata/lab/<name>.json
// into v (unknown fields are an error), as PushData does for push's.
func (f Fixture) LabData(name string, v any) error {
	path := filepath.Join(f.Dir, "lab", name+".json")
	b, err := readlimit.File(path, maxCase)
	if err != nil {
		return fmt.Errorf("platforms/%s: no lab test data testdata/lab/%s.json: %w", f.Platform.Folder, name, err)
	}
	if err := nestlimit.JSON(b, path); err != nil {
		return fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("platforms/%s: testdata/lab/%s.json: %w", f.Platform.Folder, name, err)
	}
	return nil
}

// Brownfield reads the folder's brownfield configuration
// (testdata/brownfield.<ext>, in the lab's normalised form: a realistic
// existing configuration full of lines the lab has no grammar for) and
// returns its path and text. It fails, naming the folder, when there is
// not exactly one such file.
func (f Fixture) Brownfield() (path, text string, err error) {
	paths, err := filepath.Glob(filepath.Join(f.Dir, "brownfield.*"))
	if err != nil {
		return "", "", fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	if len(paths) != 1 {
		return "", "", fmt.Errorf("platforms/%s: want one brownfield configuration testdata/brownfield.<ext>, found %d", f.Platform.Folder, len(paths))
	}
	b, err := readlimit.File(paths[0], maxGolden)
	if err != nil {
		return "", "", fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
	}
	return paths[0], string(b), nil
}
