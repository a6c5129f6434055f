// Package readlimit reads files fabricgen is pointed at (intent, variable,
// inventory, key, state, plan and template files) with a size bound, so
// that no path — /dev/zero, a symlink to it, a huge file, a pipe nobody
// writes — makes a command read without end or run out of memory.
package readlimit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge is wrapped by the error of a read that found more than its
// limit.
var ErrTooLarge = errors.New("file too large")

// File reads path, refusing it once it holds more than limit bytes. It
// reads through a bounded reader, so a device file that never ends is
// refused after limit+1 bytes.
func File(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return read(f, path, limit)
}

// FileContext is File, given up when ctx is done: opening or reading a
// named pipe nobody writes blocks, and an interrupted command must not.
// The abandoned read ends with the process.
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

// FS reads name from fsys with the same bound.
func FS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return read(f, name, limit)
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

// Size writes a limit the way the errors say it: "1 MiB", "64 MiB",
// "512 KiB", or bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader reads r, failing with an error wrapping ErrTooLarge once more
// than limit bytes came through: for a stream decoded as it is read (a
// plan file through a JSON decoder) where buffering the whole file first
// would cost its size in memory.
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
	return fmt.Errorf("%w: %s holds more than %s, the most fabricgen reads from such a file", ErrTooLarge, name, Size(limit))
}
