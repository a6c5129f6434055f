package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
)

func newRollbackCommand(s *streams) *cobra.Command {
	var pf pushFlags
	var sf stateFlags
	var fabric, to string
	var autoApprove bool
	cmd := &cobra.Command{
		Use:   "rollback [DIR] DEVICE...",
		Short: "Restore devices to a backup taken before a change",
		Long: `rollback restores each DEVICE (a name or a glob of the fabric in DIR,
default ".") to a backup apply saved before changing it: by default the
backup of the run an interrupted apply left behind (its in-flight record),
else the newest backup apply saved in DIR/.fabricgen/backups (so running
rollback twice changes nothing the second time); --to FILE picks one (with
a single device), such as the TIME.before-rollback.cfg a rollback saves
to undo itself.

DIR or DEVICE: the first argument is the fabric directory DIR when more
arguments follow it and it is a directory holding *.fab.hcl files;
otherwise every argument is a device. A single argument is always a
device. --fabric DIR (kept as an alias) names the directory outright, and
then every argument is a device: "rollback --fabric fabric spine" rolls
back a device named like a directory. "rollback . spine" does too.

It restores what fabricgen manages — the sections the backup has and the
ones the applied config added (an ACL apply created is removed) — and
never touches other lines, so other administrators' changes since the
backup stay. A run an interrupted apply left pending on the device is
removed first (its EOS session aborted, its NVUE confirm refused). The
change goes through the platform's transaction, like apply, and is
verified; a failure puts the device back as it was before the rollback.

A rollback is fabricgen's own work: the device's last-applied record
(DIR/.fabricgen/applied) then says what the restore left, read back from
the device, so drift does not report it and plan does not take it over
(docs/push.md, "Rollback").

rollback shows what it would do and asks for "yes" unless -auto-approve.
It takes the fabric's lock like apply.

Exit status: 0 every device restored (or already at its backup), 1 otherwise.`,
		Example: `  fabricgen rollback leaf1
  fabricgen rollback fabric/ 'leaf*' -auto-approve
  fabricgen rollback leaf1 --to fabric/.fabricgen/backups/leaf1/20261201T101500.000000000Z.cfg`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := sf.check(); err != nil {
				return withCode(exitFailed, err)
			}
			opts, err := pf.options(cmd, s)
			if err != nil {
				return withCode(exitFailed, err)
			}
			dir, args := rollbackArgs(args, fabric, cmd.Flags().Changed("fabric"))
			f, _, err := loadFabric(cmd, s, dir, &pf.vf)
			if err != nil {
				return err
			}
			devs, err := push.SelectDevices(f, args)
			if err != nil {
				return withCode(exitFailed, err)
			}
			devs = pushedOnly(f, devs)
			if to != "" && len(devs) != 1 {
				return withCode(exitFailed, fmt.Errorf("--to names one backup file: give exactly one device (got %d)", len(devs)))
			}
			st := sf.stateDir(s, f)
			lock, err := sf.lock(cmd, st, "fabricgen rollback "+strings.Join(args, " "))
			if err != nil {
				return err
			}
			defer func() { _ = lock.Release() }()
			targets, err := rollbackTargets(cmd, f, devs, st, to, &pf)
			if err != nil {
				return err
			}
			opts.State = st
			w := cmd.OutOrStdout()
			previews, err := push.PreviewRollback(cmd.Context(), targets, opts)
			if err != nil {
				return withCode(exitFailed, err)
			}
			todo := writeRollbackPreview(w, previews)
			for _, p := range previews {
				if p.Error != "" {
					return withCode(exitFailed, fmt.Errorf("%s: %s", p.Device, p.Error))
				}
			}
			if todo == 0 {
				fmt.Fprintln(w, "\nNothing to restore: every device's managed sections match its backup.")
			}
			if todo > 0 && !autoApprove {
				ok, err := confirm(cmd, s, "Do you want to restore these devices?")
				if err != nil {
					return withCode(exitFailed, err)
				}
				if !ok {
					return withCode(exitFailed, fmt.Errorf("rollback cancelled: nothing was changed"))
				}
			}
			prog := newProgress(cmd, s, len(targets))
			opts.Events = prog.event
			aopts := sf.applyOptions(cmd, s, opts, st)
			results, err := push.Rollback(cmd.Context(), targets, previews, aopts)
			prog.wait()
			if err != nil && results == nil {
				return withCode(exitFailed, err)
			}
			return writeResults(w, "Rollback", results, err)
		},
	}
	pf.register(cmd)
	pf.registerTrust(cmd)
	sf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&fabric, "fabric", ".", "the fabric directory, as DIR (its state directory holds the backups); with it every argument is a device")
	fl.StringVar(&to, "to", "", "the backup file to restore (default: the interrupted run's backup, else the newest)")
	fl.BoolVar(&autoApprove, "auto-approve", false, "do not ask for confirmation")
	return cmd
}

