package nvidiacumulus

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// transaction is Cumulus NVUE's pending revision and apply --confirm.
func transaction() txn.Transaction {
	return txn.Transaction{
		Kind:      pushdialect.TxnNVUE,
		Run:       nvue,
		Leftovers: nvueLeftovers,
		TimerNote: func(timer string) string {
			return fmt.Sprintf("an NVUE apply is waiting for confirmation (%s): another change is in flight; wait until it is confirmed or rolled back", timer)
		},
		Interrupted: func(in txn.Stopped) (string, string) {
			switch in.Step {
			case "stage":
				return "stopped while staging nv set/unset lines in the pending revision: nothing was applied", "nv config detach"
			case "commit", "verify":
				return "stopped after nv config apply --confirm: the switch rolls the revision back by itself " + in.Wait + " unless confirmed", "nv config apply --confirm-no"
			}
			return "", ""
		},
		// The interrupted run's apply waiting for confirmation is
		// refused (the switch rolls it back), and lines it staged in
		// the pending revision are detached.
		Cleanup: func(_ *state.InFlight, left txn.Leftovers) []string {
			var cmds []string
			if left.Timer != "" {
				cmds = append(cmds, "nv config apply --confirm-no")
			}
			if len(left.Foreign) > 0 {
				cmds = append(cmds, "nv config detach")
			}
			return cmds
		},
	}
}

var reNVUEWaiting = regexp.MustCompile(`(?i)waiting for confirmation|seconds? (left|remaining)|rollback in`)

// reNVUERevID finds the revision nv config apply made ("applied [rev_id:
// 7]"), reNVUEWaitingRev the revision --confirm-status says waits.
var (
	reNVUERevID      = regexp.MustCompile(`rev_id:\s*(\d+)`)
	reNVUEWaitingRev = regexp.MustCompile(`(?i)revision\s+(\d+)\s+is waiting`)
)

// nvueLeftovers finds a pending revision and an apply waiting for
// confirmation.
func nvueLeftovers(conn *session.Conn, _ func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	diff, st, _, err := conn.Run("nv config diff")
	if err != nil {
		return l, fmt.Errorf("nv config diff: %w", err)
	}
	if st == 0 && strings.TrimSpace(diff) != "" {
		l.Foreign = append(l.Foreign, fmt.Sprintf("pending NVUE changes that are not ours (nv config diff shows %d lines: %s)", txn.CountLines(diff), txn.FirstLine(diff)))
	}
	cs, st, _, err := conn.Run("nv config apply --confirm-status")
	if err != nil {
		return l, fmt.Errorf("nv config apply --confirm-status: %w", err)
	}
	if st == 0 && reNVUEWaiting.MatchString(cs) {
		l.Timer = strings.TrimSpace(cs)
	}
	return l, nil
}

