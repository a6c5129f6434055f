package push

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// gcuTxn is SONiC's generic config updater with a config checkpoint.
func gcuTxn() transaction {
	return transaction{
		kind:      dialect.TxnGCU,
		run:       (*applier).sonicGCU,
		named:     true,
		leftovers: gcuLeftovers,
		nameNote: func(n string) string {
			return fmt.Sprintf("fabricgen checkpoint %s is on the device: another fabricgen run is changing it, or a killed run left it mid-change (restore it with: sudo config rollback %s, then: sudo config delete-checkpoint %s)", n, n, n)
		},
		remove:         func(conn *session.Conn, name string) { _, _, _, _ = conn.Run("sudo config delete-checkpoint " + name) },
		removeRestored: true,
		interrupted: func(in stopped) (string, string) {
			return "stopped at step " + in.step + ": the JSON patch may be partly or fully applied; checkpoint " + in.name + " holds the config from before it", "sudo config rollback " + in.name + " (then: sudo config delete-checkpoint " + in.name + ")"
		},
	}
}

// gcuLeftovers lists fabricgen's config checkpoints other than ours.
func gcuLeftovers(conn *session.Conn, isOurs func(string) bool) (leftovers, error) {
	var l leftovers
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
func (a *applier) sonicGCU() outcome {
	name := a.txn
	run := a.shell
	// The patch file goes into a private directory made for this run
	// (mktemp -d), never a predictable /tmp name.
	tmpdir, err := run("mktemp -d /tmp/fabricgen.XXXXXXXXXX")
	tmpdir = strings.TrimSpace(tmpdir)
	if err != nil || !reTmpDir.MatchString(tmpdir) {
		return outcome{status: StatusFailed, reason: fmt.Sprintf("make a private directory for the patch (nothing was changed): %v %q", err, tmpdir)}
	}
	file := tmpdir + "/patch.json"
	cleanup := func() {
		_, _ = run("sudo config delete-checkpoint " + name)
		_, _ = run("rm -rf " + tmpdir)
	}
	if _, err := run("sudo config checkpoint " + name); err != nil {
		_, _ = run("rm -rf " + tmpdir)
		return outcome{status: StatusFailed, reason: fmt.Sprintf("config checkpoint %s (nothing was changed): %v", name, err)}
	}
	if busy, err := inspect(a.conn, a.dl, name, a.ignore); err != nil || busy != "" {
		cleanup()
		if busy == "" { // the device could not be read: not a refusal, and our checkpoint may be left (the record stays, so the next run removes it)
			return outcome{status: StatusFailed, reason: fmt.Sprintf("look for other runs' checkpoints: %v; nothing was changed", err)}
		}
		return outcome{status: StatusRefused, reason: busy + "; nothing was changed"}
	}
	if why, err := a.changedSince(); err != nil || why != "" {
		cleanup()
		if err != nil {
			return outcome{status: StatusFailed, reason: "re-read the device before the patch (nothing was changed): " + err.Error()}
		}
		return outcome{status: StatusRefused, reason: why}
	}
	// writePatch writes a JSON Patch into the run's file, in short
	// chunks.
	writePatch := func(patch string) error {
		redirect := ">"
		for len(patch) > 0 {
			n := min(patchChunk, len(patch))
			chunk := strings.ReplaceAll(patch[:n], "'", `'\''`)
			if _, err := a.shell(fmt.Sprintf("printf '%%s' '%s' %s %s", chunk, redirect, file)); err != nil {
				return fmt.Errorf("write the patch file: %w", err)
			}
			patch, redirect = patch[n:], ">>"
		}
		return nil
	}
	rollback := func(why string) outcome {
		a.mark("rollback")
		restore := "sudo config rollback " + name
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error(), restore: restore}
			}
		}
		// config rollback replaces the whole CONFIG_DB with the
		// checkpoint: someone else's change since would go with ours,
		// to a field our patch sets too (after the patch went in, before
		// verify) as well as to one it does not.
		if now, err := a.readNow(); err == nil {
			if their, undo, err := config.PatchTheirs(a.changes, a.before, now); err == nil && len(their) > 0 {
				out := a.sonicKeepTheirs(why, their, undo, func(cs *config.ChangeSet) error {
					if err := writePatch(config.PatchDocument(cs)); err != nil {
						return err
					}
					_, err := a.shell("sudo config apply-patch " + file)
					return err
				})
				if out.status != StatusFailed {
					cleanup()
				}
				return out
			}
		}
		th, err := a.othersSince()
		if err != nil {
			return outcome{status: StatusFailed, reason: why + "; re-read the device before rolling back: " + err.Error(), restore: restore}
		}
		if th.some() {
			out := a.keepTheirs(why, th, restore, func(cs *config.ChangeSet) error {
				if err := writePatch(config.PatchDocument(cs)); err != nil {
					return err
				}
				_, err := a.shell("sudo config apply-patch " + file)
				return err
			})
			if out.status == StatusRolledBack {
				cleanup()
			}
			return out
		}
		if _, err := run(restore); err != nil {
			return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; config rollback %s failed: %v", why, name, err), restore: restore}
		}
		out := a.rolledBack(why)
		cleanup()
		return out
	}
	// The patch tests every key it changes against the CONFIG_DB apply
	// read: a key someone changed since (a field we manage too) makes
	// config apply-patch refuse the whole patch rather than overwrite
	// their change.
	guarded, err := config.GuardedPatchDocument(a.changes, a.before)
	if err != nil {
		return rollback("build the patch: " + err.Error())
	}
	if err := writePatch(guarded); err != nil {
		return rollback(err.Error())
	}
	a.mark("commit")
	out, err := run("sudo config apply-patch " + file)
	if err != nil {
		if why := a.patchRefusedForTheirs(); why != "" {
			cleanup()
			return a.refusedForTheirs(why, "config apply-patch refused the whole patch (it tests every key it changes), so none of it was applied")
		}
		return rollback("config apply-patch: " + err.Error())
	}
	ok, left, err := a.converged()
	if err != nil {
		return rollback("verify: " + err.Error())
	}
	if !ok {
		return rollback(fmt.Sprintf("verify: %d fields still differ from the rendered config", left))
	}
	cleanup()
	return outcome{status: StatusApplied, deviceDiff: strings.TrimSpace(out)}
}