// rollbackArgs splits rollback's arguments into the fabric directory and
// the devices: with --fabric (fabricSet) every argument is a device;
// otherwise the first is DIR when more follow it and it is a directory
// holding *.fab.hcl files (isFabricDir). A single argument is a device.
func rollbackArgs(args []string, fabric string, fabricSet bool) (string, []string) {
	if !fabricSet && len(args) > 1 && isFabricDir(args[0]) {
		return args[0], args[1:]
	}
	return fabric, args
}

// isFabricDir reports whether path is a directory holding *.fab.hcl
// files: rollback's first argument is then DIR, not a device.
func isFabricDir(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return false
	}
	m, err := filepath.Glob(filepath.Join(path, "*.fab.hcl"))
	return err == nil && len(m) > 0
}

// followUp are the flags of a push command that a command it prints
// (the rollback an interrupted apply names) needs again to work as
// printed: variables, inventory, known_hosts, host-key policy and
// templates, each shell-quoted.
func (pf *pushFlags) followUp() []string {
	out := pf.varFlags()
	if pf.inventory != "" {
		out = append(out, "--inventory", shellWord(pf.inventory))
	}
	for _, k := range pf.knownHosts {
		out = append(out, "--known-hosts", shellWord(k))
	}
	if pf.insecure {
		out = append(out, "--insecure-ignore-host-key")
	}
	if pf.templates != "" {
		out = append(out, "--templates", shellWord(pf.templates))
	}
	return out
}

// varFlags are the -var and -var-file flags given, shell-quoted: what
// any command printed for the same intent needs to load it the same way.
func (pf *pushFlags) varFlags() []string {
	var out []string
	for _, v := range pf.vf.vars {
		out = append(out, "-var", shellWord(v))
	}
	for _, v := range pf.vf.varFiles {
		out = append(out, "-var-file", shellWord(v))
	}
	return out
}

