package state

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// backupStamp names a backup file after its UTC time, to the nanosecond,
// so names sort in time order and two backups never collide.
const backupStamp = "20060102T150405.000000000Z"

// Backup is one saved running config.
type Backup struct {
	Device string
	Path   string
	Time   time.Time
	// BeforeRollback marks the state saved before a rollback changed the
	// device (named <time>.before-rollback.cfg); rollback restores the
	// backups apply took, so running it twice changes nothing.
	BeforeRollback bool
}

// beforeRollback is the name suffix of a backup taken before a rollback.
const beforeRollback = ".before-rollback"

// SaveBackup writes the device's running config before a change and
// returns the file's path: BACKUPS/<device>/<UTC time>.cfg, mode 0600.
func (d Dir) SaveBackup(device, running string, now time.Time) (string, error) {
	return d.saveBackup(device, running, now, "")
}

// SaveRollbackBackup writes the device's running config before a
// rollback changes it: BACKUPS/<device>/<UTC time>.before-rollback.cfg.
func (d Dir) SaveRollbackBackup(device, running string, now time.Time) (string, error) {
	return d.saveBackup(device, running, now, beforeRollback)
}

func (d Dir) saveBackup(device, running string, now time.Time, suffix string) (string, error) {
	if err := CheckName(device); err != nil {
		return "", err
	}
	dir := filepath.Join(d.backupRoot(), device)
	if err := d.mkdirBackups(dir); err != nil {
		return "", err
	}
	path := filepath.Join(dir, now.UTC().Format(backupStamp)+suffix+".cfg")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := f.WriteString(running)
	serr := f.Sync()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := d.saveAppliedBeside(device, path); err != nil {
		return "", err
	}
	return path, nil
}

// appliedBeside is the file beside a backup that holds the device's
// last-applied record as it was when the backup was taken:
// <UTC time>.applied.json for <UTC time>.cfg.
func appliedBeside(backup string) string {
	return strings.TrimSuffix(backup, ".cfg") + appliedSuffix
}

// appliedSuffix ends the name of the last-applied record kept beside a
// backup (appliedBeside).
const appliedSuffix = ".applied.json"

// saveAppliedBeside copies the device's last-applied record, if any,
// beside the backup just written, as fabricgen wrote it (its signature
// with it): a rollback to that backup puts the device back to what this
// record describes, and records it again (BackupApplied).
func (d Dir) saveAppliedBeside(device, backup string) error {
	p, err := d.recordPath("applied", device)
	if err != nil {
		return err
	}
	b := []byte(noRecord)
	if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
		if b, err = readlimit.File(p, maxStateFile); err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
	} else if err == nil {
		return nil // a link is never followed, nor copied: nothing known
	}
	dst := appliedBeside(backup)
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	_, werr := f.Write(b)
	serr := f.Sync()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// noRecord is what stands beside a backup taken when the device had no
// last-applied record: it was not applied from this state directory.
const noRecord = "null\n"

// BackupRecord is what the state directory recorded about a device when
// one of its backups was taken.
type BackupRecord struct {
	// Known is true when the backup has a record beside it (a backup
	// fabricgen took); false for a file elsewhere (--to FILE) or one an
	// older fabricgen took.
	Known bool
	// Applied is the device's last-applied record then; nil when it had
	// none (the backup predates fabricgen's first apply of the device).
	Applied *Applied
}

// BackupApplied returns the last-applied record the device had when the
// backup was taken (saved beside it by SaveBackup). The record is checked
// like Applied's: with Key, one that is unsigned or edited is an error
// naming the file; without, it is returned unverified, and the caller
// must check it against the device before recording it again. A record
// edited to say there was none only makes fabricgen claim less.
func (d Dir) BackupApplied(device, backup string) (BackupRecord, error) {
	if backup == "" || !isBackupName(filepath.Base(backup)) {
		return BackupRecord{}, nil
	}
	own, err := d.backupFile(device, filepath.Base(backup))
	if err != nil {
		return BackupRecord{}, err
	}
	a, errA := filepath.Abs(own)
	b, errB := filepath.Abs(backup)
	if errA != nil || errB != nil || a != b {
		return BackupRecord{}, nil // a --to FILE elsewhere: no record beside it
	}
	p := appliedBeside(own)
	var r *Applied
	ok, err := readJSON(p, &r)
	if !ok || err != nil {
		return BackupRecord{}, err
	}
	if r == nil {
		return BackupRecord{Known: true}, nil
	}
	if r.Device != device {
		return BackupRecord{}, fmt.Errorf("%s: the record names device %q, not %s: it was not written by fabricgen for this device; look at it, then remove it", p, r.Device, device)
	}
	sig := r.Signature
	r.Signature = ""
	if r.Verified, err = d.verify(p, sig, *r); err != nil {
		return BackupRecord{}, err
	}
	r.Signature = sig
	return BackupRecord{Known: true, Applied: r}, nil
}

