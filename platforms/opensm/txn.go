package opensm

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/platforms/internal/hostpush"
	"github.com/fabricgen/fabricgen/platforms/opensm/osmconf"
)

// The file-swap transaction of a subnet manager host. OpenSM has no
// candidate configuration of its own: it reads its files at start and
// again on SIGHUP (opensm(8): "OpenSM will reread its configuration
// file(s) and rescan the fabric"). So a change is:
//
//  1. take the host's lock (the hosts' /run/lock/fabricgen.lock) and
//     check nobody changed the files since apply read them;
//  2. write every new file into a private directory made next to the live
//     ones (mktemp -d /etc/opensm/.fabricgen.XXXXXXXXXX), as base64 data,
//     and read each back;
//  3. check the candidates: fabricgen's parse of the QoS policy and the
//     partitions (what OpenSM rejects during its sweep without a word on
//     the exit status), then `opensm -F candidate/opensm.conf -c DUMP`,
//     OpenSM's own parse: no "Unrecognized token", and every option of the
//     candidate in the dump with the candidate's value;
//  4. swap: mv each candidate over its live file (a rename in one
//     directory: a reader sees the old file or the new one);
//  5. pkill -HUP -x opensm: the daemon re-reads the files and sweeps;
//  6. verify: no ERR in the daemon's log since the swap, and the tables
//     it programs read back with smpquery from the SM host (its own port:
//     SL2VL, VLArb, P_Keys; the switch its port is cabled to: SL2VL from
//     every input port to its port 1) equal the candidate's; then the
//     files are read back;
//  7. on any failure after the swap, the files apply read are put back the
//     same way and the daemon is told again (SIGHUP).

// sweepWait bounds how long verify waits for the daemon's sweep after
// SIGHUP, and sweepPoll is how often it reads the tables meanwhile. Once
// the log says a sweep finished (SUBNET UP) and the tables still differ,
// verify gives the daemon sweepGrace more (a sweep already under way at
// SIGHUP may have logged it) before it calls the change failed.
const (
	sweepWait  = 60 * time.Second
	sweepPoll  = 500 * time.Millisecond
	sweepGrace = 5 * time.Second
)

// logFile is OpenSM's log when opensm.conf names none (opensm(8)).
const logFile = "/var/log/opensm.log"

// b64Chunk bounds one printf line writing a file's base64.
const b64Chunk = 512

// reStage is the private directory mktemp makes.
var reStage = regexp.MustCompile(`^` + regexp.QuoteMeta(ConfigDir) + `/\.fabricgen\.[A-Za-z0-9]{10}$`)

// reLogErr is a line OpenSM logs for an error ("ERR AC10: ...").
var reLogErr = regexp.MustCompile(`(?m)^.*\bERR [0-9A-F]{4}:.*$`)

// transaction is the subnet manager host's push transaction: the hosts'
// lock, leftovers and interruption notes, with the file swap as its run.
func transaction() txn.Transaction {
	t := hostpush.Transaction()
	t.Kind = pushdialect.TxnFiles
	t.Run = func(a txn.Applier) txn.Outcome { return (&swap{Applier: a}).run() }
	t.Interrupted = func(in txn.Stopped) (string, string) {
		switch in.Step {
		case "stage":
			return "stopped while writing the new files into a private directory under " + ConfigDir + ": the live files are those of the backup (the directory .fabricgen.* may be left: remove it)", in.Rollback
		case "commit":
			return "stopped while swapping the new files in or telling OpenSM to re-read them: some live files may be new, and the subnet manager may run on either set until its next sweep", in.Rollback
		case "verify":
			return "stopped after the new files were swapped in and OpenSM told to re-read them, while reading the tables back: the files are the intent's", in.Rollback
		case "rollback":
			return "stopped while putting the files of the backup back: some live files may be new", in.Rollback
		}
		return "stopped at step " + in.Step + ": some of the files may be new", in.Rollback
	}
	return t
}

// swap is one run of the file-swap transaction.
type swap struct {
	txn.Applier
	// stage is the private directory of this run ("" before it exists).
	stage string
	// hupAt is the size of OpenSM's log before the swap and SIGHUP:
	// what it logs after starts there.
	hupAt int64
	// log is the log file OpenSM writes.
	log string
	// swapped are the files this run put in place, in order: what a
	// restore puts back.
	swapped []filebundle.File
}

