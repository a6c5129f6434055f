package push

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// Work in flight on a device that is not this run's: another operator's
// EOS session waiting on its commit timer, a pending NVUE revision, a
// Junos commit confirmed not yet confirmed, a fabricgen checkpoint or
// session another run made (or a killed run left). apply refuses to
// change such a device, and plan reports it.

// leftovers is what inspect found on a device.
type leftovers struct {
	// names are fabricgen transactions on the device (sessions,
	// checkpoints) other than the caller's own.
	names []string
	// timer names a session or commit waiting for confirmation.
	timer string
	// foreign describes other work in flight (someone else's).
	foreign []string
}

func (l leftovers) empty() bool { return len(l.names) == 0 && l.timer == "" && len(l.foreign) == 0 }

// inspect looks for work in flight on the device other than the
// transactions named ours, and returns it described for the operator (""
// when there is none).
func inspect(conn *session.Conn, dl *dialect.Dialect, ours ...string) (string, error) {
	l, err := findLeftovers(conn, dl, ours...)
	if err != nil {
		return "", err
	}
	return describeLeftovers(dl, l), nil
}

// findLeftovers reads the device's transactions, leaving out ours.
func findLeftovers(conn *session.Conn, dl *dialect.Dialect, ours ...string) (leftovers, error) {
	var l leftovers
	isOurs := func(name string) bool { return name != "" && contains(ours, name) }
	switch dl.Transaction {
	case dialect.TxnSession:
		out, err := conn.Show("show configuration sessions | json")
		if err != nil {
			return l, fmt.Errorf("list configuration sessions: %w", err)
		}
		var doc struct {
			Sessions map[string]struct {
				State string `json:"state"`
			} `json:"sessions"`
		}
		if err := json.Unmarshal([]byte(jsonPart(out)), &doc); err != nil {
			return l, fmt.Errorf("show configuration sessions | json: unexpected output: %w", err)
		}
		for _, name := range sortedKeys(doc.Sessions) {
			if isOurs(name) {
				continue
			}
			switch st := doc.Sessions[name].State; {
			case st == "pendingCommitTimer":
				l.timer = name
			case strings.HasPrefix(name, state.RunPrefix) && st == "pending":
				l.names = append(l.names, name)
			}
		}
	case dialect.TxnCheckpoint:
		out, err := conn.Show("show checkpoint summary")
		if err != nil {
			return l, fmt.Errorf("list checkpoints: %w", err)
		}
		for _, m := range reNXOSCheckpoint.FindAllStringSubmatch(out, -1) {
			if !isOurs(m[1]) && strings.HasPrefix(m[1], state.RunPrefix) {
				l.names = append(l.names, m[1])
			}
		}
	case dialect.TxnCommitConfirmed:
		out, err := conn.Show("show system commit")
		if err != nil {
			return l, fmt.Errorf("show system commit: %w", err)
		}
		if pending := junosPendingCommit(out); pending != "" {
			l.timer = pending
		}
	case dialect.TxnNVUE:
		diff, st, _, err := conn.Run("nv config diff")
		if err != nil {
			return l, fmt.Errorf("nv config diff: %w", err)
		}
		if st == 0 && strings.TrimSpace(diff) != "" {
			l.foreign = append(l.foreign, fmt.Sprintf("pending NVUE changes that are not ours (nv config diff shows %d lines: %s)", countLines(diff), firstLine(diff)))
		}
		cs, st, _, err := conn.Run("nv config apply --confirm-status")
		if err != nil {
			return l, fmt.Errorf("nv config apply --confirm-status: %w", err)
		}
		if st == 0 && reNVUEWaiting.MatchString(cs) {
			l.timer = strings.TrimSpace(cs)
		}
	case dialect.TxnGCU:
		out, st, _, err := conn.Run("sudo config list-checkpoints")
		if err != nil {
			return l, fmt.Errorf("config list-checkpoints: %w", err)
		}
		if st != 0 {
			return l, fmt.Errorf("config list-checkpoints exited %d: %s", st, strings.TrimSpace(out))
		}
		var names []string
		if err := json.Unmarshal([]byte(jsonPart(out)), &names); err != nil {
			return l, fmt.Errorf("config list-checkpoints: unexpected output %q: %w", firstLine(out), err)
		}
		for _, n := range names {
			if !isOurs(n) && strings.HasPrefix(n, state.RunPrefix) {
				l.names = append(l.names, n)
			}
		}
	}
	return l, nil
}

var (
	reNXOSCheckpoint = regexp.MustCompile(`(?m)^\s*\d+\)\s+(\S+?):\s*$`)
	reJunosEntry     = regexp.MustCompile(`^\s*(\d+)\s+\d{4}-\d\d-\d\d`)
	reNVUEWaiting    = regexp.MustCompile(`(?i)waiting for confirmation|seconds? (left|remaining)|rollback in`)
)