// patchRefusedForTheirs says, after config apply-patch failed, whether the
// CONFIG_DB changed since apply read it while none of our operations took
// effect: someone else's change made the patch's tests fail ("" when not,
// or when the switch cannot be read: the rollback then decides).
func (a *applier) patchRefusedForTheirs() string {
	if !a.conn.Alive() {
		return ""
	}
	now, err := a.readNow()
	if err != nil || config.Digest(now, a.dl) == config.Digest(a.before, a.dl) {
		return ""
	}
	if took, err := config.PatchTookEffect(a.changes, a.before, now); err != nil || took {
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
func (a *applier) sonicKeepTheirs(why string, their []string, undo *config.ChangeSet, send func(cs *config.ChangeSet) error) outcome {
	restore := a.opts.rollbackCommand(a.pd.Name)
	summary := strings.Join(their, "; ")
	if len(their) > 3 {
		summary = strings.Join(their[:3], "; ") + fmt.Sprintf(" (and %d more)", len(their)-3)
	}
	failed := func(what string) outcome {
		return outcome{status: StatusFailed, restore: restore,
			reason: fmt.Sprintf("%s; another administrator changed %d CONFIG_DB field(s) after fabricgen's patch went in (%s); config rollback %s would erase them, so fabricgen did not run it; %s; the device is NOT back to its backup plus their change: %s restores fabricgen's sections",
				why, len(their), summary, a.txn, what, restore)}
	}
	if !undo.Empty() {
		if err := send(undo); err != nil {
			return failed("putting back fabricgen's fields failed: " + err.Error())
		}
	}
	if !a.conn.Alive() {
		if err := a.reconnect(); err != nil {
			return failed("could not check the undo: " + err.Error())
		}
	}
	now, err := a.readNow()
	if err != nil {
		return failed("could not check the undo: " + err.Error())
	}
	after, left, err := config.PatchTheirs(a.changes, a.before, now)
	switch {
	case err != nil:
		return failed("could not check the undo: " + err.Error())
	case !left.Empty():
		return failed(fmt.Sprintf("after the undo %d field(s) still hold fabricgen's value", len(left.Commands())))
	case strings.Join(after, "\n") != strings.Join(their, "\n"):
		return failed("their fields changed while fabricgen put back its own")
	}
	return outcome{status: StatusRefused,
		reason: fmt.Sprintf("%s; another administrator changed %d CONFIG_DB field(s) after fabricgen's patch went in (%s), which config rollback %s would have erased: fabricgen put back only the fields its patch set, so nothing of this apply is on the device and their change is kept: run fabricgen plan again",
			why, len(their), summary, a.txn)}
}
