package lab

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// brownfieldCase is a platform folder's lab brownfield case: its
// realistic existing configuration (testdata/brownfield.<ext>, in the
// lab's own normalised form, so loading and printing it gives back the
// same text) and what the tests type over SSH (testdata/lab/brownfield.json).
type brownfieldCase struct {
	// Ports are the lab host's interfaces (hosts only).
	Ports  []string `json:"ports,omitempty"`
	Prompt string   `json:"prompt"`
	// Show is the command that prints the form the file is in (empty:
	// none; a host's form is its export).
	Show string `json:"show,omitempty"`
	// Change is a change typed over SSH; Changed the lines it alters.
	Change  []string `json:"change"`
	Changed []string `json:"changed,omitempty"`
	// RestoreRemove removes lines the lab has no grammar for, Restore
	// types them again, as restoring a backup does (optional).
	RestoreRemove []string `json:"restore_remove,omitempty"`
	Restore       []string `json:"restore,omitempty"`

	platform schema.Platform
	file     string
	text     string
}

// brownfieldCases reads every registry platform's brownfield case; a
// folder without one fails, naming it (every folder has one).
func brownfieldCases(t *testing.T) []brownfieldCase {
	t.Helper()
	var out []brownfieldCase
	for _, f := range platformtest.All(filepath.Join("..", "..")) {
		var c brownfieldCase
		if err := f.LabData("brownfield", &c); err != nil {
			t.Fatal(err)
		}
		path, text, err := f.Brownfield()
		if err != nil {
			t.Fatal(err)
		}
		c.platform, c.file, c.text = f.Platform.Name, filepath.ToSlash(path), text
		out = append(out, c)
	}
	return out
}

// TestBrownfieldRoundTrip starts each platform from a realistic existing
// configuration full of things the lab has no grammar for, reads it back
// over SSH in the same form, changes one thing, and expects every other
// line to stay.
func TestBrownfieldRoundTrip(t *testing.T) {
	for _, c := range brownfieldCases(t) {
		t.Run(string(c.platform), func(t *testing.T) {
			text := c.text
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.Ports, RunningConfig: text})
			dev := l.Device("leaf1")
			want := text
			if platforms.IsHost(c.platform) {
				// A host's form is its state as commands: loading that
				// again gives the same state and the same text.
				want = dev.Export()
				again := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.Ports, RunningConfig: want})
				if got := again.Device("leaf1").Export(); got != want {
					t.Fatalf("host export is not stable:\n%s", cli.UnifiedDiff("first", "second", want, got))
				}
				if a, b := dev.RunningConfig(), again.Device("leaf1").RunningConfig(); a != b {
					t.Fatalf("replaying the export gives another state:\n%s", cli.UnifiedDiff("loaded", "replayed", a, b))
				}
			}
			if got := dev.Export(); stripNXOSHeader(got) != stripNXOSHeader(want) {
				t.Fatalf("export differs from the file:\n%s", cli.UnifiedDiff(c.file, "export", want, got))
			}
			crlf := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.Ports, RunningConfig: strings.ReplaceAll(text, "\n", "\r\n")})
			if got := crlf.Device("leaf1").Export(); stripNXOSHeader(got) != stripNXOSHeader(dev.Export()) {
				t.Errorf("CRLF file loads differently:\n%s", cli.UnifiedDiff("LF", "CRLF", dev.Export(), got))
			}
			sh := openShell(t, l, "leaf1", c.Prompt)
			if c.Show != "" {
				sh.run("terminal length 0")
				if got := strings.ReplaceAll(sh.run(c.Show), "\r", ""); stripNXOSHeader(got) != stripNXOSHeader(want) {
					t.Errorf("%s over SSH differs from the file:\n%s", c.Show, cli.UnifiedDiff(c.file, c.Show, want, got))
				}
			}
			for _, cmd := range c.Change {
				out := sh.run(cmd)
				if strings.Contains(out, "rror") || strings.Contains(out, "% ") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			after := dev.Export()
			if after == want {
				t.Fatalf("the change did not take")
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(after, "\n") {
				lines[l] = true
			}
		next:
			for _, l := range strings.Split(want, "\n") {
				if lines[l] || strings.HasPrefix(l, "!Time:") || strings.HasPrefix(l, "!Running configuration") || strings.HasPrefix(l, "## Last commit") {
					continue
				}
				for _, ch := range c.Changed {
					if strings.HasPrefix(l, ch) {
						continue next
					}
				}
				t.Errorf("line %q of the existing configuration is gone after an unrelated change", l)
			}
		})
	}
}

// TestBrownfieldRestoreOpaque: lines the lab has no grammar for, removed
// and typed again (as restoring a backup does), are accepted and print
// back where they were.
func TestBrownfieldRestoreOpaque(t *testing.T) {
	for _, c := range brownfieldCases(t) {
		if len(c.RestoreRemove) == 0 {
			continue
		}
		t.Run(string(c.platform), func(t *testing.T) {
			text := c.text
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, RunningConfig: text})
			dev := l.Device("leaf1")
			sh := openShell(t, l, "leaf1", c.Prompt)
			for _, cmd := range c.RestoreRemove {
				if out := sh.run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			if strings.Contains(dev.Export(), "\nrouter ospf 1\n") {
				t.Fatal("no router ospf 1 did not remove the opaque stanza")
			}
			for _, cmd := range c.Restore {
				if out := sh.run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			if got := dev.Export(); stripNXOSHeader(got) != stripNXOSHeader(text) {
				t.Errorf("restored configuration differs:\n%s", cli.UnifiedDiff(c.file, "restored", text, got))
			}
		})
	}
}

func TestRunningConfigErrors(t *testing.T) {
	// A saved configuration over the limit is refused on every platform,
	// naming the device; each folder tests its own syntax errors
	// (platforms/<name>/lab_runningconfig_test.go).
	text := strings.Repeat("x", MaxRunningConfig+1)
	const want = "more than the 16777216"
	for _, p := range platforms.NamesNeeding("lab emulator") {
		t.Run(string(p), func(t *testing.T) {
			l, err := Start(context.Background(), []DeviceSpec{{Name: "d1", Platform: p, Username: testUser, Password: testPass, RunningConfig: text}}, Options{Dir: t.TempDir()})
			if err == nil {
				_ = l.Close()
				t.Fatalf("Start succeeded, want an error containing %q", want)
			}
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "d1") {
				t.Errorf("error %q does not name the device and %q", err, want)
			}
		})
	}
}
