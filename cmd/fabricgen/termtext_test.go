package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
)

// termPayloads are what a hostile lock file, plan, state record,
// inventory or device puts in a field to act on the operator's terminal.
var termPayloads = map[string]string{
	"ESC":             "a\x1bb",
	"BEL":             "a\ab",
	"CSI clear":       "a\x1b[2Jb",
	"OSC title":       "a\x1b]0;pwned\ab",
	"C1 CSI":          "a\u009b2Jb",
	"C1 OSC":          "a\u009d0;pwned\u009cb",
	"bidi override":   "a\u202eb",
	"bidi isolate":    "a\u2066b\u2069",
	"carriage return": "a\rb",
	"DEL":             "a\x7fb",
	"SGR conceal":     "a\x1b[8mb",
}

// rawControl returns the first control or invisible character of out
// other than a newline or tab, or "".
func rawControl(out string) string {
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f, r >= 0x80 && r < 0xa0, unicode.Is(unicode.Cf, r), r == utf8.RuneError:
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// TestNoRawControlReachesTheTerminal feeds every payload through every
// field of a plan, an apply or rollback result, a rollback preview, a
// drift result, a progress event, an error and the lock holder, into the
// writers that print them, and wants no raw control or invisible
// character in the output, and the payload shown escaped.
func TestNoRawControlReachesTheTerminal(t *testing.T) {
	sw, swB, _ := pickPlatforms(t)
	sinks := []struct {
		name  string
		write func(w *bytes.Buffer, p string)
	}{
		{"plan: device in error (name, platform, address, error)", func(w *bytes.Buffer, p string) {
			writePlanHuman(w, &planfile.Plan{Devices: []*planfile.Device{{Name: "n" + p, Platform: "pl" + p, Address: "ad" + p, Status: planfile.StatusError, Error: "device said " + p}}}, nil, planView{})
		}},
		{"plan: changing device (name, address, diff, takeover)", func(w *bytes.Buffer, p string) {
			writePlanHuman(w, &planfile.Plan{Devices: []*planfile.Device{{Name: "n" + p, Platform: sw, Address: "ad" + p, Status: planfile.StatusChange,
				Takeover: []string{"line " + p}, Diff: config.Diff{Added: 1, Removed: 1, Text: "--- a\n+++ b\n@@ -1 +1 @@\n-old " + p + "\n+new " + p + "\n"}}}}, []string{"skipped" + p}, planView{})
		}},
		{"plan: unchanged device", func(w *bytes.Buffer, p string) {
			writePlanHuman(w, &planfile.Plan{Devices: []*planfile.Device{{Name: "n" + p, Status: planfile.StatusUnchanged}}}, nil, planView{})
		}},
		{"plan: host settings", func(w *bytes.Buffer, p string) {
			writeHostSettings(w, "-ens1 trust = "+p+"\n+ens1 trust = dscp"+p+"\n", func(s string) string { return s }, func(s string) string { return s })
		}},
		{"plan markdown", func(w *bytes.Buffer, p string) {
			_ = planMarkdown{Limit: 60000}.write(w, &planfile.Plan{Fabric: "f" + p, Devices: []*planfile.Device{
				{Name: "n" + p, Platform: sw, Address: "ad" + p, Status: planfile.StatusChange, Diff: config.Diff{Added: 1, Text: "--- a\n+++ b\n@@ -1 +1 @@\n+new " + p + "\n"}},
				{Name: "e" + p, Platform: swB, Status: planfile.StatusError, Error: "device said " + p},
			}}, []string{"s" + p})
		}},
		{"apply results (name, platform, reason, backup, restore)", func(w *bytes.Buffer, p string) {
			_ = writeResults(w, "Apply", []push.Result{{Device: "n" + p, Platform: "pl" + p, Status: push.StatusFailed, Reason: "the device rejected " + p, Backup: "/b/" + p, Restore: "fabricgen rollback " + p}}, nil)
		}},
		{"apply: the device's own diff", func(w *bytes.Buffer, p string) {
			writeDeviceDiffs(w, []push.Result{{Device: "n" + p, Platform: sw, DeviceDiff: "+ line " + p + "\n"}})
		}},
		{"rollback preview (error; restore with cleanup and diff)", func(w *bytes.Buffer, p string) {
			writeRollbackPreview(w, []*push.RollbackPreview{
				{Device: "n" + p, Platform: "pl" + p, Address: "ad" + p, Error: "e " + p},
				{Device: "m" + p, Platform: sw, Address: "ad" + p, Backup: "/b/" + p, Cleanup: []string{"c " + p}, Diff: config.Diff{Added: 1, Text: "+x " + p + "\n"}},
			})
		}},
		{"drift (name, error, run, diff)", func(w *bytes.Buffer, p string) {
			writeDriftText(w, []push.DriftResult{
				{Device: "n" + p, Platform: sw, Status: push.DriftError, Error: "e " + p},
				{Device: "m" + p, Platform: sw, Status: push.DriftDrifted, LastApplied: time.Unix(1, 0), Run: "r" + p, Drift: config.Diff{Added: 1, Text: "+x " + p + "\n"}},
			})
		}},
		{"drift markdown", func(w *bytes.Buffer, p string) {
			writeDriftMarkdown(w, "f"+p, []push.DriftResult{{Device: "m" + p, Platform: sw, Status: push.DriftDrifted, Drift: config.Diff{Added: 1, Text: "+x " + p + "\n"}}})
		}},
		{"progress", func(w *bytes.Buffer, p string) {
			pr := newPlainProgress(w, "applying", time.Now, nil)
			pr.everyStep = true
			pr.event(push.Event{Device: "n" + p, Step: "step " + p})
		}},
		{"an error (a device's rejection)", func(w *bytes.Buffer, p string) {
			s, _, errb := pushStreams("")
			s.chdir = func(string) error { return errors.New("refused " + p) }
			run(context.Background(), []string{"-chdir=x", "version"}, s)
			w.WriteString(errb.String())
		}},
		{"the lock file's holder", func(w *bytes.Buffer, p string) {
			e := &state.LockedError{Path: "lock", Holder: &state.Holder{PID: 7, User: "u" + p, Host: "h" + p, Command: "c" + p, Started: time.Unix(0, 0)}}
			w.WriteString(e.Error())
		}},
	}
	for _, sink := range sinks {
		for name, p := range termPayloads {
			t.Run(sink.name+"/"+name, func(t *testing.T) {
				var w bytes.Buffer
				sink.write(&w, p)
				out := w.String()
				if c := rawControl(out); c != "" {
					t.Errorf("raw %s in the output:\n%q", c, out)
				}
				// Shown escaped (\x1b, \u202e; &#27; in Markdown), not dropped.
				if !strings.Contains(out, `\`) && !strings.Contains(out, "&#") {
					t.Errorf("the payload is not shown escaped:\n%q", out)
				}
			})
		}
	}
}

// TestHostileFilesEndToEnd runs the CLI on a lock file whose holder and
// an inventory whose address hold terminal escapes: what plan, apply and
// rollback print carries none of them raw.
func TestHostileFilesEndToEnd(t *testing.T) {
	dir := t.TempDir()
	writeInterruptFabric(t, dir, "")
	t.Chdir(dir)
	for name, p := range termPayloads {
		t.Run(name, func(t *testing.T) {
			inv := filepath.Join(dir, "inventory.json")
			b, err := json.Marshal(map[string]string{"leaf1": "192.0.2.1" + p + ":22"})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(inv, b, 0o600); err != nil {
				t.Fatal(err)
			}
			s, out, errb := pushStreams("")
			run(context.Background(), []string{"plan", "fabric", "--inventory", inv, "--insecure-ignore-host-key", "--timeout", "2s"}, s)
			if c := rawControl(out.String() + errb.String()); c != "" {
				t.Errorf("plan with a hostile inventory address printed a raw %s:\n%q\n%q", c, out, errb)
			}
			if !strings.Contains(out.String()+errb.String(), "192.0.2.1") {
				t.Errorf("plan does not name the address:\n%s\n%s", out, errb)
			}

			held, err := state.ForFabric("fabric").Lock(context.Background(), state.Holder{PID: 31337, User: "u" + p, Host: "h" + p, Command: "c" + p, Started: time.Now()}, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = held.Release() }()
			for _, args := range [][]string{{"apply", "fabric", "-auto-approve", "--inventory", inv, "--insecure-ignore-host-key"}, {"rollback", "leaf1", "--fabric", "fabric", "--insecure-ignore-host-key"}} {
				s, out, errb := pushStreams("")
				run(context.Background(), args, s)
				all := out.String() + errb.String()
				if c := rawControl(all); c != "" {
					t.Errorf("%s with a hostile lock holder printed a raw %s:\n%q", args[0], c, all)
				}
				if !strings.Contains(all, "pid 31337") {
					t.Errorf("%s does not name the holder:\n%s", args[0], all)
				}
			}
		})
	}
}
