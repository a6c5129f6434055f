package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// A child process that takes the lock, says so, and waits to be killed.
	if dir := os.Getenv("FABRICGEN_STATE_TEST_HOLD"); dir != "" {
		l, err := ForFabric(dir).Lock(context.Background(), Me("child", time.Now()), 0)
		if err != nil {
			os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		time.Sleep(time.Hour)
		_ = l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockRefusesSecondHolderAndNamesTheFirst(t *testing.T) {
	d := ForFabric(t.TempDir())
	first, err := d.Lock(context.Background(), Holder{PID: 4242, User: "alice", Host: "jump1", Command: "fabricgen apply", Started: time.Now()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Lock(context.Background(), Me("fabricgen apply", time.Now()), 0)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second lock: %v, want a LockedError", err)
	}
	for _, want := range []string{"lock", "pid 4242", "alice@jump1", "fabricgen apply", "-lock-timeout"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lock error %q lacks %q", err, want)
		}
	}
	// Waiting works: the lock is released while the second one waits.
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = first.Release()
	}()
	second, err := d.Lock(context.Background(), Me("fabricgen apply", time.Now()), time.Minute)
	if err != nil {
		t.Fatalf("waiting for the lock: %v", err)
	}
	_ = second.Release()
}

func TestLockWaitEndsWithContext(t *testing.T) {
	d := ForFabric(t.TempDir())
	l, err := d.Lock(context.Background(), Me("a", time.Now()), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Lock(ctx, Me("b", time.Now()), time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("lock wait with a cancelled context: %v", err)
	}
}

// TestLockReleasedWhenHolderIsKilled: a SIGKILLed apply never leaves a
// stale lock behind.
func TestLockReleasedWhenHolderIsKilled(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FABRICGEN_STATE_TEST_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "locked") {
		t.Fatalf("child: %q", buf[:n])
	}
	if _, err := ForFabric(dir).Lock(context.Background(), Me("parent", time.Now()), 0); err == nil {
		t.Fatal("the lock was taken while the child holds it")
	} else if !strings.Contains(err.Error(), "child") {
		t.Errorf("lock error does not name the child: %v", err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	l, err := ForFabric(dir).Lock(context.Background(), Me("parent", time.Now()), 0)
	if err != nil {
		t.Fatalf("lock after the holder was killed: %v", err)
	}
	_ = l.Release()
}

func TestUnsafeNamesRefused(t *testing.T) {
	d := ForFabric(t.TempDir())
	for _, name := range []string{"", ".", "..", "../x", "a/b", `a\b`, "leaf1\x00", "leaf1\u200b", "leaf\x1b[2J", "a\nb"} {
		if _, err := d.SaveBackup(name, "x", time.Now()); err == nil {
			t.Errorf("backup for %q accepted", name)
		}
		if err := d.WriteInFlight(InFlight{Device: name}); err == nil {
			t.Errorf("in-flight record for %q accepted", name)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(d.Path))
	for _, e := range ents {
		if e.Name() != DirName {
			t.Errorf("unexpected file %s next to the state directory", e.Name())
		}
	}
}

func TestBackupsSortedAndPruned(t *testing.T) {
	d := ForFabric(t.TempDir())
	base := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	for i := range 5 {
		if _, err := d.SaveBackup("leaf1", "config "+string(rune('a'+i)), base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	// Two backups in the same nanosecond must not overwrite each other.
	if _, err := d.SaveBackup("leaf1", "again", base); err == nil {
		t.Error("a second backup with the same time replaced the first")
	}
	if err := d.PruneBackups("leaf1", 2); err != nil {
		t.Fatal(err)
	}
	bs, err := d.Backups("leaf1")
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || !bs[0].Time.Equal(base.Add(3*time.Second)) || !bs[1].Time.Equal(base.Add(4*time.Second)) {
		t.Fatalf("after pruning to 2: %+v", bs)
	}
	if b, _ := os.ReadFile(bs[1].Path); string(b) != "config e" {
		t.Errorf("newest backup holds %q", b)
	}
}

// TestInFlightRefusesHostileNames: an in-flight record edited so that
// its run or transaction name carries a command (the name goes into
// "sudo config delete-checkpoint NAME", "no checkpoint NAME") is refused
// when read.
func TestInFlightRefusesHostileNames(t *testing.T) {
	d := ForFabric(t.TempDir())
	for _, bad := range []InFlight{
		{Run: "fabricgen-x", Device: "leaf1", Txn: "fabricgen-x; reboot"},
		{Run: "fabricgen-x$(reboot)", Device: "leaf1"},
		{Run: "fabricgen-x", Device: "leaf1", Txn: "x"},
		{Run: "fabricgen-x\nreboot", Device: "leaf1"},
	} {
		if err := d.WriteInFlight(bad); err != nil {
			t.Fatal(err)
		}
		if r, err := d.InFlight("leaf1"); err == nil || !strings.Contains(err.Error(), "not a run name fabricgen makes") {
			t.Errorf("%+v read back as %+v, %v", bad, r, err)
		}
	}
	for _, ok := range []string{"fabricgen-20261201-000000-deadbeef", "fabricgen-x"} {
		if !ValidRunID(ok) {
			t.Errorf("ValidRunID(%q) = false", ok)
		}
	}
}

func TestInFlightAndAppliedRecords(t *testing.T) {
	d := ForFabric(t.TempDir())
	if r, err := d.InFlight("leaf1"); r != nil || err != nil {
		t.Fatalf("no record yet: %v %v", r, err)
	}
	in := InFlight{Run: "fabricgen-x", Device: "leaf1", Step: "stage", Txn: "fabricgen-x", Rendered: "hostname leaf1\n"}
	if err := d.WriteInFlight(in); err != nil {
		t.Fatal(err)
	}
	got, err := d.InFlight("leaf1")
	if err != nil || got == nil || got.Step != "stage" || got.Rendered != in.Rendered {
		t.Fatalf("read back %+v %v", got, err)
	}
	if err := d.ClearInFlight("leaf1"); err != nil {
		t.Fatal(err)
	}
	if r, _ := d.InFlight("leaf1"); r != nil {
		t.Error("record still there after ClearInFlight")
	}
	if err := d.WriteApplied(Applied{Device: "leaf1", Rendered: "x"}); err != nil {
		t.Fatal(err)
	}
	if a, err := d.Applied("leaf1"); err != nil || a == nil || a.Rendered != "x" {
		t.Fatalf("applied record: %+v %v", a, err)
	}
	// A corrupt record is an error, not silently "none".
	p := filepath.Join(d.Path, "inflight", "leaf2.json")
	_ = os.MkdirAll(filepath.Dir(p), 0o700)
	_ = os.WriteFile(p, []byte("{not json"), 0o600)
	if _, err := d.InFlight("leaf2"); err == nil {
		t.Error("a corrupt in-flight record read as none")
	}
	// A record that is a link (to /dev/zero, or to a file anywhere) is
	// refused, named, and not followed.
	z := filepath.Join(d.Path, "inflight", "leaf3.json")
	if err := os.Symlink("/dev/zero", z); err != nil {
		t.Fatal(err)
	}
	if _, err := d.InFlight("leaf3"); err == nil || !errors.Is(err, ErrLinkedState) || !strings.Contains(err.Error(), "leaf3.json") {
		t.Errorf("in-flight record -> /dev/zero: %v, want it refused as a link and named", err)
	}
	// A lock file replaced by /dev/zero: its holder is unreadable, not
	// read without end.
	if h := readHolder("/dev/zero"); h != nil {
		t.Errorf("readHolder(/dev/zero) = %+v", h)
	}
}

func TestRunIDsAreUnique(t *testing.T) {
	now := time.Now()
	seen := map[string]bool{}
	for range 200 {
		id, err := NewRunID(now)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(id, RunPrefix) || seen[id] {
			t.Fatalf("run id %q repeated or malformed", id)
		}
		seen[id] = true
	}
}

func TestRollbackBackupsAreMarked(t *testing.T) {
	d := ForFabric(t.TempDir())
	now := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	if _, err := d.SaveBackup("leaf1", "before apply", now); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SaveRollbackBackup("leaf1", "before rollback", now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	bs, err := d.Backups("leaf1")
	if err != nil || len(bs) != 2 {
		t.Fatalf("%+v %v", bs, err)
	}
	if bs[0].BeforeRollback || !bs[1].BeforeRollback || !strings.HasSuffix(bs[1].Path, ".before-rollback.cfg") {
		t.Errorf("backups %+v", bs)
	}
}

// TestRecordPathsStayInTheStateDirectory: every path an in-flight record
// holds resolves inside the device's backup folder of the state
// directory reading it (or of --backup-dir): a backup naming /etc/passwd,
// another device's folder, a ".." path or a link is refused, naming the
// record; a record of another device is refused; a backup of the right
// form is looked up by its name in this state directory whatever folder
// the record names.
func TestRecordPathsStayInTheStateDirectory(t *testing.T) {
	const stamp = "20261201T101500.000000000Z.cfg"
	tests := []struct {
		name   string
		rec    InFlight
		setup  func(t *testing.T, d Dir)
		want   string // "" when the record reads back
		backup string // the backup path read back, relative to the backup root
	}{
		{name: "absolute path outside", rec: InFlight{Device: "leaf4", Backup: "/etc/passwd"}, want: "not a backup fabricgen writes"},
		{name: "dot-dot path", rec: InFlight{Device: "leaf4", Backup: "../../../../etc/passwd"}, want: "not a backup fabricgen writes"},
		{name: "backup name in another device's folder", rec: InFlight{Device: "leaf4", Backup: "/x/.fabricgen/backups/leaf1/" + stamp}, want: "not a backup fabricgen writes"},
		{name: "backup name under dot-dot", rec: InFlight{Device: "leaf4", Backup: "backups/leaf4/../../" + stamp}, want: "not a backup fabricgen writes"},
		{name: "other device's record", rec: InFlight{Device: "../leaf1", Backup: ""}, want: `names device "../leaf1", not leaf4`},
		{name: "backup of the right form elsewhere", rec: InFlight{Device: "leaf4", Backup: "/tmp/elsewhere/leaf4/" + stamp}, backup: "leaf4/" + stamp},
		{name: "backup as written, relative", rec: InFlight{Device: "leaf4", Backup: "fabric/.fabricgen/backups/leaf4/" + stamp}, backup: "leaf4/" + stamp},
		{name: "backup file is a link", rec: InFlight{Device: "leaf4", Backup: "x/leaf4/" + stamp}, setup: func(t *testing.T, d Dir) {
			dir := filepath.Join(d.Path, "backups", "leaf4")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, stamp)); err != nil {
				t.Fatal(err)
			}
		}, want: "symlink in the state directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := ForFabric(t.TempDir())
			if tc.setup != nil {
				tc.setup(t, d)
			}
			tc.rec.Run = "fabricgen-x"
			// Written by hand, as an edit would: WriteInFlight names the
			// file after the record's device.
			p := filepath.Join(d.Path, "inflight", "leaf4.json")
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(tc.rec)
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := d.InFlight("leaf4")
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "leaf4.json") {
					t.Fatalf("read back %+v, %v; want an error naming leaf4.json with %q", got, err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(d.Path, "backups", filepath.FromSlash(tc.backup)); got.Backup != want {
				t.Errorf("backup read back as %s, want %s", got.Backup, want)
			}
			if got.RecordedBackup != tc.rec.Backup {
				t.Errorf("RecordedBackup = %q", got.RecordedBackup)
			}
		})
	}
}

// TestRecordsSignedWithTheKey: with a key, records are written signed and
// read back verified; an edited record, an unsigned one, or one signed
// with another key is refused naming the file and what to do. Without a
// key a record reads back unverified, signed or not.
func TestRecordsSignedWithTheKey(t *testing.T) {
	key, other := []byte("k1"), []byte("k2")
	appliedPath := func(d Dir) string { return filepath.Join(d.Path, "applied", "spine2.json") }
	tests := []struct {
		name         string
		writeKey     []byte
		edit         func(t *testing.T, d Dir)
		readKey      []byte
		want         string // "" when it reads back
		wantVerified bool
	}{
		{name: "signed, read with the key", writeKey: key, readKey: key, wantVerified: true},
		{name: "signed, read without a key", writeKey: key, readKey: nil},
		{name: "unsigned, read without a key", writeKey: nil, readKey: nil},
		{name: "unsigned, read with the key", writeKey: nil, readKey: key, want: "is not signed, but FABRICGEN_PLAN_KEY is set"},
		{name: "signed with another key", writeKey: other, readKey: key, want: "signature does not match"},
		{name: "another team's ACL appended", writeKey: key, readKey: key, edit: func(t *testing.T, d Dir) {
			b, err := os.ReadFile(appliedPath(d))
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.Replace(b, []byte(`"rendered": "ip access-list FG-ROCE\n`), []byte(`"rendered": "ip access-list MGMT-SSH\nip access-list FG-ROCE\n`), 1)
			if err := os.WriteFile(appliedPath(d), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}, want: "signature does not match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := ForFabric(t.TempDir())
			d.Key = tc.writeKey
			if err := d.WriteApplied(Applied{Device: "spine2", Platform: "probe_os", Rendered: "ip access-list FG-ROCE\n   10 permit udp any any eq 4791\n"}); err != nil {
				t.Fatal(err)
			}
			if err := d.WriteInFlight(InFlight{Run: "fabricgen-x", Device: "spine2", Rendered: "x"}); err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(t, d)
			}
			d.Key = tc.readKey
			a, err := d.Applied("spine2")
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "spine2.json") {
					t.Fatalf("read back %+v, %v; want an error naming spine2.json with %q", a, err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Verified != tc.wantVerified {
				t.Errorf("applied record Verified = %v, want %v", a.Verified, tc.wantVerified)
			}
			f, err := d.InFlight("spine2")
			if err != nil || f.Verified != tc.wantVerified {
				t.Errorf("in-flight record: %+v, %v; want Verified %v", f, err, tc.wantVerified)
			}
		})
	}
}