// nvue stages the nv set/unset commands in a pending revision, keeps `nv
// config diff`, applies with `nv config apply --confirm Ns -y`, verifies,
// and confirms with `nv config apply --confirm-yes`. Before the apply a
// failure detaches the pending revision; after it, `--confirm-no` rolls
// the revision back (and the switch would itself when the timer expires).
func nvue(a txn.Applier) txn.Outcome {
	run := a.Shell
	// ourRev is the revision our nv config apply made ("" until then,
	// or when the switch did not say).
	ourRev := ""
	undo := func(why, cmd string) txn.Outcome {
		a.Mark("rollback")
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: cmd}
			}
		}
		if cmd == "nv config apply --confirm-no" {
			// Read the state before acting: the switch may already have
			// rolled the revision back itself (its timer expired), and
			// --confirm-no undoes whichever apply waits, which must be
			// ours: someone may have confirmed ours and applied theirs.
			st, err := run("nv config apply --confirm-status")
			if err == nil && !reNVUEWaiting.MatchString(st) {
				return a.RolledBack(why + "; the apply was no longer waiting for confirmation (the switch rolled it back itself), so nothing was sent")
			}
			if m := reNVUEWaitingRev.FindStringSubmatch(st); err == nil && m != nil && ourRev != "" && m[1] != ourRev {
				return txn.Outcome{Status: txn.StatusFailed, Restore: a.RollbackCommand(),
					Reason: fmt.Sprintf("%s; the apply waiting for confirmation is revision %s, not ours (%s, confirmed by someone else): nv config apply --confirm-no would undo their change, so fabricgen sent nothing; the switch runs our change and theirs; once theirs is confirmed or rolled back, fabricgen rollback %s restores fabricgen's lines and keeps theirs",
						why, m[1], ourRev, a.Device())}
			}
		}
		if _, err := run(cmd); err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("%s; %s failed: %v", why, cmd, err), Restore: cmd}
		}
		return a.RolledBack(why)
	}
	// Each line is sent as the words it shows, re-quoted: a value is
	// never shell code (the change set was checked before anything was
	// sent; a line that does not parse here is refused all the same).
	var cmds []string
	for _, line := range a.Changes().Commands() {
		cmd, err := config.ShellWordsCommand(line, a.Dialect())
		if err != nil {
			return txn.Outcome{Status: txn.StatusRefused, Reason: fmt.Sprintf("refusing to send %q: %v; nothing was sent", line, err)}
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if _, err := run(cmd); err != nil {
			return undo(err.Error(), "nv config detach")
		}
	}
	diff, err := run("nv config diff")
	if err != nil {
		return undo("nv config diff: "+err.Error(), "nv config detach")
	}
	// The pending revision is shared: apply it only when it holds
	// nothing but our lines (someone may have started since inspect).
	if extra := foreignNVUE(diff, a.Changes().Commands()); extra != "" {
		out := undo("pending NVUE changes that are not ours appeared while staging: "+extra, "nv config detach")
		if out.Status == txn.StatusRolledBack {
			out.Status = txn.StatusRefused
			out.Reason = "pending NVUE changes that are not ours appeared while staging (" + extra + "); our staged lines were detached and nothing was applied"
		}
		return out
	}
	if why, err := a.ChangedSince(); err != nil {
		return undo(err.Error(), "nv config detach")
	} else if why != "" {
		// Someone applied a change since apply read the switch, maybe
		// to a line we manage: detach ours and keep theirs.
		a.Mark("rollback")
		if _, err := run("nv config detach"); err != nil {
			return undo(why, "nv config detach")
		}
		return a.RefusedForTheirs("the switch changed after apply read it (another change was applied meanwhile)", "our staged lines were detached before nv config apply")
	}
	secs := max(1, int(a.CommitTimer().Seconds()))
	// mayWait: nv config apply --confirm was sent and its answer lost:
	// the switch may have our apply waiting for confirmation, which an
	// undo that fails must say.
	mayWait := false
	undoWaiting := func(why string) txn.Outcome {
		out := undo(why, "nv config apply --confirm-no")
		if out.Status == txn.StatusFailed && mayWait {
			out.Reason += fmt.Sprintf("; the switch may have our apply waiting for confirmation (nv config apply --confirm %ds): NVUE rolls it back by itself when its confirm timer (%d s from the apply) expires unless it is confirmed; nv config apply --confirm-no on the switch rolls it back sooner, and nv config apply --confirm-status shows whether it still waits", secs, secs)
		}
		return out
	}
	a.Mark("commit")
	applied, err := run(fmt.Sprintf("nv config apply --confirm %ds -y", secs))
	if m := reNVUERevID.FindStringSubmatch(applied); m != nil {
		ourRev = m[1]
	}
	if err != nil {
		if a.Conn().Alive() {
			return undo("nv config apply: "+err.Error(), "nv config detach")
		}
		mayWait = true
		return undoWaiting("nv config apply: " + err.Error())
	}
	mayWait = true
	ok, left, err := a.Converged()
	if err != nil {
		return undoWaiting("verify after apply: " + err.Error())
	}
	if !ok {
		return undoWaiting(fmt.Sprintf("verify after apply: %d lines still differ from the rendered config", left))
	}
	a.Mark("confirm")
	done := txn.Outcome{Status: txn.StatusApplied, DeviceDiff: strings.TrimSpace(diff)}
	confirm := "the confirm (nv config apply --confirm-yes)"
	if _, err := run("nv config apply --confirm-yes"); err != nil {
		if !a.Conn().Alive() {
			return a.LostConfirm(done, confirm, nvueConfirmed(&ourRev), func() txn.Outcome { return undo("confirm: "+err.Error(), "nv config apply --confirm-no") })
		}
		return undo("confirm: "+err.Error(), "nv config apply --confirm-no")
	}
	return a.ProveApplied(done, confirm, nvueConfirmed(&ourRev))
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

// nvueConfirmed returns the proof for NVUE: no apply waits for
// confirmation and, when the switch named our revision, `nv config
// revision -o json` shows it applied (an expired one is confirm_fail).
func nvueConfirmed(rev *string) txn.Proof {
	return func(a txn.Applier) (bool, string, error) {
		st, err := a.Shell("nv config apply --confirm-status")
		if err != nil {
			return false, "", err
		}
		if reNVUEWaiting.MatchString(st) {
			return false, strings.TrimSpace(st), nil
		}
		if *rev == "" {
			return true, "", nil
		}
		out, err := a.Shell("nv config revision -o json")
		if err != nil {
			return false, "", err
		}
		var revs map[string]struct {
			State string `json:"state"`
		}
		if err := json.Unmarshal([]byte(txn.JSONPart(out)), &revs); err != nil {
			return false, "", fmt.Errorf("nv config revision -o json: unexpected output: %w", err)
		}
		r, ok := revs[*rev]
		switch {
		case !ok:
			return false, "revision " + *rev + " is not in nv config revision", nil
		case !strings.HasPrefix(r.State, "applied"):
			return false, "revision " + *rev + " is " + r.State, nil
		}
		return true, "", nil
	}
}