// run applies the change.
func (s *swap) run() txn.Outcome {
	writes, err := config.FileWrites(s.Changes())
	if err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: err.Error() + "; nothing was changed"}
	}
	for _, w := range writes {
		// A path taken from a plan never leaves the directory of the
		// subnet manager's files.
		if path.Dir(w.Path) != ConfigDir {
			return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("the change writes %s, which is not a file of %s: refused, nothing was changed", w.Path, ConfigDir)}
		}
	}
	final, err := s.finalFiles(writes)
	if err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: err.Error() + "; nothing was changed"}
	}
	// A rollback puts back files the host ran before, whatever they
	// hold (none at all, before fabricgen's first apply): they are
	// checked by reading them back, not against fabricgen's render.
	restoring := s.Command() == "fabricgen rollback"
	// fabricgen's own parse of what the daemon will read, before anything
	// is written: OpenSM takes a bad policy without a word and drops it in
	// its sweep.
	if why := checkFinal(final); why != "" && !restoring {
		return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; nothing was changed"}
	}
	if why, err := s.ChangedSince(); err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: "re-read the files before the change: " + err.Error() + "; nothing was changed"}
	} else if why != "" {
		return txn.Outcome{Status: txn.StatusRefused, Reason: why}
	}
	s.Mark("stage")
	if err := s.stageFiles(writes); err != nil {
		s.cleanup()
		return txn.Outcome{Status: txn.StatusFailed, Reason: err.Error() + "; the live files were not touched"}
	}
	if restoring {
		// Nothing to check against.
	} else if why := s.checkCandidate(final, writes); why != "" {
		s.cleanup()
		return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; the live files were not touched"}
	}
	s.log = final.logFile()
	if s.hupAt, err = s.logSize(); err != nil {
		s.cleanup()
		return txn.Outcome{Status: txn.StatusFailed, Reason: err.Error() + "; the live files were not touched"}
	}
	s.Mark("commit")
	if theirs, err := s.swapIn(writes); err != nil {
		return s.restore(err.Error())
	} else if theirs != "" {
		return s.refusedForTheirs(theirs)
	}
	note := "OpenSM re-read them (SIGHUP) and programmed the tables they set, read back with smpquery"
	if err := s.hup(); err != nil && !restoring {
		return s.restore(err.Error())
	} else if err != nil {
		note = "telling OpenSM to re-read them failed: " + err.Error()
	} else if restoring {
		note = "OpenSM was told to re-read them (SIGHUP)"
	}
	s.Mark("verify")
	if restoring {
		// The files are read back below.
	} else if why := s.verifyTables(final); why != "" {
		return s.restore(why)
	}
	ok, left, err := s.Converged()
	if err != nil {
		return s.restore("read the files back: " + err.Error())
	}
	if !ok {
		return s.restore(fmt.Sprintf("read the files back: %d line(s) still differ from the render", left))
	}
	s.cleanup()
	return txn.Outcome{Status: txn.StatusApplied, DeviceDiff: fmt.Sprintf("%d file(s) swapped in; %s", len(writes), note)}
}

// fileSet is the files the daemon reads after the change: each written
// file's new text, the others' text as apply read them.
type fileSet map[string]filebundle.File

// finalFiles is the files as they will be once writes are in.
func (s *swap) finalFiles(writes []filebundle.File) (fileSet, error) {
	before, err := config.FilesOf(s.Before())
	if err != nil {
		return nil, fmt.Errorf("the files apply read: %w", err)
	}
	fs := fileSet(filebundle.Map(before))
	for _, w := range writes {
		fs[w.Path] = w
	}
	return fs, nil
}

// text is a file's text ("" when absent).
func (fs fileSet) text(name string) (string, bool) {
	f, ok := fs[ConfigDir+"/"+name]
	if !ok || f.Absent {
		return "", false
	}
	return string(f.Text), true
}

// options parses the final opensm.conf.
func (fs fileSet) options() (*osmconf.Options, error) {
	text, ok := fs.text(FileConf)
	if !ok {
		return nil, fmt.Errorf("%s/%s is not among the files: the subnet manager would run on its defaults", ConfigDir, FileConf)
	}
	return osmconf.ParseOptions(text)
}

