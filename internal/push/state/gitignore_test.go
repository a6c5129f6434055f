package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGitignoreWrittenOnceAndKept: creating a state directory writes its
// .gitignore; one the team wrote is kept.
func TestGitignoreWrittenOnceAndKept(t *testing.T) {
	for _, tc := range []struct {
		name, existing, want string
	}{
		{"created", "", Gitignore},
		{"the team's own", "backups/\n", "backups/\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ForFabric(t.TempDir())
			if tc.existing != "" {
				if err := os.MkdirAll(d.Path, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d.Path, GitignoreName), []byte(tc.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := d.SaveBackup("leaf1", "x\n", time.Now()); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(d.Path, GitignoreName))
			if err != nil || string(b) != tc.want {
				t.Errorf(".gitignore = %q, %v; want %q", b, err, tc.want)
			}
		})
	}
}

func TestEnclosingDir(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		ok         bool
	}{
		{".fabricgen/lab", ".fabricgen", true},
		{"fabric/.fabricgen/lab/", "fabric/.fabricgen", true},
		{"/srv/x/.fabricgen", "/srv/x/.fabricgen", true},
		{"lab", "", false},
		{"/tmp/lab", "", false},
	} {
		got, ok := EnclosingDir(tc.path)
		if got != filepath.FromSlash(tc.want) || ok != tc.ok {
			t.Errorf("EnclosingDir(%q) = %q %v, want %q %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
