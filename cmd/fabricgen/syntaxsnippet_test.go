package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSyntaxErrorShowsItsLine: a load that stops at a syntax error has no
// fabric to take the file's text from; the error still shows its source
// line with the range marked, in validate and in lint, like every other
// error.
func TestSyntaxErrorShowsItsLine(t *testing.T) {
	dir := t.TempDir()
	pl, _ := plainSwitch(t)
	// The error is a syntax error in line 4, found before any platform
	// rule runs, so the port name need not be the platform's.
	src := fmt.Sprintf("device \"x\" {\n  kind     = \"leaf\"\n  platform = %q\n  port \"Ethernet1\" { speed = \"100G\" mtu = 9000 }\n}\n", pl.Name)
	if err := os.WriteFile(filepath.Join(dir, "bad.fab.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"validate", "lint"} {
		t.Run(cmd, func(t *testing.T) {
			s, out, errb := pushStreams("")
			if code := run(context.Background(), []string{cmd, dir}, s); code != exitFailed {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errb)
			}
			text := out.String() + errb.String()
			for _, w := range []string{
				"bad.fab.hcl:4:37: error",
				`  4 |   port "Ethernet1" { speed = "100G" mtu = 9000 }`,
				"^^^",
			} {
				if !strings.Contains(text, w) {
					t.Errorf("output lacks %q:\n%s", w, text)
				}
			}
		})
	}

	// A -var-file is not one of the fabric's files: its error shows its
	// line too.
	vf := filepath.Join(t.TempDir(), "site.tfvars")
	if err := os.WriteFile(vf, []byte("leaves = 4\nsite = \"dc1\" +\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := t.TempDir()
	writeInterruptFabric(t, good, "")
	s, out, errb := pushStreams("")
	if code := run(context.Background(), []string{"validate", filepath.Join(good, "fabric"), "-var-file", vf}, s); code != exitFailed {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errb)
	}
	for _, w := range []string{"site.tfvars:2:", `  2 | site = "dc1" +`} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, errb)
		}
	}
}