// ClearApplied removes the device's last-applied record: fabricgen no
// longer claims what is on the device.
func (d Dir) ClearApplied(device string) error {
	p, err := d.recordPath("applied", device)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// Backups lists the device's backups, oldest first.
func (d Dir) Backups(device string) ([]Backup, error) {
	if err := CheckName(device); err != nil {
		return nil, err
	}
	dir := filepath.Join(d.backupRoot(), device)
	if err := d.realBackups(dir); err != nil {
		return nil, err
	}
	ents, err := readlimit.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups of %s: %w", device, err)
	}
	var out []Backup
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".cfg")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		name, rb := strings.CutSuffix(name, beforeRollback)
		t, err := time.Parse(backupStamp, name)
		if err != nil {
			continue
		}
		out = append(out, Backup{Device: device, Path: filepath.Join(dir, e.Name()), Time: t, BeforeRollback: rb})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// PruneBackups keeps the device's newest keep backups and removes the
// rest; keep < 1 keeps everything.
func (d Dir) PruneBackups(device string, keep int) error {
	if keep < 1 {
		return nil
	}
	bs, err := d.Backups(device)
	if err != nil {
		return err
	}
	var errs []error
	for i := 0; i < len(bs)-keep; i++ {
		for _, p := range []string{bs[i].Path, appliedBeside(bs[i].Path)} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("prune backups of %s: %w", device, err)
	}
	return nil
}

// InFlight records a change that has started on a device and not yet
// finished. apply writes it before it changes anything and removes it
// when the device ends applied or rolled back; a record that is still
// there means a run was killed or stopped mid-change, and the next plan or
// apply says so.
type InFlight struct {
	Run      string    `json:"run"`
	Holder   Holder    `json:"holder"`
	Device   string    `json:"device"`
	Platform string    `json:"platform"`
	Address  string    `json:"address"`
	Started  time.Time `json:"started"`
	// Txn is the name of the transaction on the device (EOS session,
	// NX-OS or SONiC checkpoint), when the platform has one.
	Txn string `json:"txn,omitempty"`
	// Step is the last step started: backup, stage, commit, verify,
	// confirm, rollback.
	Step string `json:"step"`
	// Backup is the running config saved before the change. Read back,
	// it is the file of that name in the device's backup folder of the
	// state directory reading it (see Dir.InFlight), whatever folder the
	// record names.
	Backup string `json:"backup"`
	// RecordedBackup is Backup as the record holds it, for messages.
	RecordedBackup string `json:"-"`
	// Rendered is the config being applied.
	Rendered string `json:"rendered"`
	// Read is, for a host, the script whose settings the run read and
	// backed up when it is more than Rendered: the render plus the
	// settings the last apply made that the render no longer makes (set
	// back to their value before fabricgen). A rollback reads and
	// restores these settings; "" means Rendered.
	Read         string `json:"read,omitempty"`
	IntentDigest string `json:"intent_digest"`
	// Signature is the hex HMAC-SHA-256, keyed with FABRICGEN_PLAN_KEY,
	// of the record's JSON without it; empty when written without a key.
	Signature string `json:"signature,omitempty"`
	// Verified is true when Signature was checked with Dir.Key: the
	// record is as fabricgen wrote it.
	Verified bool `json:"-"`
}

// ReadScript is the script whose settings a host's backup holds: Read,
// else Rendered.
func (r *InFlight) ReadScript() string {
	if r.Read != "" {
		return r.Read
	}
	return r.Rendered
}

