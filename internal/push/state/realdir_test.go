package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStateDirLinksRefused: the state directory lives in a checkout, so a
// pull request can commit links in it. Each link below would make apply
// truncate, write or prune a file outside the fabric; each is refused,
// and the file the link points at is left as it was.
func TestStateDirLinksRefused(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	victimFile := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "authorized_keys")
		if err := os.WriteFile(p, []byte("ssh-ed25519 AAAA operator\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	intact := func(t *testing.T, p string) {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "ssh-ed25519 AAAA operator\n" {
			t.Errorf("%s changed: %q, %v", p, b, err)
		}
	}
	for _, c := range []struct {
		name string
		// setup plants the link in the fabric directory fab and returns
		// the file or folder it points at.
		setup func(t *testing.T, fab string) string
		act   func(d Dir) error
	}{
		{"state directory is a link", func(t *testing.T, fab string) string {
			victim := t.TempDir()
			mustSymlink(t, victim, filepath.Join(fab, DirName))
			return victim
		}, func(d Dir) error { _, err := d.Lock(context.Background(), Me("apply", now), 0); return err }},
		{"lock file is a link", func(t *testing.T, fab string) string {
			v := victimFile(t)
			mustMkdir(t, filepath.Join(fab, DirName))
			mustSymlink(t, v, filepath.Join(fab, DirName, "lock"))
			return v
		}, func(d Dir) error { _, err := d.Lock(context.Background(), Me("apply", now), 0); return err }},
		{"a device's backup folder is a link (save)", func(t *testing.T, fab string) string {
			victim := t.TempDir()
			mustMkdir(t, filepath.Join(fab, DirName, "backups"))
			mustSymlink(t, victim, filepath.Join(fab, DirName, "backups", "leaf1"))
			return victim
		}, func(d Dir) error { _, err := d.SaveBackup("leaf1", "hostname leaf1\n", now); return err }},
		{"a device's backup folder is a link (prune)", func(t *testing.T, fab string) string {
			victim := t.TempDir()
			for _, n := range []string{"20260101T000000Z.cfg", "20260102T000000Z.cfg"} {
				if err := os.WriteFile(filepath.Join(victim, n), []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			mustMkdir(t, filepath.Join(fab, DirName, "backups"))
			mustSymlink(t, victim, filepath.Join(fab, DirName, "backups", "leaf1"))
			return victim
		}, func(d Dir) error { return d.PruneBackups("leaf1", 1) }},
		{"the in-flight folder is a link", func(t *testing.T, fab string) string {
			victim := t.TempDir()
			mustMkdir(t, filepath.Join(fab, DirName))
			mustSymlink(t, victim, filepath.Join(fab, DirName, "inflight"))
			return victim
		}, func(d Dir) error { return d.WriteInFlight(InFlight{Run: "fabricgen-x", Device: "leaf1"}) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fab := t.TempDir()
			target := c.setup(t, fab)
			before := listing(t, target)
			err := c.act(ForFabric(fab))
			if !errors.Is(err, ErrLinkedState) {
				t.Fatalf("err = %v, want a refusal of the link", err)
			}
			if after := listing(t, target); after != before {
				t.Errorf("the link's target changed:\nbefore %s\nafter  %s", before, after)
			}
			if st, err := os.Stat(target); err == nil && !st.IsDir() {
				intact(t, target)
			}
		})
	}

	// A --backup-dir the operator chose may itself be a link.
	real := t.TempDir()
	chosen := filepath.Join(t.TempDir(), "backups")
	mustSymlink(t, real, chosen)
	d := Dir{Path: filepath.Join(t.TempDir(), DirName), BackupRoot: chosen}
	if _, err := d.SaveBackup("leaf1", "hostname leaf1\n", now); err != nil {
		t.Fatalf("a linked --backup-dir: %v", err)
	}
	if bs, err := d.Backups("leaf1"); err != nil || len(bs) != 1 {
		t.Fatalf("backups under a linked --backup-dir: %v %v", bs, err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
}

// listing names what is in p (a folder) or its size (a file).
func listing(t *testing.T, p string) string {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		return err.Error()
	}
	if !st.IsDir() {
		b, _ := os.ReadFile(p)
		return string(b)
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return err.Error()
	}
	s := ""
	for _, e := range ents {
		s += e.Name() + " "
	}
	return s
}
