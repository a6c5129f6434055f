package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// State and git, one story: a state directory (.fabricgen) keeps what a
// team commits apart from what it must not. Its .gitignore, written
// whenever fabricgen creates the directory, ignores everything but
// applied/*.json, the last-applied records (what fabricgen made on each
// device; drift and plan read them, and a teammate or a CI job needs the
// same ones). Everything else is private or one machine's: the lock,
// in-flight records, backups (whole running configs), and the lab's
// host keys, known_hosts and inventory. Ignoring by default means a file
// a later fabricgen adds is never committed by accident. An existing
// .gitignore is left as the team wrote it.

// GitignoreName is the file EnsureGitignore writes in a state directory.
const GitignoreName = ".gitignore"

// Gitignore is the content EnsureGitignore writes.
const Gitignore = `# Written by fabricgen (docs/push.md, "State and git"). Commit the
# last-applied records (applied/*.json): what fabricgen made on each
# device, which drift and plan read. Everything else here is private or
# this machine's: the lock, in-flight records, backups (whole running
# configurations) and the lab's keys, known_hosts and inventory.
*
!/.gitignore
!/applied/
!/applied/*.json
`

// EnsureGitignore writes dir/.gitignore (Gitignore) when there is none;
// dir is a state directory (.fabricgen) that exists. A .gitignore that is
// there, even a link, is left alone.
func EnsureGitignore(dir string) error {
	p := filepath.Join(dir, GitignoreName)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	_, werr := f.WriteString(Gitignore)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// EnclosingDir returns the state directory (a folder named .fabricgen)
// that path is in or is, looking only at the path's own folders (not
// the working directory's), and whether there is one: lab up keeps its
// files in .fabricgen/lab.
func EnclosingDir(path string) (string, bool) {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if filepath.Base(p) == DirName {
			return p, true
		}
		if filepath.Dir(p) == p {
			return "", false
		}
	}
}
