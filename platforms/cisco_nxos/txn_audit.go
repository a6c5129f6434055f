package cisconxos

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// NX-OS takes a change line by line and has no lock: another administrator
// can change a line fabricgen manages while fabricgen's lines go in, and
// fabricgen's line for it would silently overwrite theirs (or theirs ours,
// after which the checkpoint rollback would erase it). The device's
// accounting log names every configuration command and the session that
// typed it (`show accounting log`, Cisco Nexus 9000 NX-OS Security
// Configuration Guide, "Configuring AAA": "type=update:id=…:user=…:cmd=…").
// fabricgen notes the log's last index before its checkpoint, and after
// the change (or before undoing it) reads what other sessions did since.
// When they changed a line fabricgen manages, fabricgen does not report
// applied, nor roll back blindly: it rolls back to its checkpoint, types
// their commands again in their order, checks that the device then has
// their lines and nothing of ours, and reports the device refused.

// nxosRecord is one configuration command of the accounting log.
type nxosRecord struct {
	id, user string
	// modes are the modes the command was typed in, line the command.
	modes []string
	line  string
	// managed: the line is one fabricgen manages.
	managed bool
}

// String prints the record as the log's command.
func (r nxosRecord) String() string {
	return strings.Join(append(append([]string{"configure terminal"}, r.modes...), r.line), " ; ")
}

var (
	reNXOSLastIndex = regexp.MustCompile(`last-index\s*:\s*(\d+)`)
	reNXOSAcct      = regexp.MustCompile(`^.*?:type=update:id=(.*?):user=([^:]*):cmd=(.*?)(?: \((SUCCESS|FAILURE)\))?\s*$`)
)

// nxosAuditMark reads the accounting log's last index.
func nxosAuditMark(a txn.Applier) (int, error) {
	out, err := a.Conn().Show("show accounting log last-index")
	if err != nil {
		return 0, fmt.Errorf("show accounting log last-index: %w", err)
	}
	m := reNXOSLastIndex.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("show accounting log last-index: unexpected output %q", txn.FirstLine(out))
	}
	return strconv.Atoi(m[1])
}

// nxosOthers reads the configuration commands other sessions typed after
// the accounting log's index mark (our session is the one that took our
// checkpoint), in order, each marked managed or not.
func nxosOthers(a txn.Applier, mark int) ([]nxosRecord, error) {
	out, err := a.Conn().Show(fmt.Sprintf("show accounting log start-seqnum %d", mark+1))
	if err != nil {
		return nil, fmt.Errorf("show accounting log: %w", err)
	}
	type raw struct{ id, user, cmd string }
	var recs []raw
	ours := ""
	for _, l := range strings.Split(out, "\n") {
		m := reNXOSAcct.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil || m[4] == "FAILURE" {
			continue
		}
		recs = append(recs, raw{m[1], m[2], m[3]})
		if ours == "" && m[3] == "checkpoint "+a.Txn() {
			ours = m[1]
		}
	}
	if ours == "" {
		return nil, fmt.Errorf("the accounting log has no record of our checkpoint %s", a.Txn())
	}
	scope := a.ScopeSource()
	var others []nxosRecord
	for i, r := range recs {
		rest, ok := strings.CutPrefix(r.cmd, "configure terminal ; ")
		if r.id == ours || !ok {
			continue
		}
		// A record that only entered a mode is followed by the commands
		// typed in it, which name it again.
		modeOnly := false
		for _, n := range recs[i+1:] {
			modeOnly = modeOnly || (n.id == r.id && strings.HasPrefix(n.cmd, r.cmd+" ; "))
		}
		if modeOnly {
			continue
		}
		parts := strings.Split(rest, " ; ")
		rec := nxosRecord{id: r.id, user: r.user, modes: parts[:len(parts)-1], line: parts[len(parts)-1]}
		var frag strings.Builder
		for d, p := range parts {
			frag.WriteString(strings.Repeat("  ", d) + p + "\n")
		}
		kept, err := config.UnmanagedSource(frag.String(), a.RenderedSource(), scope, a.Dialect())
		if err != nil {
			return nil, err
		}
		rec.managed = !hasLine(kept, rec.line)
		others = append(others, rec)
	}
	return others, nil
}

