// Package state owns a fabric's state directory, DIR/.fabricgen beside
// the intent files: the operator lock, the backups taken before every
// change, the in-flight record of a change that has started but not
// finished, and the last-applied record of every device.
//
// Everything here is a local file; nothing talks to a device. File names
// come from device names, which schema validates at load; this package
// refuses unsafe ones again (path separators, "." and "..", control
// characters), so a name can never place a file outside its folder.
package state

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// DirName is the state directory's name inside the fabric directory.
const DirName = ".fabricgen"

// maxStateFile bounds a file of the state directory fabricgen reads back
// (the lock's holder, an in-flight or last-applied record holding a
// device's rendered configuration): another process or a symlink there
// must not make apply read without end.
const maxStateFile = 64 << 20

// Dir is one fabric's state directory.
type Dir struct {
	// Path is the directory, usually FABRIC/.fabricgen.
	Path string
	// BackupRoot overrides where backups go (default Path/backups).
	BackupRoot string
	// Key (FABRICGEN_PLAN_KEY) signs the in-flight and last-applied
	// records written, and is required to have signed those read; nil
	// writes them unsigned and reads them unverified.
	Key []byte
}

// KeyEnv names the environment variable holding the key that signs plans
// and records (planfile.KeyEnv).
const KeyEnv = "FABRICGEN_PLAN_KEY"

// ForFabric returns the state directory of the fabric in dir.
func ForFabric(dir string) Dir { return Dir{Path: filepath.Join(dir, DirName)} }

// IsZero reports whether no state directory is set.
func (d Dir) IsZero() bool { return d.Path == "" }

func (d Dir) backupRoot() string {
	if d.BackupRoot != "" {
		return d.BackupRoot
	}
	return filepath.Join(d.Path, "backups")
}

// CheckName refuses a device name that cannot safely name a file or
// folder: empty, "." or "..", a path separator, or a control or
// invisible character.
func CheckName(name string) error {
	switch {
	case name == "", name == ".", name == "..":
		return fmt.Errorf("device name %q cannot name a file", name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("device name %q contains a path separator", name)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			return fmt.Errorf("device name %q contains the control or invisible character %U", name, r)
		}
	}
	return nil
}

// NewRunID returns a name for one run of apply or rollback, unique across
// runs and operators: "fabricgen-" then the UTC time to the second and
// eight random hex digits. It names the run's transactions on the devices
// (EOS session, NX-OS and SONiC checkpoints, Junos commit comment), so two
// runs never share one.
func NewRunID(now time.Time) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("random run id: %w", err)
	}
	return "fabricgen-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:]), nil
}

// ValidRunID reports whether s has the form of a run id: RunPrefix, then
// at most 64 ASCII letters, digits and "-". Only such a name is put into
// a device command.
func ValidRunID(s string) bool {
	rest, ok := strings.CutPrefix(s, RunPrefix)
	if !ok || rest == "" || len(rest) > 64 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !runIDByte(c) {
			return false
		}
	}
	return true
}

// runIDByte reports whether c may appear in a run id after the prefix.
func runIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

// RunPrefix is how every run id and every transaction fabricgen creates
// on a device begins.
const RunPrefix = "fabricgen-"

// writeJSON writes v to path below the state directory root atomically
// (a temporary file renamed over it, which replaces a link rather than
// writing through it), mode 0600.
func writeJSON(root, path string, v any) error {
	if err := mkdirReal(root, filepath.Dir(path), true); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readJSON reads path into v; it reports false when the file does not
// exist.
func readJSON(path string, v any) (bool, error) {
	// A record that is a link is not followed: it could stand for any
	// file (a record naming it as its backup, /dev/zero).
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return false, fmt.Errorf("%s is %w: fabricgen does not follow links there; remove it", path, ErrLinkedState)
	}
	b, err := readlimit.File(path, maxStateFile)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	if err := nestlimit.JSON(b, path); err != nil {
		return false, fmt.Errorf("%s is not a fabricgen state record: %w", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s is not a fabricgen state record: %w", path, err)
	}
	return true, nil
}