func (d Dir) recordPath(kind, device string) (string, error) {
	if err := CheckName(device); err != nil {
		return "", err
	}
	dir := filepath.Join(d.Path, kind)
	if err := realDirs(d.Path, dir, true); err != nil {
		return "", err
	}
	return filepath.Join(dir, device+".json"), nil
}

// realBackups checks a device's backup folder: below the state
// directory every folder must be real; below a --backup-dir the operator
// chose, the folders fabricgen makes in it.
func (d Dir) realBackups(dir string) error {
	if d.BackupRoot == "" {
		return realDirs(d.Path, dir, true)
	}
	return realDirs(d.BackupRoot, dir, false)
}

// mkdirBackups creates a device's backup folder after realBackups.
func (d Dir) mkdirBackups(dir string) error {
	if d.BackupRoot == "" {
		return mkdirReal(d.Path, dir, true)
	}
	return mkdirReal(d.BackupRoot, dir, false)
}

// WriteInFlight records (or updates) a change in flight.
func (d Dir) WriteInFlight(r InFlight) error {
	p, err := d.recordPath("inflight", r.Device)
	if err != nil {
		return err
	}
	r.Signature = ""
	if r.Signature, err = d.sign(r); err != nil {
		return err
	}
	return writeJSON(d.Path, p, r)
}

// InFlight returns the device's in-flight record, or nil.
func (d Dir) InFlight(device string) (*InFlight, error) {
	p, err := d.recordPath("inflight", device)
	if err != nil {
		return nil, err
	}
	var r InFlight
	ok, err := readJSON(p, &r)
	if !ok || err != nil {
		return nil, err
	}
	// The run and transaction names go into device commands (a
	// checkpoint to delete, a session to abort): a record that does not
	// hold names fabricgen makes was not written by fabricgen.
	for _, n := range []string{r.Run, r.Txn} {
		if n != "" && !ValidRunID(n) {
			return nil, fmt.Errorf("%s: %q is not a run name fabricgen makes (fabricgen-, then letters, digits and -): the record was not written by fabricgen; look at it, then remove it", p, n)
		}
	}
	if r.Device != device {
		return nil, fmt.Errorf("%s: the record names device %q, not %s: it was not written by fabricgen for this device; look at it, then remove it", p, r.Device, device)
	}
	sig := r.Signature
	r.Signature = ""
	if r.Verified, err = d.verify(p, sig, r); err != nil {
		return nil, err
	}
	r.Signature = sig
	// The backup is restored by rollback and compared by plan: it is
	// looked up by its file name in this state directory's backup
	// folder of the device (or --backup-dir's), never at the path the
	// record holds, which could point anywhere (/etc/passwd).
	r.RecordedBackup = r.Backup
	if r.Backup != "" {
		bp, err := d.backupFile(device, r.Backup)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		r.Backup = bp
	}
	return &r, nil
}

// backupFile is where the backup a record names lives: its file name,
// which must be one fabricgen gives backups (<UTC time>.cfg, or
// <UTC time>.before-rollback.cfg), in the device's backup folder of this
// state directory (or of --backup-dir). The folder the record names is
// not followed; a file there that is a symlink or not a regular file is
// refused. A backup that is not there (pruned, or saved under another
// --backup-dir) is returned all the same: reading it fails, and callers
// say what to do.
func (d Dir) backupFile(device, recorded string) (string, error) {
	slash := filepath.ToSlash(recorded)
	base := path.Base(slash)
	parent := path.Base(path.Dir(slash))
	if !isBackupName(base) || (strings.Contains(slash, "/") && parent != device) {
		return "", fmt.Errorf("backup %q is not a backup fabricgen writes (BACKUPS/%s/<UTC time>.cfg): the record was edited or not written by fabricgen; look at it, then remove it, and restore with fabricgen rollback %s --to FILE", recorded, device, device)
	}
	dir := filepath.Join(d.backupRoot(), device)
	if err := d.realBackups(dir); err != nil {
		return "", err
	}
	p := filepath.Join(dir, base)
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return p, nil
	case err != nil:
		return "", fmt.Errorf("backup %s: %w", p, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("backup %s is %w: fabricgen does not follow links there; replace it with the backup file", p, ErrLinkedState)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("backup %s is not a regular file: move it away", p)
	}
	return p, nil
}

