package sonic

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

// transaction is SONiC's generic config updater with a config checkpoint.
func transaction() txn.Transaction {
	return txn.Transaction{
		Kind:      pushdialect.TxnGCU,
		Run:       sonicGCU,
		Named:     true,
		Leftovers: gcuLeftovers,
		NameNote: func(n string) string {
			return fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: sudo config rollback %s, then: sudo config delete-checkpoint %s)", n, n, n)
		},
		Remove:         func(conn *session.Conn, name string) { _, _, _, _ = conn.Run("sudo config delete-checkpoint " + name) },
		RemoveRestored: true,
		Interrupted: func(in txn.Stopped) (string, string) {
			return "stopped at step " + in.Step + ": the JSON patch may be partly or fully applied; checkpoint " + in.Name + " holds the config from before it", "sudo config rollback " + in.Name + " (then: sudo config delete-checkpoint " + in.Name + ")"
		},
	}
}

// gcuLeftovers lists fabricgen's config checkpoints other than ours.
func gcuLeftovers(conn *session.Conn, isOurs func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	out, st, _, err := conn.Run("sudo config list-checkpoints")
	if err != nil {
		return l, fmt.Errorf("config list-checkpoints: %w", err)
	}
	if st != 0 {
		return l, fmt.Errorf("config list-checkpoints exited %d: %s", st, strings.TrimSpace(out))
	}
	var names []string
	if err := json.Unmarshal([]byte(txn.JSONPart(out)), &names); err != nil {
		return l, fmt.Errorf("config list-checkpoints: unexpected output %q: %w", txn.FirstLine(out), err)
	}
	for _, n := range names {
		if !isOurs(n) && strings.HasPrefix(n, state.RunPrefix) {
			l.Names = append(l.Names, n)
		}
	}
	return l, nil
}

// reTmpDir is what mktemp -d must print: a fresh directory under /tmp
// with only safe characters, so it can be used unquoted.
var reTmpDir = regexp.MustCompile(`^/tmp/fabricgen\.[A-Za-z0-9]{6,}$`)

// patchChunk bounds one shell line writing the patch file, so no line is
// longer than a terminal comfortably echoes.
const patchChunk = 384

// sonicGCU takes a config checkpoint, writes the JSON Patch to a file on
// the switch, applies it with `config apply-patch` (which validates it
// against SONiC's YANG models), verifies, and rolls back to the checkpoint
// on any failure.
func sonicGCU(a txn.Applier) txn.Outcome {
	name := a.Txn()
	run := a.Shell
	// The patch file goes into a private directory made for this run
	// (mktemp -d), never a predictable /tmp name.
	tmpdir, err := run("mktemp -d /tmp/fabricgen.XXXXXXXXXX")
	tmpdir = strings.TrimSpace(tmpdir)
	if err != nil || !reTmpDir.MatchString(tmpdir) {
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("make a private directory for the patch (nothing was changed): %v %q", err, tmpdir)}
	}
	file := tmpdir + "/patch.json"
	cleanup := func() {
		_, _ = run("sudo config delete-checkpoint " + name)
		_, _ = run("rm -rf " + tmpdir)
	}
	if _, err := run("sudo config checkpoint " + name); err != nil {
		_, _ = run("rm -rf " + tmpdir)
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("config checkpoint %s (nothing was changed): %v", name, err)}
	}
	if busy, err := a.Inspect(name, a.Ignore()); err != nil || busy != "" {
		cleanup()
		if busy == "" { // the device could not be read: not a refusal, and our checkpoint may be left (the record stays, so the next run removes it)
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("look for other runs' checkpoints: %v; nothing was changed", err)}
		}
		return txn.Outcome{Status: txn.StatusRefused, Reason: busy + "; nothing was changed"}
	}
	if why, err := a.ChangedSince(); err != nil || why != "" {
		cleanup()
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: "re-read the device before the patch (nothing was changed): " + err.Error()}
		}
		return txn.Outcome{Status: txn.StatusRefused, Reason: why}
	}
	// writePatch writes a JSON Patch into the run's file, in short
	// chunks.
	writePatch := func(patch string) error {
		redirect := ">"
		for len(patch) > 0 {
			n := min(patchChunk, len(patch))
			chunk := strings.ReplaceAll(patch[:n], "'", `'\''`)
			if _, err := a.Shell(fmt.Sprintf("printf '%%s' '%s' %s %s", chunk, redirect, file)); err != nil {
				return fmt.Errorf("write the patch file: %w", err)
			}
			patch, redirect = patch[n:], ">>"
		}
		return nil
	}
	rollback := func(why string) txn.Outcome {
		a.Mark("rollback")
		restore := "sudo config rollback " + name
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
			}
		}
		// config rollback replaces the whole CONFIG_DB with the
		// checkpoint: someone else's change since would go with ours,
		// to a field our patch sets too (after the patch went in, before
		// verify) as well as to one it does not.
		if now, err := a.ReadNow(); err == nil {
			if their, undo, err := config.PatchTheirs(a.Changes(), a.Before(), now, a.Dialect().Derived...); err == nil && len(their) > 0 {
				out := sonicKeepTheirs(a, why, their, undo, func(cs *config.ChangeSet) error {
					if err := writePatch(config.PatchDocument(cs)); err != nil {
						return err
					}
					_, err := a.Shell("sudo config apply-patch " + file)
					return err
				})
				if out.Status != txn.StatusFailed {
					cleanup()
				}
				return out
			}
		}
		th, err := a.OthersSince()
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; re-read the device before rolling back: " + err.Error(), Restore: restore}
		}
		if th.Some() {
			out := a.KeepTheirs(why, th, restore, func(cs *config.ChangeSet) error {
				if err := writePatch(config.PatchDocument(cs)); err != nil {
					return err
				}
				_, err := a.Shell("sudo config apply-patch " + file)
				return err
			})
			if out.Status == txn.StatusRolledBack {
				cleanup()
			}
			return out
		}
		if _, err := run(restore); err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("%s; config rollback %s failed: %v", why, name, err), Restore: restore}
		}
		out := a.RolledBack(why)
		cleanup()
		return out
	}
	// The patch tests every key it changes against the CONFIG_DB apply
	// read: a key someone changed since (a field we manage too) makes
	// config apply-patch refuse the whole patch rather than overwrite
	// their change.
	guarded, err := config.GuardedPatchDocument(a.Changes(), a.Before())
	if err != nil {
		return rollback("build the patch: " + err.Error())
	}
	if err := writePatch(guarded); err != nil {
		return rollback(err.Error())
	}
	a.Mark("commit")
	out, err := run("sudo config apply-patch " + file)
	if err != nil {
		if why := patchRefusedForTheirs(a); why != "" {
			cleanup()
			return a.RefusedForTheirs(why, "config apply-patch refused the whole patch (it tests every key it changes), so none of it was applied")
		}
		return rollback("config apply-patch: " + err.Error())
	}
	ok, left, err := a.Converged()
	if err != nil {
		return rollback("verify: " + err.Error())
	}
	if !ok {
		return rollback(fmt.Sprintf("verify: %d fields still differ from the rendered config", left))
	}
	cleanup()
	return txn.Outcome{Status: txn.StatusApplied, DeviceDiff: strings.TrimSpace(out)}
}