// logFile is the log OpenSM writes (its log_file option, else the
// default).
func (fs fileSet) logFile() string {
	if o, err := fs.options(); err == nil {
		if v, ok := o.Get("log_file"); ok && filebundle.CheckPath(v) == nil {
			return v
		}
	}
	return logFile
}

// checkFinal parses what the daemon will read and says what it would
// reject ("" when nothing).
func checkFinal(fs fileSet) string {
	o, err := fs.options()
	if err != nil {
		return "check " + FileConf + ": " + err.Error()
	}
	if len(o.Unknown) > 0 {
		return fmt.Sprintf("check %s: line %d: OpenSM 3.3 does not know the option %q", FileConf, o.Unknown[0].Line, o.Unknown[0].Key)
	}
	if !o.QoSEnabled() {
		return "check " + FileConf + ": qos is not TRUE: OpenSM would program none of the QoS tables"
	}
	for _, p := range []string{"ca", "swe", "sw0", "rtr"} {
		if _, err := o.QoS(p); err != nil {
			return "check " + FileConf + ": " + err.Error()
		}
	}
	var parts []osmconf.Partition
	if v, ok := o.Get("partition_config_file"); ok && path.Dir(v) == ConfigDir {
		if text, ok := fs.text(path.Base(v)); ok {
			if parts, err = osmconf.ParsePartitions(text); err != nil {
				return "check " + path.Base(v) + ": " + err.Error()
			}
		}
	}
	if v, ok := o.Get("qos_policy_file"); ok && path.Dir(v) == ConfigDir {
		text, ok := fs.text(path.Base(v))
		if !ok {
			return fmt.Sprintf("check: opensm.conf names the QoS policy %s, which the host does not have", v)
		}
		pol, err := osmconf.ParsePolicy(text)
		if err != nil {
			return "check " + path.Base(v) + ": " + err.Error()
		}
		if probs := append(pol.Problems(), pol.CheckPartitions(parts)...); len(probs) > 0 {
			return "check " + path.Base(v) + ": OpenSM would reject the whole policy in its sweep: " + strings.Join(probs, "; ")
		}
	}
	return ""
}

// stageFiles makes the run's private directory and writes every file to
// write into it, reading each back.
func (s *swap) stageFiles(writes []filebundle.File) error {
	out, err := s.Shell("mktemp -d " + ConfigDir + "/.fabricgen.XXXXXXXXXX")
	dir := strings.TrimSpace(out)
	if err != nil {
		return fmt.Errorf("make a private directory in %s for the new files: %w", ConfigDir, err)
	}
	if !reStage.MatchString(dir) {
		return fmt.Errorf("make a private directory in %s for the new files: mktemp printed %q, not a directory it makes", ConfigDir, txn.SafeText(dir))
	}
	s.stage = dir
	for _, w := range writes {
		if w.Absent {
			continue
		}
		if err := s.writeFile(s.staged(w.Path), w.Text); err != nil {
			return err
		}
	}
	return nil
}

// staged is where a live file's candidate is written.
func (s *swap) staged(live string) string { return s.stage + "/" + path.Base(live) }

// writeFile writes text to p as base64 chunks, decodes it there and reads
// it back.
func (s *swap) writeFile(p string, text []byte) error {
	enc := base64.StdEncoding.EncodeToString(text)
	redirect := ">"
	for first := true; first || enc != ""; first = false {
		n := min(b64Chunk, len(enc))
		if _, err := s.Shell(fmt.Sprintf("printf '%%s' '%s' %s %s.b64", enc[:n], redirect, p)); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		enc, redirect = enc[n:], ">>"
	}
	if _, err := s.Shell("base64 -d -- " + p + ".b64 > " + p + " && rm -f -- " + p + ".b64"); err != nil {
		return fmt.Errorf("decode %s: %w", p, err)
	}
	got, err := txn.ReadFile(s.Conn(), p)
	if err != nil {
		return err
	}
	if got.Absent || string(got.Text) != string(text) {
		return fmt.Errorf("write %s: it reads back with %d bytes that are not the %d written", p, len(got.Text), len(text))
	}
	return nil
}

