package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/units"
)

// LocalShell is the shell LocalRunner runs each command with.
const LocalShell = "/bin/sh"

// localStderr bounds the standard error kept for a failing command's
// message.
const localStderr = 4 << 10

// LocalRunner runs the collectors' read-only commands on this host
// (fabricgen check --local): LocalShell -c CMD, with LC_ALL=C, standard
// input closed, each command bounded in time (Timeout) and in output
// (MaxOutput bytes on standard output, as the SSH session bounds a
// device's answer). It is a collect.Runner with RunStatus, as the host
// collectors' SSH runner is. The zero value uses 30 s and
// session.DefaultMaxOutput.
type LocalRunner struct {
	// Ctx ends every command it runs (nil: never).
	Ctx context.Context
	// Timeout bounds each command (0: 30 s).
	Timeout time.Duration
	// MaxOutput bounds the bytes one command may write to standard
	// output (0: session.DefaultMaxOutput); past it the command is killed
	// and its output dropped.
	MaxOutput int64
}

// Run runs cmd and returns its standard output; a non-zero exit status is
// an error naming the command.
func (r *LocalRunner) Run(cmd string) (string, error) {
	out, status, msg, err := r.run(cmd)
	if err != nil {
		return "", err
	}
	if status != 0 {
		if msg == "" {
			msg = firstLine(out)
		}
		return "", fmt.Errorf("%q exited with status %d: %s", cmd, status, msg)
	}
	return out, nil
}

// RunStatus runs cmd and returns its standard output and exit status; the
// error is for a command that could not run to its end (timeout, too much
// output, no shell).
func (r *LocalRunner) RunStatus(cmd string) (string, int, error) {
	out, status, _, err := r.run(cmd)
	return out, status, err
}

// run runs cmd and returns its output, exit status and the first line of
// its standard error.
func (r *LocalRunner) run(cmd string) (string, int, string, error) {
	parent := r.Ctx
	if parent == nil {
		parent = context.Background()
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	limit := r.MaxOutput
	if limit <= 0 {
		limit = session.DefaultMaxOutput
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	stdout := &capWriter{max: limit, over: cancel}
	stderr := &capWriter{max: localStderr, truncate: true}
	c := exec.CommandContext(ctx, LocalShell, "-c", cmd)
	c.Env = localEnv(os.Environ())
	c.Stdin = nil
	c.Stdout, c.Stderr = stdout, stderr
	localProcess(c)
	// A command whose children keep the pipes open is not waited for
	// past its end.
	c.WaitDelay = time.Second
	err := c.Run()
	// Whatever the command left behind in its group ends with it.
	localReap(c)
	if errors.Is(err, exec.ErrWaitDelay) && c.ProcessState != nil {
		// The command ended; a child it left kept the pipe open.
		err = nil
		if st := c.ProcessState.ExitCode(); st != 0 {
			return stdout.String(), st, firstLine(stderr.String()), nil
		}
	}
	switch {
	case stdout.overflow():
		return "", 0, "", fmt.Errorf("%q wrote more than %s, the limit of one answer (--max-device-output; a longer output is cut off, not kept): %w", cmd, units.Size(limit), session.ErrOutputLimit)
	case parent.Err() != nil:
		return "", 0, "", fmt.Errorf("%q: %w", cmd, parent.Err())
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", 0, "", fmt.Errorf("%q did not end within %s (--timeout)", cmd, timeout)
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.Exited() {
		return stdout.String(), ee.ExitCode(), firstLine(stderr.String()), nil
	}
	if err != nil {
		return "", 0, "", fmt.Errorf("%q: %w", cmd, err)
	}
	return stdout.String(), 0, firstLine(stderr.String()), nil
}

// localEnv is env with the locale set to C (the parsers read C-locale
// numbers and messages).
func localEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") || strings.HasPrefix(kv, "LANGUAGE=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "LC_ALL=C")
}

// capWriter keeps up to max bytes: past them it drops the rest
// (truncate) or marks the overflow and calls over.
type capWriter struct {
	mu       sync.Mutex
	b        strings.Builder
	max      int64
	truncate bool
	over     func()
	overflew bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.max - int64(w.b.Len())
	if int64(len(p)) <= room {
		w.b.Write(p)
		return len(p), nil
	}
	if room > 0 {
		w.b.Write(p[:room])
	}
	if w.truncate {
		return len(p), nil
	}
	if !w.overflew {
		w.overflew = true
		if w.over != nil {
			w.over()
		}
	}
	return 0, session.ErrOutputLimit
}

func (w *capWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (w *capWriter) overflow() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.overflew
}
