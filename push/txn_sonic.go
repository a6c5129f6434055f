package push

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/push/config"
)

// patchChunk bounds one shell line writing the patch file, so no line is
// longer than a terminal comfortably echoes.
const patchChunk = 384

// sonicGCU takes a config checkpoint, writes the JSON Patch to a file on
// the switch, applies it with `config apply-patch` (which validates it
// against SONiC's YANG models), verifies, and rolls back to the checkpoint
// on any failure.
func (a *applier) sonicGCU() outcome {
	name := a.txnName()
	file := "/tmp/" + name + ".json-patch"
	run := a.shell
	cleanup := func() {
		_, _ = run("sudo config delete-checkpoint " + name)
		_, _ = run("rm -f " + file)
	}
	if _, err := run("sudo config checkpoint " + name); err != nil {
		return outcome{status: StatusFailed, reason: fmt.Sprintf("config checkpoint %s (nothing was changed): %v", name, err)}
	}
	rollback := func(why string) outcome {
		a.opts.emit(a.pd.Name, "rollback", false)
		if !a.conn.Alive() {
			if err := a.reconnect(); err != nil {
				return outcome{status: StatusFailed, reason: why + "; " + err.Error() + "; roll back by hand: sudo config rollback " + name}
			}
		}
		if _, err := run("sudo config rollback " + name); err != nil {
			return outcome{status: StatusFailed, reason: fmt.Sprintf("%s; config rollback %s failed: %v", why, name, err)}
		}
		out := a.rolledBack(why)
		cleanup()
		return out
	}
	patch := config.PatchDocument(a.pd.Changes)
	redirect := ">"
	for len(patch) > 0 {
		n := min(patchChunk, len(patch))
		chunk := strings.ReplaceAll(patch[:n], "'", `'\''`)
		if _, err := run(fmt.Sprintf("printf '%%s' '%s' %s %s", chunk, redirect, file)); err != nil {
			return rollback("write the patch file: " + err.Error())
		}
		patch, redirect = patch[n:], ">>"
	}
	a.opts.emit(a.pd.Name, "commit", false)
	out, err := run("sudo config apply-patch " + file)
	if err != nil {
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