// checkCandidate has OpenSM parse the candidate opensm.conf (the live
// one when the change does not write it) and dump every option it took.
func (s *swap) checkCandidate(final fileSet, writes []filebundle.File) string {
	conf := ConfigDir + "/" + FileConf
	if f, ok := final[conf]; ok && f.Absent {
		return "the change removes " + conf
	}
	cand := conf
	for _, f := range writes {
		if f.Path == conf {
			cand = s.staged(conf)
		}
	}
	dump := s.stage + "/check.conf"
	out, err := s.Shell("opensm -F " + cand + " -c " + dump)
	if err != nil {
		return "opensm -F " + cand + " -c " + dump + ": " + err.Error()
	}
	if strings.Contains(out, "Unrecognized token") {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Unrecognized token") {
				return "opensm does not take " + cand + ": " + txn.SafeText(strings.TrimSpace(l))
			}
		}
	}
	got, err := txn.ReadFile(s.Conn(), dump)
	if err != nil {
		return "read OpenSM's dump of the candidate: " + err.Error()
	}
	if got.Absent {
		return "opensm -c wrote no dump of the candidate options (" + txn.SafeText(lastLine(out)) + ")"
	}
	parsed, err := osmconf.ParseOptions(string(got.Text))
	if err != nil {
		return "read OpenSM's dump of the candidate: " + err.Error()
	}
	want, err := final.options()
	if err != nil {
		return err.Error()
	}
	for _, o := range want.Lines {
		v, ok := parsed.Get(o.Key)
		if !ok || v != wantValue(want, o.Key) {
			return fmt.Sprintf("OpenSM read %s line %d (%s %s) as %q: the option is not what the file says", FileConf, o.Line, o.Key, o.Value, v)
		}
	}
	return ""
}

// wantValue is an option's effective value (its last line).
func wantValue(o *osmconf.Options, key string) string {
	v, _ := o.Get(key)
	return v
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// logSize is the size of OpenSM's log now (0 when there is none yet).
func (s *swap) logSize() (int64, error) {
	out, st, _, err := s.Conn().Run("stat -c %s -- " + s.log)
	if err != nil {
		return 0, fmt.Errorf("read the size of OpenSM's log %s: %w", s.log, err)
	}
	if st != 0 {
		if strings.Contains(out, "No such file or directory") {
			return 0, nil
		}
		return 0, fmt.Errorf("read the size of OpenSM's log %s: %s", s.log, txn.SafeText(strings.TrimSpace(out)))
	}
	n, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("the size of OpenSM's log %s is %q", s.log, txn.SafeText(strings.TrimSpace(out)))
	}
	return n, nil
}

// swapIn renames every candidate over its live file (removes a file the
// change removes), each only while the live file is still what apply
// read: the check and the rename are one shell line (sha256sum -c, then
// mv), so another administrator's edit since is found, not overwritten.
// theirs says which file they changed ("" when none); the swap stops
// there, and the files swapped before it are in s.swapped.
func (s *swap) swapIn(writes []filebundle.File) (theirs string, err error) {
	before, err := config.FilesOf(s.Before())
	if err != nil {
		return "", err
	}
	was := filebundle.Map(before)
	lines := make([]string, 0, len(writes))
	for _, w := range writes {
		op := "mv -f -- " + s.staged(w.Path) + " " + w.Path
		if w.Absent {
			op = "rm -f -- " + w.Path
		}
		lines = append(lines, guard(w.Path, was[w.Path])+" && "+op)
	}
	sent := s.Track("the swap", lines)
	for i, w := range writes {
		out, st, _, err := s.Conn().Run(lines[i])
		if err != nil {
			return "", fmt.Errorf("swap the new files in: %s: %w", lines[i], err)
		}
		sent.Done(st == 0)
		if st == 0 {
			s.swapped = append(s.swapped, w)
			continue
		}
		if now, rerr := txn.ReadFile(s.Conn(), w.Path); rerr == nil && !sameFile(now, was[w.Path]) {
			return w.Path, nil
		}
		return "", fmt.Errorf("swap the new files in: %s: exit status %d: %s", lines[i], st, txn.SafeText(strings.TrimSpace(out)))
	}
	return "", nil
}

