package platformtest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// The shared clos fabric (testdata/clos here) is examples/clos-400g cut
// down, with a seat for every device. A platform folder takes one seat
// (testdata/push/clos.json) and keeps the existing configuration of that
// seat's device (testdata/push/brownfield.<ext>): the suites that need a
// device among real peers (push's brownfield takeover and change matrix,
// the CLI's reliability suite) put the folder's platform in its seat and
// start the device from that configuration. The other seats keep the
// platforms the fabric names, so a folder's expectations do not depend on
// which other folders exist.

// ClosSeat is a folder's seat in the shared clos fabric.
type ClosSeat struct {
	// Seat is the clos device the folder's platform takes.
	Seat string `json:"seat"`
	// Ports are the lab host's interfaces (hosts only): every port the
	// seat's render names.
	Ports []string `json:"ports,omitempty"`
}

// maxClosFile bounds a file of the clos fabric.
const maxClosFile = 1 << 20

// ClosDir is the shared clos fabric's directory.
func (f Fixture) ClosDir() string {
	return filepath.Join(f.Dir, "..", "..", "..", "internal", "platformtest", "testdata", "clos")
}

// ClosSeat reads the folder's seat (testdata/push/clos.json). It fails,
// naming the folder, when the file is missing, has no seat, or gives
// ports to a switch or none to a host.
func (f Fixture) ClosSeat() (ClosSeat, error) {
	var s ClosSeat
	if err := f.PushData("clos", &s); err != nil {
		return ClosSeat{}, err
	}
	if s.Seat == "" {
		return ClosSeat{}, fmt.Errorf("platforms/%s: testdata/push/clos.json names no seat", f.Platform.Folder)
	}
	if f.Platform.Spec.Host != (len(s.Ports) > 0) {
		return ClosSeat{}, fmt.Errorf("platforms/%s: testdata/push/clos.json: ports are the lab host's interfaces, given for hosts only", f.Platform.Folder)
	}
	return s, nil
}

// ClosFiles returns the shared clos fabric's files (base name to text)
// with the folder's platform in its seat: the seat's line of local.seat
// in devices.fab.hcl rewritten. It fails, naming the folder and the seat,
// when the fabric has no such seat line or more than one.
func (f Fixture) ClosFiles() (map[string]string, ClosSeat, error) {
	s, err := f.ClosSeat()
	if err != nil {
		return nil, ClosSeat{}, err
	}
	paths, err := filepath.Glob(filepath.Join(f.ClosDir(), "*.fab.hcl"))
	if err != nil {
		return nil, ClosSeat{}, fmt.Errorf("platforms/%s: the shared clos fabric: %w", f.Platform.Folder, err)
	}
	if len(paths) == 0 {
		return nil, ClosSeat{}, fmt.Errorf("platforms/%s: the shared clos fabric %s has no files", f.Platform.Folder, f.ClosDir())
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := readlimit.File(p, maxClosFile)
		if err != nil {
			return nil, ClosSeat{}, fmt.Errorf("platforms/%s: %w", f.Platform.Folder, err)
		}
		out[filepath.Base(p)] = string(b)
	}
	re := regexp.MustCompile(`(?m)^(\s*` + regexp.QuoteMeta(s.Seat) + `\s*=\s*)"[^"\n]*"\s*$`)
	dev := out["devices.fab.hcl"]
	if n := len(re.FindAllStringIndex(dev, -1)); n != 1 {
		return nil, ClosSeat{}, fmt.Errorf("platforms/%s: seat %q of testdata/push/clos.json: the clos fabric's devices.fab.hcl has %d seat lines %q, want 1",
			f.Platform.Folder, s.Seat, n, s.Seat+` = "<platform>"`)
	}
	out["devices.fab.hcl"] = re.ReplaceAllString(dev, `${1}"`+strings.ReplaceAll(string(f.Platform.Name), "$", "$$")+`"`)
	return out, s, nil
}

// ClosBrownfield reads the existing configuration of the folder's seat
// (testdata/push/brownfield.<ext>, the form `fabricgen lab up
// --running-config` reads) and returns the file name the lab's
// --running-config directory gives it (the seat's name and the
// platform's running-config extension, as lab.RunningConfigFile names
// it) and its text.
func (f Fixture) ClosBrownfield() (name, text string, err error) {
	s, err := f.ClosSeat()
	if err != nil {
		return "", "", err
	}
	ext := f.Platform.RunningConfig.Ext
	path := filepath.Join(f.Dir, "push", "brownfield."+ext)
	b, err := readlimit.File(path, maxGolden)
	if err != nil {
		return "", "", fmt.Errorf("platforms/%s: no brownfield configuration of its clos seat (testdata/push/brownfield.%s): %w", f.Platform.Folder, ext, err)
	}
	return s.Seat + "." + ext, string(b), nil
}