// hasLine reports whether text has a line that is line, trimmed.
func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == strings.TrimSpace(line) {
			return true
		}
	}
	return false
}

// anyManaged reports whether one of the records changed a managed line.
func anyManaged(recs []nxosRecord) bool {
	for _, r := range recs {
		if r.managed {
			return true
		}
	}
	return false
}

// summary names the managed records, the first few.
func nxosSummary(recs []nxosRecord) string {
	var s []string
	for _, r := range recs {
		if r.managed {
			s = append(s, fmt.Sprintf("%q by %s (%s)", r.String(), txn.SafeText(r.user), txn.SafeText(r.id)))
		}
	}
	more := ""
	if len(s) > 3 {
		s, more = s[:3], fmt.Sprintf(" and %d more", len(s)-3)
	}
	return strings.Join(s, "; ") + more
}

// nxosKeepTheirs undoes our change while keeping another administrator's
// commands: rollback to our checkpoint (the config before our change),
// their commands typed again in their order, then a check that every line
// fabricgen manages that differs from the backup is one of theirs.
func nxosKeepTheirs(a txn.Applier, why string, others []nxosRecord) txn.Outcome {
	name := a.Txn()
	a.Mark("rollback")
	restore := a.RollbackCommand()
	failed := func(what string) txn.Outcome {
		return txn.Outcome{Status: txn.StatusFailed, Restore: restore,
			Reason: fmt.Sprintf("%s; another administrator changed line(s) fabricgen manages during the change (accounting log: %s); %s; the device is NOT back to its backup plus their change", why, nxosSummary(others), what)}
	}
	if r, err := a.Conn().Command("rollback running-config checkpoint " + name); err != nil || r.Failed != nil {
		return failed("rollback running-config checkpoint " + name + " failed: " + txn.FirstErr(err, txn.Rejection(r)).Error())
	}
	for _, r := range others {
		lines := append(append([]string(nil), r.modes...), r.line)
		if err := config.CheckSendable(&config.ChangeSet{Blocks: []config.Block{{Lines: lines}}}, a.Dialect()); err != nil {
			return failed(fmt.Sprintf("their command %q cannot be typed again safely: %v", r.String(), err))
		}
		if _, rej, err := a.Conn().Configure(lines, ""); err != nil || rej != nil {
			return failed(fmt.Sprintf("typing their command %q again failed: %v", r.String(), txn.FirstErr(err, rej)))
		}
	}
	_, _ = a.Conn().Command("no checkpoint " + name)
	now, err := a.ReadNow()
	if err != nil {
		return failed("could not read the device back: " + err.Error())
	}
	cmp, err := config.CompareRestore(a.Device(), now, a.Before(), a.Rendered(), a.Dialect())
	if err != nil {
		return failed(err.Error())
	}
	// The diff runs from the device to its backup: a "-" line is on the
	// device only, a "+" line in the backup only (a value of theirs
	// replaced it).
	minus, plus := 0, 0
	for _, l := range strings.Split(cmp.Diff.Text, "\n") {
		switch {
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			minus++
			theirs := false
			for _, r := range others {
				theirs = theirs || strings.TrimSpace(l[1:]) == strings.TrimSpace(r.line)
			}
			if !theirs {
				return failed(fmt.Sprintf("after the rollback and their commands, %q is on the device and is not theirs", strings.TrimSpace(l[1:])))
			}
		case strings.HasPrefix(l, "+"):
			plus++
		}
	}
	if plus > len(others) {
		return failed(fmt.Sprintf("after the rollback and their commands, %d line(s) of the backup are missing, more than their %d command(s) replace", plus, len(others)))
	}
	return txn.Outcome{Status: txn.StatusRefused,
		Reason: fmt.Sprintf("%s; another administrator changed line(s) fabricgen manages while fabricgen's change went in (accounting log: %s), which fabricgen would have overwritten or a rollback erased: fabricgen rolled back to checkpoint %s and typed their %d command(s) again, so nothing of this apply is on the device and their change is kept: run fabricgen plan again",
			why, nxosSummary(others), name, len(others))}
}