// junosPendingCommit returns the newest commit of `show system commit`
// when it still waits for confirmation, else "". Junos keeps "commit
// confirmed, rollback in Nmins" on an entry for good; while the timer
// runs, the newest entry (0) is followed by a "rollback pending" line.
func junosPendingCommit(out string) string {
	entry := ""
	for _, line := range strings.Split(out, "\n") {
		if m := reJunosEntry.FindStringSubmatch(line); m != nil {
			if m[1] != "0" {
				break
			}
			entry = strings.TrimSpace(line)
			continue
		}
		if entry != "" && strings.TrimSpace(line) == "rollback pending" {
			return entry
		}
	}
	return ""
}

// describeLeftovers says what was found and what to do about it.
func describeLeftovers(dl *dialect.Dialect, l leftovers) string {
	var parts []string
	if l.timer != "" {
		switch dl.Transaction {
		case dialect.TxnSession:
			parts = append(parts, fmt.Sprintf("configuration session %s is waiting for its commit timer: another change is in flight; wait until it is confirmed or rolled back (or abort it on the device: configure session %s abort)", l.timer, l.timer))
		case dialect.TxnCommitConfirmed:
			parts = append(parts, fmt.Sprintf("a commit confirmed is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", l.timer))
		default:
			parts = append(parts, fmt.Sprintf("an NVUE apply is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", l.timer))
		}
	}
	for _, n := range l.names {
		switch dl.Transaction {
		case dialect.TxnSession:
			parts = append(parts, fmt.Sprintf("fabricgen configuration session %s is open on the device: another fabricgen run is changing it, or a killed run left it (once sure, remove it with: no configure session %s)", n, n))
		case dialect.TxnCheckpoint:
			parts = append(parts, fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: rollback running-config checkpoint %s, then: no checkpoint %s)", n, n, n))
		default:
			parts = append(parts, fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: sudo config rollback %s, then: sudo config delete-checkpoint %s)", n, n, n))
		}
	}
	parts = append(parts, l.foreign...)
	return strings.Join(parts, "; ")
}

// foreignNVUE returns the lines of an `nv config diff` that none of our
// commands explains, summarised ("" when all are ours). A set line is ours
// when we set exactly that (path and value: another run setting the same
// key to another value is not us); an unset line is ours when one of our
// unsets covers its path, or one of our sets replaces that key's value
// (NVUE shows a changed value as the old one unset and the new one set).
func foreignNVUE(diff string, cmds []string) string {
	var sets, unsets [][]string
	for _, c := range cmds {
		if f := strings.Fields(c); len(f) >= 3 && f[0] == "nv" {
			switch f[1] {
			case "set":
				sets = append(sets, f[2:])
			case "unset":
				unsets = append(unsets, f[2:])
			}
		}
	}
	var extra []string
	for _, line := range strings.Split(diff, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "nv" || (f[1] != "set" && f[1] != "unset") {
			continue
		}
		path := f[2:]
		ours := false
		if f[1] == "set" {
			for _, q := range sets {
				ours = ours || equalTokens(path, q)
			}
		} else {
			for _, q := range unsets {
				ours = ours || (len(path) >= len(q) && equalTokens(path[:len(q)], q))
			}
			for _, q := range sets {
				parent := q[:len(q)-1]
				ours = ours || (len(q) > 1 && len(path) == len(q) && equalTokens(path[:len(parent)], parent))
			}
		}
		if !ours {
			extra = append(extra, strings.TrimSpace(line))
		}
	}
	if len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("%d lines, first: %s", len(extra), extra[0])
}