// isBackupName reports whether name is one fabricgen gives a backup file.
func isBackupName(name string) bool {
	stem, ok := strings.CutSuffix(name, ".cfg")
	if !ok {
		return false
	}
	stem, _ = strings.CutSuffix(stem, beforeRollback)
	_, err := time.Parse(backupStamp, stem)
	return err == nil
}

// ClearInFlight removes the device's in-flight record.
func (d Dir) ClearInFlight(device string) error {
	p, err := d.recordPath("inflight", device)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// Applied is what fabricgen last applied to a device: the rendered config
// and the intent it came from. Drift and day-2 changes compare against it.
type Applied struct {
	Device       string    `json:"device"`
	Platform     string    `json:"platform"`
	Run          string    `json:"run"`
	Time         time.Time `json:"time"`
	IntentDigest string    `json:"intent_digest"`
	Rendered     string    `json:"rendered"`
	// RunningSHA256 hashes the normalised running config right after the
	// change was verified.
	RunningSHA256 string `json:"running_sha256"`
	// Baseline (hosts) is every setting's value from before fabricgen
	// first changed it, in push/config's host state form: what a setting
	// the intent stops making is set back to.
	Baseline string `json:"baseline,omitempty"`
	// Read (hosts) is the script whose settings that apply read and
	// backed up, when it is more than Rendered (InFlight.Read).
	Read string `json:"read,omitempty"`
	// Signature and Verified: as InFlight's.
	Signature string `json:"signature,omitempty"`
	Verified  bool   `json:"-"`
}

// ReadScript is the script whose settings the apply's backup holds:
// Read, else Rendered.
func (r *Applied) ReadScript() string {
	if r.Read != "" {
		return r.Read
	}
	return r.Rendered
}

// WriteApplied records what was applied to a device.
func (d Dir) WriteApplied(r Applied) error {
	p, err := d.recordPath("applied", r.Device)
	if err != nil {
		return err
	}
	r.Signature = ""
	if r.Signature, err = d.sign(r); err != nil {
		return err
	}
	return writeJSON(d.Path, p, r)
}

// Applied returns the device's last-applied record, or nil.
func (d Dir) Applied(device string) (*Applied, error) {
	p, err := d.recordPath("applied", device)
	if err != nil {
		return nil, err
	}
	var r Applied
	ok, err := readJSON(p, &r)
	if !ok || err != nil {
		return nil, err
	}
	if r.Device != device {
		return nil, fmt.Errorf("%s: the record names device %q, not %s: it was not written by fabricgen for this device; look at it, then remove it", p, r.Device, device)
	}
	sig := r.Signature
	r.Signature = ""
	if r.Verified, err = d.verify(p, sig, r); err != nil {
		return nil, err
	}
	r.Signature = sig
	return &r, nil
}

// sign is the record's signature with the state directory's key ("" when
// there is none): the hex HMAC-SHA-256 of v's JSON, v having no
// signature.
func (d Dir) sign(v any) (string, error) {
	if len(d.Key) == 0 {
		return "", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode record: %w", err)
	}
	m := hmac.New(sha256.New, d.Key)
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// verify checks a record's signature sig against v (the record without
// it) and reports whether it was checked. With a key, an unsigned record
// or one whose signature does not match is refused, naming the file: it
// says which lines apply and rollback may remove, so it must be as
// fabricgen wrote it. Without a key nothing can be checked: the record is
// used, unverified (see push: what an unverified record may make apply
// remove is checked against the device).
func (d Dir) verify(path, sig string, v any) (bool, error) {
	if len(d.Key) == 0 {
		return false, nil
	}
	if sig == "" {
		return false, fmt.Errorf("%s is not signed, but %s is set: fabricgen cannot tell whether it was edited, and it says what fabricgen may remove from the device; check it (git log -p %s), then remove it (the next apply of the device writes a signed one), or run without the key", path, KeyEnv, path)
	}
	want, err := d.sign(v)
	if err != nil {
		return false, err
	}
	if !hmac.Equal([]byte(want), []byte(sig)) {
		return false, fmt.Errorf("%s: its signature does not match: it was edited after fabricgen wrote it, or signed with another key; restore it (git checkout -- %s) or remove it, then plan again", path, path)
	}
	return true, nil
}