// rollbackTargets picks each device's backup and the config applied since
// it: the in-flight record's, else the last-applied record's, else the
// intent rendered now.
func rollbackTargets(cmd *cobra.Command, f *schema.Fabric, devs []*schema.Device, st state.Dir, to string, pf *pushFlags) ([]push.RollbackTarget, error) {
	var need []*schema.Device
	targets := make([]push.RollbackTarget, len(devs))
	for i, d := range devs {
		t := push.RollbackTarget{Device: d, Backup: to, TrustRecords: pf.trustRecords}
		rec, err := st.InFlight(d.Name)
		if err != nil {
			return nil, withCode(exitFailed, err)
		}
		if rec != nil {
			t.Scope, t.ScopeVerified = rec.ReadScript(), rec.Verified
			if t.Backup == "" {
				t.Backup = rec.Backup
				if _, err := os.Lstat(rec.Backup); err != nil {
					return nil, withCode(exitFailed, fmt.Errorf("%s: the interrupted run's record names backup %s, which is not in %s (fabricgen reads a record's backup only from the state directory's backups or --backup-dir): pass --backup-dir with the folder that run saved it in, or --to FILE: %w", d.Name, rec.RecordedBackup, filepath.Dir(rec.Backup), err))
				}
			}
		}
		if t.Backup == "" {
			bs, err := st.Backups(d.Name)
			if err != nil {
				return nil, withCode(exitFailed, err)
			}
			for i := len(bs) - 1; i >= 0 && t.Backup == ""; i-- {
				if !bs[i].BeforeRollback {
					t.Backup = bs[i].Path
				}
			}
			if t.Backup == "" {
				return nil, withCode(exitFailed, fmt.Errorf("%s: no backup in %s: fabricgen apply saves one before every change; pass --to FILE for another", d.Name, st.Path))
			}
		}
		if t.Scope == "" {
			if a, err := st.Applied(d.Name); err != nil {
				return nil, withCode(exitFailed, err)
			} else if a != nil {
				t.Scope, t.ScopeVerified = a.ReadScript(), a.Verified
			}
		}
		if t.Scope == "" {
			need = append(need, d)
		}
		targets[i] = t
	}
	if len(need) == 0 && pf.trustRecords {
		return targets, nil
	}
	// Without --trust-records, an unsigned record's claims are
	// re-derived from the intent rendered now (push.RollbackTarget.Intent);
	// a device that does not render falls back to its backup, which
	// holds back more, never less.
	lenient := *pf
	lenient.skipUnrenderable = len(need) == 0
	run, err := renderDevices(cmd.Context(), f, devs, &lenient)
	if err != nil && len(need) > 0 {
		// Render only what must be, as before: the devices without a
		// record.
		if run, err = renderDevices(cmd.Context(), f, need, pf); err != nil {
			return nil, err
		}
	}
	rendered := map[string]string{}
	if run != nil {
		for _, in := range run.inputs {
			rendered[in.Device.Name] = string(in.Rendered)
		}
	}
	for i := range targets {
		targets[i].Intent = rendered[targets[i].Device.Name]
	}
	for i := range targets {
		if targets[i].Scope == "" {
			targets[i].ScopeVerified = true // derived from the intent
			if targets[i].Scope = rendered[targets[i].Device.Name]; targets[i].Scope == "" {
				return nil, withCode(exitFailed, fmt.Errorf("%s: plan and apply do not support platform %s", targets[i].Device.Name, targets[i].Device.Platform.V))
			}
		}
	}
	return targets, nil
}

// writeRollbackPreview prints what each device's restore would do and
// returns the number of devices with something to do.
func writeRollbackPreview(w io.Writer, ps []*push.RollbackPreview) int {
	todo := 0
	for _, p := range ps {
		for _, k := range p.Kept {
			fmt.Fprintf(w, "%s: kept: %s — only an unsigned record in .fabricgen says fabricgen made it; set FABRICGEN_PLAN_KEY so fabricgen signs its records, remove it by hand, or pass --trust-records after reviewing the record (git log -p .fabricgen)\n", termLine(p.Device), termLine(k))
		}
		switch {
		case p.Error != "":
			fmt.Fprintf(w, "%s (%s, %s): %s\n\n", termLine(p.Device), termLine(p.Platform), termLine(p.Address), termText(p.Error))
		case !p.Changes():
			fmt.Fprintf(w, "%s (%s): already matches backup %s\n", termLine(p.Device), termLine(p.Platform), termLine(p.Backup))
		default:
			todo++
			fmt.Fprintf(w, "%s (%s, %s) will be restored to backup %s: +%d -%d lines\n", termLine(p.Device), termLine(p.Platform), termLine(p.Address), termLine(p.Backup), p.Diff.Added, p.Diff.Removed)
			for _, c := range p.Cleanup {
				fmt.Fprintf(w, "  first, the interrupted run's pending change: %s\n", termLine(c))
			}
			fmt.Fprint(w, termText(p.Diff.Text))
			fmt.Fprintln(w)
		}
	}
	return todo
}
