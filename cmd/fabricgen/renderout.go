package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// renderOutput is where render -o writes its files. Every file is
// created whole in a private staging folder, so a reader never sees a
// half-written configuration:
//
//   - OUT missing or empty: the staging folder is OUT's sibling
//     (.OUT.fabricgen-XXXXXXXX), and commit renames it to OUT, so OUT
//     appears with every file or not at all, for one rename in total;
//   - OUT holding files: the staging folder is inside OUT
//     (OUT/.fabricgen-render-XXXXXXXX) and each file is renamed into place
//     as soon as it is written; files render does not write are kept.
//
// Each file costs three system calls (create exclusively with its final
// mode, write, close; createFile) and, for a folder with files, a rename,
// where a temporary file beside its final name through *os.File took
// eleven (os.CreateTemp, the poller's fcntl and epoll_ctl calls, write,
// fchmod, close, rename). abort removes the staging folder and what it
// holds.
type renderOutput struct {
	out   string
	stage string
	// whole is true when commit renames stage to out.
	whole bool
	// mode is the mode out gets: that of the empty folder it replaces, or
	// 0 for a new one (0755 less the umask).
	mode fs.FileMode
}

// stagePrefix starts the name of a staging folder inside OUT; a sibling
// staging folder is named .OUT.fabricgen-XXXXXXXX. One left behind by a
// killed run can be deleted.
const stagePrefix = ".fabricgen-render-"

// openRenderOutput prepares out for writing (creating its parent folders
// if needed); nothing appears in out until write or commit.
func openRenderOutput(out string) (*renderOutput, error) {
	st, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(out)
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", parent, err)
		}
		return siblingStage(out, 0)
	case err != nil:
		return nil, fmt.Errorf("output folder %s: %w", out, err)
	case !st.IsDir():
		return nil, fmt.Errorf("output folder %s is a file: give a folder to write OUT/DEVICE.EXT into", out)
	}
	// A symbolic link to a folder stays a link: its folder is written into.
	lst, err := os.Lstat(out)
	if err != nil {
		return nil, fmt.Errorf("output folder %s: %w", out, err)
	}
	if empty, err := isEmptyDir(out); err != nil {
		return nil, fmt.Errorf("output folder %s: %w", out, err)
	} else if empty && lst.Mode()&fs.ModeSymlink == 0 {
		if o, err := siblingStage(out, st.Mode().Perm()); err == nil {
			return o, nil
		}
		// The parent is not writable: stage inside out instead.
	}
	stage, err := os.MkdirTemp(out, stagePrefix)
	if err != nil {
		return nil, fmt.Errorf("creating a staging folder in %s: %w", out, err)
	}
	return &renderOutput{out: out, stage: stage}, nil
}

// siblingStage creates the staging folder beside out, to be renamed to it.
func siblingStage(out string, mode fs.FileMode) (*renderOutput, error) {
	base := filepath.Base(filepath.Clean(out))
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("%s cannot be replaced by a rename", out)
	}
	var b [4]byte
	for range 10 {
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("naming a staging folder: %w", err)
		}
		stage := filepath.Join(filepath.Dir(out), "."+base+".fabricgen-"+hex.EncodeToString(b[:]))
		err := os.Mkdir(stage, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("creating a staging folder beside %s: %w", out, err)
		}
		return &renderOutput{out: out, stage: stage, whole: true, mode: mode}, nil
	}
	return nil, fmt.Errorf("creating a staging folder beside %s: every name tried exists", out)
}

// isEmptyDir reports whether dir has no entries.
func isEmptyDir(dir string) (bool, error) {
	f, err := readlimit.OpenDir(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if len(names) > 0 {
		return false, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return true, nil
}

// fileMode is the mode a rendered file is created with (before the umask):
// host scripts are executable.
func fileMode(name string) fs.FileMode {
	if filepath.Ext(name) == ".sh" {
		return 0o755
	}
	return 0o644
}

// write creates the file base with data: in the staging folder, then,
// unless the whole folder is renamed at the end, in out. It is safe for
// concurrent use with distinct names.
func (o *renderOutput) write(base string, data []byte) error {
	name := filepath.Join(o.out, base)
	tmp := filepath.Join(o.stage, base)
	if err := createFile(tmp, data, fileMode(base)); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if o.whole {
		return nil
	}
	if err := os.Rename(tmp, name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// createFile creates name exclusively with mode (less the umask) and
// writes data: open, write, close. It uses the system calls directly: an
// *os.File would first try to register the file with the network poller
// (four fcntl calls and a failing epoll_ctl per file, 67,648 times on
// examples/scale).
func createFile(name string, data []byte, mode fs.FileMode) error {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(mode.Perm()))
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return errors.Join(&fs.PathError{Op: "write", Path: name, Err: err}, syscall.Close(fd))
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

// commit puts what was written in place: the staging folder becomes out,
// or, its files already moved, is removed. When out cannot be replaced
// (it is the working directory, or a mount point), its files are moved
// into it one by one instead.
func (o *renderOutput) commit() error {
	if !o.whole {
		if err := os.Remove(o.stage); err != nil {
			return fmt.Errorf("removing the staging folder %s: %w", o.stage, err)
		}
		return nil
	}
	if o.mode != 0 {
		if err := os.Chmod(o.stage, o.mode); err != nil {
			return fmt.Errorf("output folder %s: %w", o.out, err)
		}
	}
	// An empty out (checked when it was opened) gives way to the staging
	// folder; a missing one is fine.
	if err := os.Remove(o.out); err == nil || errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(o.stage, o.out); err == nil {
			return nil
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", o.out, err)
	}
	ents, err := readlimit.ReadDir(o.stage)
	if err != nil {
		return fmt.Errorf("reading the staging folder %s: %w", o.stage, err)
	}
	for _, e := range ents {
		if err := os.Rename(filepath.Join(o.stage, e.Name()), filepath.Join(o.out, e.Name())); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(o.out, e.Name()), err)
		}
	}
	if err := os.Remove(o.stage); err != nil {
		return fmt.Errorf("removing the staging folder %s: %w", o.stage, err)
	}
	return nil
}

// abort removes the staging folder and the files it still holds.
func (o *renderOutput) abort() error {
	if err := os.RemoveAll(o.stage); err != nil {
		return fmt.Errorf("removing the staging folder %s: %w", o.stage, err)
	}
	return nil
}
