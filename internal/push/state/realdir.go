package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrLinkedState is wrapped by the error for a state directory, or a
// folder or file in it, that is a symlink: the state directory sits in a
// checkout, and a link committed there (.fabricgen -> /etc, lock ->
// ~/.ssh/authorized_keys) would make apply truncate, write or prune files
// anywhere the operator may write. fabricgen never follows one.
var ErrLinkedState = errors.New("a symlink in the state directory")

// realDirs checks that root (when checkRoot) and every folder from root
// down to dir that exists is a real directory, not a symlink or another
// kind of file. Folders that do not exist yet pass: fabricgen creates
// them.
func realDirs(root, dir string, checkRoot bool) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not inside %s", dir, root)
	}
	p := root
	if checkRoot {
		if done, err := realDir(p); err != nil || done {
			return err
		}
	}
	if rel == "." {
		return nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		if done, err := realDir(p); err != nil || done {
			return err
		}
	}
	return nil
}

// realDir checks one folder; done reports that it does not exist (so
// neither does anything below it).
func realDir(p string) (done bool, err error) {
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("state directory: %w", err)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("%s is %w: fabricgen does not follow links there (a link in a checkout could point anywhere); replace it with a real folder", p, ErrLinkedState)
	case !st.IsDir():
		return false, fmt.Errorf("state directory: %s is not a folder: move it away", p)
	}
	return false, nil
}

// mkdirReal creates dir below root with mode 0700 after realDirs passes,
// and checks again once it exists.
func mkdirReal(root, dir string, checkRoot bool) error {
	if err := realDirs(root, dir, checkRoot); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := realDirs(root, dir, checkRoot); err != nil {
		return err
	}
	if checkRoot && filepath.Base(root) == DirName {
		return EnsureGitignore(root)
	}
	return nil
}
