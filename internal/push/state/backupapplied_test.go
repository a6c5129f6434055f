package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBackupKeepsTheAppliedRecord: a backup has the device's last-applied
// record of its time beside it ("none" before any apply); a signed record
// edited there is refused by name, an unsigned one comes back unverified;
// a backup elsewhere (--to FILE) has none; pruning takes it with its
// backup.
func TestBackupKeepsTheAppliedRecord(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     []byte
		edit    bool
		wantErr string
		wantVer bool
	}{
		{"unsigned", nil, false, "", false},
		{"signed", []byte("k"), false, "", true},
		{"signed and edited", []byte("k"), true, "signature does not match", false},
		{"unsigned and edited", nil, true, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ForFabric(t.TempDir())
			d.Key = tc.key
			t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			first, err := d.SaveBackup("leaf1", "before any apply\n", t0)
			if err != nil {
				t.Fatal(err)
			}
			if br, err := d.BackupApplied("leaf1", first); err != nil || !br.Known || br.Applied != nil {
				t.Fatalf("backup before any apply: %+v %v, want known and no record", br, err)
			}
			if err := d.WriteApplied(Applied{Device: "leaf1", Platform: "arista_eos", Run: "fabricgen-1", Rendered: "intent A\n"}); err != nil {
				t.Fatal(err)
			}
			second, err := d.SaveBackup("leaf1", "after A\n", t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			side := strings.TrimSuffix(second, ".cfg") + ".applied.json"
			if tc.edit {
				b, err := os.ReadFile(side)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(side, []byte(strings.Replace(string(b), "intent A", "intent X", 1)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			br, err := d.BackupApplied("leaf1", second)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), side) {
					t.Fatalf("edited signed record: %v, want %q naming %s", err, tc.wantErr, side)
				}
				return
			}
			if err != nil || !br.Known || br.Applied == nil || br.Applied.Verified != tc.wantVer {
				t.Fatalf("BackupApplied: %+v %v", br, err)
			}
			if want := map[bool]string{false: "intent A\n", true: "intent X\n"}[tc.edit]; br.Applied.Rendered != want {
				t.Errorf("record beside the backup: %q, want %q", br.Applied.Rendered, want)
			}
			// A copy of the backup elsewhere has no record.
			other := filepath.Join(t.TempDir(), filepath.Base(second))
			if err := os.WriteFile(other, []byte("after A\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if br, err := d.BackupApplied("leaf1", other); err != nil || br.Known {
				t.Errorf("a backup elsewhere: %+v %v, want unknown", br, err)
			}
			if err := d.PruneBackups("leaf1", 1); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(strings.TrimSuffix(first, ".cfg") + ".applied.json"); !os.IsNotExist(err) {
				t.Errorf("the pruned backup's record stays: %v", err)
			}
		})
	}
}