// guard is a shell test that live holds exactly f's bytes (no file, when
// f is absent).
func guard(live string, f filebundle.File) string {
	if f.Absent || f.Path == "" {
		return "test ! -e " + live
	}
	sum := sha256.Sum256(f.Text)
	return fmt.Sprintf("printf '%%s  %%s\\n' %s %s | sha256sum -c --status", hex.EncodeToString(sum[:]), live)
}

// sameFile reports whether two reads of a file hold the same.
func sameFile(a, b filebundle.File) bool {
	return (a.Absent || a.Path == "") == (b.Absent || b.Path == "") && bytes.Equal(a.Text, b.Text)
}

// refusedForTheirs undoes what the swap put in place before it met
// another administrator's edit of file theirs, keeping their file, and
// says so: nothing of this apply is on the host.
func (s *swap) refusedForTheirs(theirs string) txn.Outcome {
	why := theirs + " changed after apply read it (another administrator's edit); it was not replaced"
	out := s.restoreKeeping(why, []string{theirs})
	if out.Status == txn.StatusRolledBack {
		out.Status = txn.StatusRefused
		out.Reason += "; nothing of this apply is on the host: run fabricgen plan again"
	}
	return out
}

// hup tells the running OpenSM to re-read its files.
func (s *swap) hup() error {
	out, st, _, err := s.Conn().Run("pkill -HUP -x opensm")
	if err != nil {
		return fmt.Errorf("pkill -HUP -x opensm: %w", err)
	}
	if st == 1 {
		return fmt.Errorf("no opensm runs on the host (pkill -HUP -x opensm: exit status 1): nothing re-reads the new files")
	}
	if st != 0 {
		return fmt.Errorf("pkill -HUP -x opensm: exit status %d: %s", st, txn.SafeText(strings.TrimSpace(out)))
	}
	return nil
}

// verifyTables waits for the sweep after SIGHUP: the log since the swap
// must hold no ERR, and the tables read back must be the candidate's.
func (s *swap) verifyTables(final fileSet) string {
	o, err := final.options()
	if err != nil {
		return err.Error()
	}
	want, err := expectedTables(o, final)
	if err != nil {
		return err.Error()
	}
	deadline := s.Now().Add(sweepWait)
	var why string
	var up time.Time // when the log first said SUBNET UP after SIGHUP
	for {
		errs, swept := s.logSince()
		if errs != "" {
			return "OpenSM logged errors after re-reading the files: " + errs
		}
		why = s.readTables(want)
		if why == "" {
			return ""
		}
		if swept && up.IsZero() {
			up = s.Now()
		}
		if !up.IsZero() && !s.Now().Before(up.Add(sweepGrace)) {
			return fmt.Sprintf("OpenSM finished its sweep after SIGHUP (SUBNET UP in its log) and, %s later, the tables it programmed are still not the files': %s", sweepGrace, why)
		}
		if !s.Now().Before(deadline) || !s.Conn().Alive() {
			break
		}
		time.Sleep(sweepPoll)
	}
	return fmt.Sprintf("OpenSM did not program the new tables within %s of SIGHUP: %s", sweepWait, why)
}

// logSince reads what OpenSM logged since the swap and SIGHUP: its ERR
// lines ("" when none), and whether it finished a sweep (SUBNET UP, which
// OpenSM 3.3.23 logs at its default level after the heavy sweep a SIGHUP
// starts: seen under ibsim).
func (s *swap) logSince() (errs string, swept bool) {
	out, st, _, err := s.Conn().Run(fmt.Sprintf("tail -c +%d -- %s", s.hupAt+1, s.log))
	if err != nil || st != 0 {
		return "", false
	}
	m := reLogErr.FindAllString(out, 4)
	for i := range m {
		m[i] = txn.SafeText(strings.TrimSpace(m[i]))
	}
	return strings.Join(m, "; "), strings.Contains(out, "SUBNET UP")
}

// tables is what verify reads back.
type tables struct {
	ca, swe osmconf.QoSSet
	// pkeys are the P_Keys the SM's own port must hold (full members).
	pkeys []uint16
}

