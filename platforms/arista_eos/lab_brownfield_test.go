package aristaeos_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestEOSRestoreWholeConfigInSession: a backup of a brownfield device,
// typed line by line into a session after rollback clean-config (how a
// backup is restored through the platform's transaction), gives back
// exactly the configuration the backup holds, banner and opaque stanzas
// included.
func TestEOSRestoreWholeConfigInSession(t *testing.T) {
	text := readBrownfield(t)
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf1", Platform: plat().Name, RunningConfig: text})
	dev := l.Device("leaf1")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet3", "   mtu 9000", "no router bgp 65101"}); err != nil {
		t.Fatal(err)
	}
	if dev.Export() == text {
		t.Fatal("the out-of-band change did not take")
	}
	sh := labtest.OpenShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	sh.Run("configure session restore")
	sh.Run("rollback clean-config")
	inBanner := false
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !inBanner && (strings.HasPrefix(strings.TrimSpace(line), "!") || line == "end") {
			continue
		}
		out := sh.Run(line)
		switch {
		case strings.HasPrefix(line, "banner "):
			inBanner = true
		case line == "EOF":
			inBanner = false
		}
		if strings.Contains(out, "% ") {
			t.Fatalf("%q: %q", line, out)
		}
	}
	if out := sh.Run("commit"); out != "" {
		t.Fatalf("commit: %q", out)
	}
	if got := dev.Export(); got != text {
		t.Errorf("restored configuration differs from the backup:\n%s", cli.UnifiedDiff("backup", "restored", text, got))
	}
}

// readBrownfield reads the folder's brownfield configuration.
func readBrownfield(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "brownfield.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
