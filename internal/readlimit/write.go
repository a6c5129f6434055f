package readlimit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// WriteFile writes data to path (created with perm, or replaced), the
// writer's counterpart of Open: a path that exists and is not a regular
// file (or a symlink to one) is refused with an error wrapping
// ErrNotRegular that names it and what it is. It never blocks: a named
// pipe at path would hold a plain write until someone reads it (and
// `plan -out PIPE` ignored its first SIGTERM), so the path is checked
// before it is opened, opened with O_NONBLOCK (a pipe swapped in between
// fails at once, or opens and is refused by the check on the
// descriptor), and only a regular file is truncated and written.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return notWritable(path, st.Mode())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ENXIO) {
		// O_WRONLY|O_NONBLOCK on a pipe nobody reads.
		return notWritable(path, fs.ModeNamedPipe)
	}
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = notWritable(path, st.Mode())
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func notWritable(name string, m fs.FileMode) error {
	return fmt.Errorf("%w: %s is a %s; fabricgen writes only regular files, since writing to a %s may block or go elsewhere: give the path of a file",
		ErrNotRegular, name, Kind(m), Kind(m))
}