// expectedTables is what OpenSM programs from the final files on the SM
// host's own port and on its switch's external ports.
func expectedTables(o *osmconf.Options, final fileSet) (tables, error) {
	var t tables
	var err error
	if t.ca, err = o.QoS("ca"); err != nil {
		return t, err
	}
	if t.swe, err = o.QoS("swe"); err != nil {
		return t, err
	}
	t.pkeys = []uint16{0xffff}
	if v, ok := o.Get("partition_config_file"); ok && path.Dir(v) == ConfigDir {
		if text, ok := final.text(path.Base(v)); ok {
			parts, err := osmconf.ParsePartitions(text)
			if err != nil {
				return t, err
			}
			for _, p := range parts {
				if p.PKey&0x7fff == 0x7fff {
					continue
				}
				for _, m := range p.Members {
					if (m.Name == "SELF" || m.Name == "ALL" || m.Name == "ALL_CAS") && m.Full {
						t.pkeys = append(t.pkeys, p.PKey|0x8000)
						break
					}
				}
			}
		}
	}
	return t, nil
}

// readTables reads the SM host's port and its switch back and says how
// they differ from want ("" when they do not).
func (s *swap) readTables(want tables) string {
	rows, err := queried(s, "sl2vl", "0", ibsim.ParseSL2VL)
	if err != nil {
		return err.Error()
	}
	if got := rows[ibsim.PortPair{}]; got != want.ca.SL2VL {
		return fmt.Sprintf("the SM host's port maps SL to VL as %v, the files say %v", got, want.ca.SL2VL)
	}
	arb, err := queried(s, "vlarb", "0", ibsim.ParseVLArb)
	if err != nil {
		return err.Error()
	}
	if g, w := read(arb.Low), wanted(want.ca.Low); g != w {
		return fmt.Sprintf("the SM host's port VLArb low table is %s, the files say %s", g, w)
	}
	if g, w := read(arb.High), wanted(want.ca.High); g != w {
		return fmt.Sprintf("the SM host's port VLArb high table is %s, the files say %s", g, w)
	}
	keys, err := queried(s, "pkeys", "0", ibsim.ParsePKeys)
	if err != nil {
		return err.Error()
	}
	for _, k := range want.pkeys {
		if !slices.Contains(keys, k) {
			return fmt.Sprintf("the SM host's port lacks P_Key 0x%04x, which the partitions give it", k)
		}
	}
	// The switch the SM host's port is cabled to: smpquery prints the
	// rows of one output port (port 1, which every switch has), from
	// every input port; port 0 is the switch's management port, which
	// qos_sw0 programs where the switch has an enhanced one.
	swRows, err := queried(s, "sl2vl", "0,1 1", ibsim.ParseSL2VL)
	if err != nil {
		return err.Error()
	}
	var in []int
	for pp := range swRows {
		if pp.In != 0 && pp.Out == 1 {
			in = append(in, pp.In)
		}
	}
	if len(in) == 0 {
		return "smpquery -D sl2vl 0,1 1 printed no row for output port 1 of the SM host's switch"
	}
	slices.Sort(in)
	for _, p := range in {
		if got := swRows[ibsim.PortPair{In: p, Out: 1}]; got != want.swe.SL2VL {
			return fmt.Sprintf("the switch of the SM host's port maps SL to VL from port %d to 1 as %v, the files say %v", p, got, want.swe.SL2VL)
		}
	}
	return ""
}

// queried runs smpquery for what at dr and parses its output.
func queried[T any](s *swap, what, dr string, parse func(string) (T, error)) (T, error) {
	out, err := s.query(what, dr)
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(out)
}

// query runs smpquery by directed route from the SM host.
func (s *swap) query(what, dr string) (string, error) {
	out, st, _, err := s.Conn().Run("smpquery -D " + what + " " + dr)
	if err != nil {
		return "", fmt.Errorf("smpquery -D %s %s: %w", what, dr, err)
	}
	if st != 0 {
		return "", fmt.Errorf("smpquery -D %s %s: exit status %d: %s", what, dr, st, txn.SafeText(lastLine(out)))
	}
	return out, nil
}

