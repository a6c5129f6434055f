package hostpush

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// A host has no transaction of its own that another run could see, so a
// change holds the host's lock: a directory made with mkdir (atomic: of
// two runs only one makes it) under /run/lock, which every user may write
// to and a reboot empties, with an owner file naming the run and who
// started it. Apply and rollback take it before they read the host for the
// change (so the backup, the comparison and the change are all made under
// it) and release it when done; another run — from another checkout,
// with another state directory and so another fabric lock — finds it and
// is refused, naming the holder. A run stopped before it could release
// the lock leaves it: its in-flight record names the run, and the next
// plan or apply from that checkout removes it once the host is clean, or
// says what to do.

// hostLockDir is the host's lock.
const hostLockDir = "/run/lock/fabricgen.lock"

// hostLockOwner is what the lock's owner file says.
type hostLockOwner struct {
	// run is the run holding the lock; holder who started it.
	run, holder string
}

// readHostLock reads the host's lock; nil when there is none (or it
// has no owner file yet).
func readHostLock(conn *session.Conn) (*hostLockOwner, error) {
	out, st, _, err := conn.Run("cat " + hostLockDir + "/owner")
	if err != nil {
		return nil, fmt.Errorf("read the host's lock %s: %w", hostLockDir, err)
	}
	if st != 0 {
		return nil, nil
	}
	o := &hostLockOwner{}
	for _, line := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		switch k {
		case "run":
			o.run = v
		case "holder":
			o.holder = v
		}
	}
	return o, nil
}

// String describes the holder for a message (the text came from the
// host: anything but printable ASCII is replaced).
func (o *hostLockOwner) String() string {
	return fmt.Sprintf("run %s (%s)", txn.SafeText(o.run), txn.SafeText(o.holder))
}

// hostLeftovers reports the host's lock when a run other than ours holds
// it.
func hostLeftovers(conn *session.Conn, isOurs func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	o, err := readHostLock(conn)
	if err != nil || o == nil || isOurs(o.run) {
		return l, err
	}
	if !state.ValidRunID(o.run) {
		l.Foreign = append(l.Foreign, fmt.Sprintf("the host's lock %s is held by %s, which is not a fabricgen run: find out who made it; once nobody changes the host, remove it with: rm -r %s", hostLockDir, o, hostLockDir))
		return l, nil
	}
	l.Names = append(l.Names, o.run)
	l.Notes = map[string]string{o.run: o.holder}
	return l, nil
}

// hostLockNote describes another run's lock on the host.
func hostLockNote(name string) string {
	return fmt.Sprintf("fabricgen run %s holds the host's lock %s: another fabricgen apply or rollback (from another checkout) is changing the host, or a run that was killed left it; wait for it, or, once no fabricgen run is changing the host, remove the lock with: rm -r %s", name, hostLockDir, hostLockDir)
}

// removeHostLock removes the host's lock when run holds it.
func removeHostLock(conn *session.Conn, run string) {
	if o, err := readHostLock(conn); err == nil && o != nil && o.run == run {
		_, _, _, _ = conn.Run("rm -rf " + hostLockDir)
	}
}

// lockHost takes the host's lock for this run. The lock of the
// interrupted run this rollback cleans up (a.Ignore()) is taken over. It
// returns ok false with the txn.Outcome when the lock is another run's or
// cannot be taken; nothing was changed then.
func lockHost(a txn.Applier) (txn.Outcome, bool) {
	holder := txn.SafeText(state.Me(a.Command(), a.Now()).String())
	take := "mkdir " + hostLockDir + " && printf '%s\\n' " + config.ShellQuote("run="+a.Txn(), "holder="+holder) + " > " + hostLockDir + "/owner"
	for attempt := 0; ; attempt++ {
		out, st, _, err := a.Conn().Run(take)
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("take the host's lock %s: %v; nothing was changed", hostLockDir, err)}, false
		}
		if st == 0 {
			return txn.Outcome{}, true
		}
		if !strings.Contains(out, "File exists") {
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("take the host's lock %s: %s; nothing was changed (the user fabricgen logs in as must be able to make directories in /run/lock)", hostLockDir, txn.SafeText(strings.TrimSpace(out)))}, false
		}
		o, err := readHostLock(a.Conn())
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: err.Error() + "; nothing was changed"}, false
		}
		if o != nil && a.Ignore() != "" && o.run == a.Ignore() && attempt == 0 {
			// The interrupted run this rollback restores left it.
			_, _, _, _ = a.Conn().Run("rm -rf " + hostLockDir)
			continue
		}
		who := "a run whose owner file is missing (" + strings.TrimSpace(out) + ")"
		if o != nil {
			who = o.String()
		}
		return txn.Outcome{Status: txn.StatusRefused, Reason: fmt.Sprintf("the host's lock %s is held by %s: another fabricgen apply or rollback, from another checkout, is changing it (or a killed run left the lock); nothing was changed; once no fabricgen run is changing the host, remove it with: rm -r %s", hostLockDir, who, hostLockDir)}, false
	}
}

// unlockHost releases the host's lock this run holds (reconnecting when
// the session was lost).
func unlockHost(a txn.Applier) {
	if !a.Conn().Alive() && a.Reconnect() != nil {
		return
	}
	removeHostLock(a.Conn(), a.Txn())
}
