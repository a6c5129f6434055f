// Package readlimit reads files fabricgen is pointed at (intent, variable,
// inventory, key, state, plan and template files) with a size bound, and
// only when they are regular files, so that no path — /dev/zero, a
// symlink to it, a huge file, a named pipe nobody writes, a socket —
// makes a command read without end, block forever or run out of memory.
//
// Every file fabricgen reads from a path it was given or found goes
// through Open (or File, FileContext, FS, Root, ReadDir, which use it);
// TestEveryFileOpenIsBounded in this package fails on a call site that
// does not.
package readlimit

import (
	"github.com/fabricgen/fabricgen/internal/units"

	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"syscall"
)

// ErrTooLarge is wrapped by the error of a read that found more than its
// limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (after following symlinks): a named pipe, a device, a socket or a
// directory. Reading a named pipe blocks until someone writes it, a
// device may never end; fabricgen reads neither.
var ErrNotRegular = errors.New("not a regular file")

// Kind names what a file of mode m is, for errors: "named pipe",
// "character device", "block device", "socket", "directory", "regular
// file" or "special file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

// notRegular is the error for name, a file of mode m.
func notRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%w: %s is a %s; fabricgen reads only regular files (or symlinks to them), since a %s may block or never end: replace it with a regular file",
		ErrNotRegular, name, Kind(m), Kind(m))
}

// Open opens path for reading if it is a regular file (a symlink is
// followed). Anything else is refused with an error wrapping
// ErrNotRegular that names the path and what it is. It never blocks on a
// named pipe: the path is checked with stat before it is opened, and
// opened with O_NONBLOCK (so a pipe swapped in between opens at once) and
// checked again on the open descriptor (fstat), which is what is read.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	// O_NONBLOCK changes nothing for a regular file's reads.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := checkOpen(f, path); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// checkOpen refuses an open file that is not a regular file.
func checkOpen(f fs.File, name string) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", name, err)
	}
	if !st.Mode().IsRegular() {
		return notRegular(name, st.Mode())
	}
	return nil
}

// File reads path, refusing it once it holds more than limit bytes, and
// refusing it at once when it is not a regular file (see Open).
func File(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return read(f, path, limit)
}

// FileContext is File, given up when ctx is done: a file on a hung
// network mount blocks, and an interrupted command must not. The
// abandoned read ends with the process.
func FileContext(ctx context.Context, path string, limit int64) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := File(path, limit)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("interrupted while reading %s: %w", path, context.Cause(ctx))
	}
}

// FS reads name from fsys with the same bound, refusing what is not a
// regular file: it is checked with fs.Stat before it is opened and again
// on the opened file. (An fs.FS cannot open without blocking, so a pipe
// swapped in between the two blocks; Root has no such gap.)
func FS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(name, st.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if err := checkOpen(f, name); err != nil {
		return nil, err
	}
	return read(f, name, limit)
}

// Root reads name inside root with the same bound: a symlink is followed
// only while it stays inside root (os.Root's rule), and what is not a
// regular file is refused as Open refuses it. display is how errors name
// the file.
func Root(root *os.Root, name, display string, limit int64) ([]byte, error) {
	st, err := root.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(display, st.Mode())
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if err := checkOpen(f, display); err != nil {
		return nil, err
	}
	return read(f, display, limit)
}

// OpenDir opens the directory path (a symlink to one is followed); a
// path that is not a directory (a named pipe, say) is refused without
// being opened for reading (O_DIRECTORY), so nothing blocks.
func OpenDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			if st, serr := os.Stat(path); serr == nil {
				return nil, fmt.Errorf("%s is a %s, not a directory", path, Kind(st.Mode()))
			}
		}
		return nil, err
	}
	return f, nil
}

// ReadDir lists the directory path, sorted by name, like os.ReadDir,
// opening it with OpenDir.
func ReadDir(path string) ([]os.DirEntry, error) {
	f, err := OpenDir(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	ents, err := f.ReadDir(-1)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	if err != nil {
		return ents, fmt.Errorf("reading directory %s: %w", path, err)
	}
	return ents, nil
}

func read(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(name, limit)
	}
	return b, nil
}

// Reader reads r, failing with an error wrapping ErrTooLarge once more
// than limit bytes came through: for a stream decoded as it is read (a
// plan file through a JSON decoder) where buffering the whole file first
// would cost its size in memory. Open the file with Open.
func Reader(r io.Reader, name string, limit int64) io.Reader {
	return &limited{r: r, name: name, left: limit, limit: limit}
}

type limited struct {
	r     io.Reader
	name  string
	left  int64 // bytes still allowed
	limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.tooLarge()
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		// The byte past the limit is not handed on.
		return n - 1, l.tooLarge()
	}
	return n, err
}

func (l *limited) tooLarge() error { return tooLarge(l.name, l.limit) }

func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%w: %s holds more than %s, the most fabricgen reads from such a file", ErrTooLarge, name, units.Size(limit))
}