// patchRefusedForTheirs says, after config apply-patch failed, whether the
// CONFIG_DB changed since apply read it while none of our operations took
// effect: someone else's change made the patch's tests fail ("" when not,
// or when the switch cannot be read: the rollback then decides).
func patchRefusedForTheirs(a txn.Applier) string {
	if !a.Conn().Alive() {
		return ""
	}
	now, err := a.ReadNow()
	if err != nil || config.Digest(now, a.Dialect()) == config.Digest(a.Before(), a.Dialect()) {
		return ""
	}
	if took, err := config.PatchTookEffect(a.Changes(), a.Before(), now); err != nil || took {
		return ""
	}
	return "the CONFIG_DB changed after apply read it (another administrator's change to a key our patch changes)"
}

// sonicKeepTheirs undoes our patch while keeping another administrator's
// change to the CONFIG_DB made after it went in (their fields: what
// config.PatchTheirs found): instead of config rollback to our checkpoint,
// which would erase theirs, it puts back only the fields that hold our
// value, with send, then reads the CONFIG_DB again and checks that
// nothing of ours is left and their fields are as they were.
func sonicKeepTheirs(a txn.Applier, why string, their []string, undo *config.ChangeSet, send func(cs *config.ChangeSet) error) txn.Outcome {
	restore := a.RollbackCommand()
	summary := strings.Join(their, "; ")
	if len(their) > 3 {
		summary = strings.Join(their[:3], "; ") + fmt.Sprintf(" (and %d more)", len(their)-3)
	}
	failed := func(what string) txn.Outcome {
		return txn.Outcome{Status: txn.StatusFailed, Restore: restore,
			Reason: fmt.Sprintf("%s; another administrator changed %d CONFIG_DB field(s) after fabricgen's patch went in (%s); config rollback %s would erase them, so fabricgen did not run it; %s; the device is NOT back to its backup plus their change: %s restores fabricgen's sections",
				why, len(their), summary, a.Txn(), what, restore)}
	}
	if !undo.Empty() {
		if err := send(undo); err != nil {
			return failed("putting back fabricgen's fields failed: " + err.Error())
		}
	}
	if !a.Conn().Alive() {
		if err := a.Reconnect(); err != nil {
			return failed("could not check the undo: " + err.Error())
		}
	}
	now, err := a.ReadNow()
	if err != nil {
		return failed("could not check the undo: " + err.Error())
	}
	after, left, err := config.PatchTheirs(a.Changes(), a.Before(), now, a.Dialect().Derived...)
	switch {
	case err != nil:
		return failed("could not check the undo: " + err.Error())
	case !left.Empty():
		return failed(fmt.Sprintf("after the undo %d field(s) still hold fabricgen's value", len(left.Commands())))
	case strings.Join(after, "\n") != strings.Join(their, "\n"):
		return failed("their fields changed while fabricgen put back its own")
	}
	return txn.Outcome{Status: txn.StatusRefused,
		Reason: fmt.Sprintf("%s; another administrator changed %d CONFIG_DB field(s) after fabricgen's patch went in (%s), which config rollback %s would have erased: fabricgen put back only the fields its patch set, so nothing of this apply is on the device and their change is kept: run fabricgen plan again",
			why, len(their), summary, a.Txn())}
}
