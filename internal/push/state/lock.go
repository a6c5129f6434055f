package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// Holder says who holds the lock; it is written into the lock file so a
// refused operator learns whom to ask.
type Holder struct {
	PID     int       `json:"pid"`
	User    string    `json:"user"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
}

// Me describes this process as a lock holder running command.
func Me(command string, now time.Time) Holder {
	h := Holder{PID: os.Getpid(), Command: command, Started: now.UTC()}
	if u, err := user.Current(); err == nil {
		h.User = u.Username
	}
	h.Host, _ = os.Hostname()
	return h
}

// String names the holder for a message. The lock file is anyone's to
// write, so its user, host and command are shown with every control and
// invisible character escaped (diag.EscapeText, as the intent's text):
// a user field holding an OSC or CSI sequence must not retitle or clear
// the refused operator's terminal (%q escapes the command).
func (h Holder) String() string {
	who := diag.EscapeText(h.User, false)
	if h.Host != "" {
		who += "@" + diag.EscapeText(h.Host, false)
	}
	return fmt.Sprintf("pid %d (%s, %q, since %s)", h.PID, who, h.Command, h.Started.Format(time.RFC3339))
}

// LockedError is returned when another process holds the lock.
type LockedError struct {
	Path string
	// Holder is who holds it, when the lock file says.
	Holder *Holder
}

func (e *LockedError) Error() string {
	who := "another fabricgen process"
	if e.Holder != nil {
		who = e.Holder.String()
	}
	return fmt.Sprintf("the fabric's state lock %s is held by %s: only one apply or rollback runs at a time; wait for it to finish, or pass -lock-timeout=5m to wait for the lock", e.Path, who)
}

// Lock is a held operator lock. The kernel releases it when the process
// ends, however it ends, so a killed run never leaves a stale lock.
type Lock struct {
	f    *os.File
	path string
}

// Lock takes the fabric's operator lock for holder. With timeout 0 it
// refuses at once when the lock is held (a *LockedError); otherwise it
// retries until the timeout passes or ctx ends.
func (d Dir) Lock(ctx context.Context, holder Holder, timeout time.Duration) (*Lock, error) {
	if d.IsZero() {
		return nil, errors.New("no state directory to lock")
	}
	if err := mkdirReal(d.Path, d.Path, true); err != nil {
		return nil, err
	}
	path := filepath.Join(d.Path, "lock")
	// Never through a link: the lock is truncated and written below.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|openNoFollow, 0o600)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("lock file %s is %w: fabricgen does not follow links there (a link in a checkout could point anywhere); remove it", path, ErrLinkedState)
		}
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, fmt.Errorf("lock file %s is not a regular file: remove it", path)
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			break
		}
		if timeout <= 0 || time.Now().After(deadline) {
			_ = f.Close()
			return nil, &LockedError{Path: path, Holder: readHolder(path)}
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, ctx.Err())
		case <-time.After(min(250*time.Millisecond, time.Until(deadline)+time.Millisecond)):
		}
	}
	b, _ := json.Marshal(holder)
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt(append(b, '\n'), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// maxHolder bounds the lock file: one JSON line naming its holder.
const maxHolder = 64 << 10

// readHolder reads the lock file's holder, or nil when it says nothing
// usable.
func readHolder(path string) *Holder {
	b, err := readlimit.File(path, maxHolder)
	if err != nil || strings.TrimSpace(string(b)) == "" {
		return nil
	}
	var h Holder
	if nestlimit.JSON(b, path) != nil || json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// Release gives the lock up. The lock file stays (removing a locked file
// races with the next locker); it is emptied.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unlock(l.f)
	cerr := l.f.Close()
	l.f = nil
	if err = errors.Join(err, cerr); err != nil {
		return fmt.Errorf("release %s: %w", l.path, err)
	}
	return nil
}