// read prints a VLArb table read back (smpquery leaves weight-0 entries
// out), wanted the files' table alike, without its weight-0 entries.
func read(es []ibsim.Entry) string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		parts = append(parts, e.String())
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func wanted(es []osmconf.VLArbEntry) string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		if e.Weight != 0 {
			parts = append(parts, ibsim.Entry{VL: e.VL, Weight: e.Weight}.String())
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// restore puts back the files apply read, for each file this run swapped
// in, each only while the live file is still the one this run wrote (a
// file someone else changed since is theirs, and kept); tells OpenSM to
// re-read them; and checks every other file is the backup's.
func (s *swap) restore(why string) txn.Outcome { return s.restoreKeeping(why, nil) }

// restoreKeeping is restore where the files theirs were changed by
// someone else and never swapped by this run: they are kept as they are.
func (s *swap) restoreKeeping(why string, theirs []string) txn.Outcome {
	s.Mark("rollback")
	restore := s.RollbackCommand()
	if !s.Conn().Alive() {
		if err := s.Reconnect(); err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + err.Error(), Restore: restore}
		}
	}
	before, err := config.FilesOf(s.Before())
	if err != nil {
		return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; the backup: " + err.Error(), Restore: restore}
	}
	back := filebundle.Map(before)
	var lines []string
	for _, w := range s.swapped {
		op := "rm -f -- " + w.Path
		if old, ok := back[w.Path]; ok && !old.Absent {
			cand := s.staged(w.Path) + ".orig"
			if err := s.writeFile(cand, old.Text); err != nil {
				return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; write the backup's " + path.Base(w.Path) + ": " + err.Error() + "; the host is NOT back to its backup", Restore: restore}
			}
			op = "mv -f -- " + cand + " " + w.Path
		}
		lines = append(lines, guard(w.Path, w)+" && "+op)
	}
	kept := slices.Clone(theirs)
	sent := s.Track("the restore", lines)
	for i, w := range s.swapped {
		out, st, _, err := s.Conn().Run(lines[i])
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; restore: " + err.Error() + "; the host is NOT back to its backup", Restore: restore}
		}
		sent.Done(st == 0)
		if st == 0 {
			continue
		}
		if now, rerr := txn.ReadFile(s.Conn(), w.Path); rerr == nil && !sameFile(now, w) {
			kept = append(kept, w.Path)
			continue
		}
		return txn.Outcome{Status: txn.StatusFailed, Reason: fmt.Sprintf("%s; restore: %s: exit status %d: %s; the host is NOT back to its backup", why, lines[i], st, txn.SafeText(strings.TrimSpace(out))), Restore: restore}
	}
	hupNote := "; OpenSM was told to re-read the restored files (SIGHUP)"
	if len(lines) == 0 {
		hupNote = ""
	} else if err := s.hup(); err != nil {
		hupNote = "; telling OpenSM to re-read the restored files failed: " + err.Error()
	}
	var out txn.Outcome
	if len(kept) == 0 {
		out = s.RolledBack(why + hupNote)
	} else {
		out = s.keptTheirs(why+hupNote, kept, back)
	}
	s.cleanup()
	return out
}

// keptTheirs checks a host restored but for the files someone else
// changed after this run swapped them in, which it says it kept.
func (s *swap) keptTheirs(why string, kept []string, back map[string]filebundle.File) txn.Outcome {
	restore := s.RollbackCommand()
	for _, w := range s.swapped {
		if slices.Contains(kept, w.Path) {
			continue
		}
		now, err := txn.ReadFile(s.Conn(), w.Path)
		if err != nil {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; could not check the rollback: " + err.Error(), Restore: restore}
		}
		old, ok := back[w.Path]
		if !ok {
			old = filebundle.File{Path: w.Path, Absent: true}
		}
		if !sameFile(now, old) {
			return txn.Outcome{Status: txn.StatusFailed, Reason: why + "; " + w.Path + " is NOT back to its backup", Restore: restore}
		}
	}
	return txn.Outcome{Status: txn.StatusRolledBack, Reason: fmt.Sprintf("%s; files someone else changed during the apply are kept: %s; every other file is the backup's", why, strings.Join(kept, ", "))}
}

// cleanup removes the run's private directory.
func (s *swap) cleanup() {
	if s.stage != "" && reStage.MatchString(s.stage) {
		_, _, _, _ = s.Conn().Run("rm -rf -- " + s.stage)
	}
}
