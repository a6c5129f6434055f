package push

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/state"
)

// A rollback is fabricgen's own work: once a device is restored, its
// last-applied record says what the restore left, read back from the
// device, so drift does not report the restore as drift and plan does
// not count the restored lines as someone else's.
//
// The record is, in order:
//   - the last-applied record the device had when the backup was taken
//     (kept beside the backup, state.Dir.BackupApplied), when the device
//     read back now bears every line of it out: the restore put back
//     exactly what that apply left. An edited or unsigned record under
//     FABRICGEN_PLAN_KEY is refused; without a key one that claims a
//     line the device lacks is not used;
//   - else, on a switch whose configuration is text, the managed
//     sections of the device read back now (the backup held lines no
//     apply recorded, such as a hand edit the apply had repaired);
//   - no record when the backup was taken before fabricgen first applied
//     the device (the device is as it was before fabricgen), or when
//     neither of the above holds (a host or SONiC CONFIG_DB device
//     whose state does not match the backup's record): drift reports it
//     pending, never applied, and plan lists its lines as taken over.

// recordRestore writes the device's last-applied record after it was
// restored to backup within scope (see above) and returns a note for the
// result's reason ("" when the record is the backup's own).
func (a *applier) recordRestore(t RollbackTarget, backup, scope string) string {
	st, d := a.opts.State, t.Device
	br, err := st.BackupApplied(d.Name, t.Backup)
	why := ""
	switch {
	case err != nil:
		why = fmt.Sprintf(" (the record kept beside the backup was not used: %v)", err)
	case br.Known && br.Applied == nil:
		if err := st.ClearApplied(d.Name); err != nil {
			return "; " + err.Error()
		}
		return "; the backup was taken before fabricgen first applied the device, so it has no last-applied record now: drift reports it pending until the next apply"
	case br.Applied != nil && br.Applied.Platform == string(d.Platform.V):
		if sum, ok := a.bearsOut(br.Applied); ok {
			rec := *br.Applied
			rec.Run, rec.Time, rec.RunningSHA256, rec.Signature = a.opts.RunID, a.opts.Now().UTC(), sum, ""
			if err := st.WriteApplied(rec); err != nil {
				return "; could not record the restore: " + err.Error()
			}
			return ""
		}
	}
	if a.dl.Host || a.dl.ConfigDB || a.dl.Files {
		if err := st.ClearApplied(d.Name); err != nil {
			return "; " + err.Error()
		}
		return "; the device read back does not hold what fabricgen had applied when the backup was taken, so it has no last-applied record now: drift reports it pending until the next apply" + why
	}
	now, err := fetch(a.conn, a.dl, "")
	if err == nil {
		var cmp *config.Comparison
		if cmp, err = config.CompareRestore(d.Name, now, backup, scope, a.dl); err == nil && cmp.Changes.Empty() {
			err = st.WriteApplied(state.Applied{Device: d.Name, Platform: string(d.Platform.V), Run: a.opts.RunID,
				Time: a.opts.Now().UTC(), Rendered: cmp.Running, RunningSHA256: config.Digest(now, a.dl)})
			if err == nil {
				return "; recorded the restored managed sections, read back from the device, as fabricgen's last-applied config" + why
			}
		} else if err == nil {
			err = fmt.Errorf("the managed sections read back differ from the backup")
		}
	}
	_ = st.ClearApplied(d.Name)
	return "; could not record the restore (" + err.Error() + "): the last-applied record was removed, so drift reports the device pending until the next apply" + why
}

// bearsOut reads the device back with the record's script and reports
// whether it holds every managed line of the record, with the digest of
// what was read.
func (a *applier) bearsOut(rec *state.Applied) (string, bool) {
	now, err := fetch(a.conn, a.dl, rec.ReadScript())
	if err != nil {
		return "", false
	}
	cmp, err := config.CompareScoped(a.pd.Name, now, rec.Rendered, "", a.dl)
	if err != nil || !cmp.Changes.Empty() {
		return "", false
	}
	return config.Digest(now, a.dl), true
}