func equalTokens(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// jsonPart drops anything before the first '{' or '[' (a prompt echo or
// a banner line).
func jsonPart(s string) string {
	if i := strings.IndexAny(s, "{["); i >= 0 {
		return s[i:]
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func countLines(s string) int { return len(strings.Split(strings.TrimSpace(s), "\n")) }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// interrupted is the verdict on a device an earlier run left mid-change.
type interrupted struct {
	rec *state.InFlight
	// clean means the device equals its backup or the intent the run
	// was applying, and holds no leftover of it: the record can go.
	clean bool
	// ownLeftover is the run's own transaction still on the device
	// (uncommitted session, checkpoint) that can be removed safely when
	// clean.
	ownLeftover string
	// message tells the operator what is there and what to do.
	message string
}

// judgeInterrupted reads a device whose in-flight record says a run
// stopped mid-change, and decides whether it is clean.
func judgeInterrupted(conn *session.Conn, dl *dialect.Dialect, rec *state.InFlight, backupPath string) (interrupted, error) {
	v := interrupted{rec: rec}
	left, err := findLeftovers(conn, dl)
	if err != nil {
		return v, err
	}
	// The run's own transaction: an uncommitted session or a checkpoint
	// can go once the config is clean; a commit waiting on its timer
	// cannot.
	var others []string
	for _, n := range left.names {
		if n == rec.Txn && rec.Txn != "" {
			v.ownLeftover = n
			continue
		}
		others = append(others, n)
	}
	left.names = others
	now, err := fetch(conn, dl, rec.Rendered)
	if err != nil {
		return v, fmt.Errorf("read the device an interrupted run left: %w", err)
	}
	backup, berr := readBackup(backupPath)
	atBackup := berr == nil && config.Digest(now, dl) == config.Digest(backup, dl)
	atIntent := false
	if cmp, err := config.Compare(rec.Device, now, rec.Rendered, dl); err == nil {
		atIntent = cmp.Changes.Empty()
	}
	who := fmt.Sprintf("an earlier apply (run %s, %s) was interrupted while changing %s (step %q)", rec.Run, rec.Holder, rec.Device, rec.Step)
	v.clean = left.empty() && (atBackup || atIntent)
	if v.clean {
		return v, nil
	}
	var what []string
	if d := describeLeftovers(dl, left); d != "" {
		what = append(what, d)
	}
	if !atBackup && !atIntent {
		what = append(what, "the device now matches neither its backup nor the intent that run applied")
	}
	restore := "fabricgen rollback " + rec.Device
	if rec.Backup != "" {
		restore += " (backup " + rec.Backup + ")"
	}
	v.message = who + ": " + strings.Join(what, "; ") + "; restore the device with " + restore + ", then plan again"
	return v, nil
}

// resolveInterrupted handles the in-flight record an earlier run left for
// this device: a clean device has the record (and the run's own leftover
// transaction) removed and goes on; otherwise the device is refused with
// what to do.
func (a *applier) resolveInterrupted() (string, error) {
	rec, err := a.opts.State.InFlight(a.pd.Name)
	if err != nil || rec == nil {
		return "", err
	}
	v, err := judgeInterrupted(a.conn, a.dl, rec, rec.Backup)
	if err != nil {
		return "", err
	}
	if !v.clean {
		return v.message, nil
	}
	if v.ownLeftover != "" {
		removeTxn(a.conn, a.dl, v.ownLeftover)
	}
	return "", a.opts.State.ClearInFlight(a.pd.Name)
}

// removeTxn removes a fabricgen transaction object that changes nothing
// any more (an uncommitted session, a checkpoint of a clean device).
func removeTxn(conn *session.Conn, dl *dialect.Dialect, name string) {
	switch dl.Transaction {
	case dialect.TxnSession:
		_, _ = conn.Command("no configure session " + name)
	case dialect.TxnCheckpoint:
		_, _ = conn.Command("no checkpoint " + name)
	case dialect.TxnGCU:
		_, _, _, _ = conn.Run("sudo config delete-checkpoint " + name)
	}
}

// interruptedState says, from the step the device was in when the run
// stopped, what the device has now and the command that undoes it.
func (a *applier) interruptedState() (string, string) {
	name, step, timer := a.txn, a.stepName, fmtWait(a.opts.CommitTimer)
	rb := "fabricgen rollback " + a.pd.Name
	switch a.dl.Transaction {
	case dialect.TxnSession:
		switch step {
		case "stage":
			return "stopped while staging configuration session " + name + ": nothing was committed, the running config is unchanged", "configure session " + name + " abort"
		case "commit", "verify":
			return "stopped after committing session " + name + " with a commit timer: the device rolls it back by itself " + timer + " unless confirmed", "configure session " + name + " abort"
		}
	case dialect.TxnCheckpoint:
		return "stopped at step " + step + ": the change may be partly applied; checkpoint " + name + " holds the config from before it", "rollback running-config checkpoint " + name + " (then: no checkpoint " + name + ")"
	case dialect.TxnCommitConfirmed:
		switch step {
		case "stage":
			return "stopped while loading the exclusive candidate: nothing was committed, and Junos discards the candidate when the session ends", ""
		case "commit", "verify":
			return "stopped after commit confirmed: the device rolls the change back by itself " + timer + " unless confirmed", rb
		}
	case dialect.TxnNVUE:
		switch step {
		case "stage":
			return "stopped while staging nv set/unset lines in the pending revision: nothing was applied", "nv config detach"
		case "commit", "verify":
			return "stopped after nv config apply --confirm: the switch rolls the revision back by itself " + timer + " unless confirmed", "nv config apply --confirm-no"
		}
	case dialect.TxnGCU:
		return "stopped at step " + step + ": the JSON patch may be partly or fully applied; checkpoint " + name + " holds the config from before it", "sudo config rollback " + name + " (then: sudo config delete-checkpoint " + name + ")"
	default:
		return "stopped at step " + step + ": some of the script's settings may be changed", rb
	}
	return "stopped at step " + step + ": the change may or may not be in place", rb
}

func fmtWait(d time.Duration) string { return "within " + d.String() + " of the commit" }

// readBackup reads a backup file.
func readBackup(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no backup recorded")
	}
	b, err := readFileLimited(path, maxBackupBytes)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
