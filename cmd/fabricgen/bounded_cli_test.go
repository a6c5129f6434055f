package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestBoundedCLIFiles runs fabricgen on files that never end, under a
// 2 GiB address-space limit (prlimit, from util-linux): each is refused
// with exit 1 and the file named, never read to the end.
func TestBoundedCLIFiles(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("prlimit not found (install util-linux); CI=true, so this fails instead of skipping")
		}
		t.Skip("prlimit not found: install util-linux to run fabricgen under a 2 GiB limit")
	}
	bin := relBinary(t)
	dir := t.TempDir()
	writeInterruptFabric(t, dir, "")
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"inventory /dev/zero", []string{"plan", "fabric", "--inventory", "/dev/zero", "--insecure-ignore-host-key"}, []string{"--inventory", "/dev/zero", "larger than"}},
		{"plan file /dev/zero", []string{"apply", "/dev/zero", "--insecure-ignore-host-key"}, []string{"/dev/zero", "not a fabricgen plan file"}},
		{"var file /dev/zero", []string{"validate", "fabric", "-var-file", "/dev/zero"}, []string{"/dev/zero", "larger than"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=2147483648", "--", bin}, c.args...)...)
			cmd.Dir = dir
			cmd.Env = relEnv()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitFailed {
				t.Errorf("exit %v, want status 1:\n%s", err, stderr.String())
			}
			for _, w := range append(c.want, "Error") {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), "fatal error") {
				t.Errorf("crashed:\n%s", stderr.String())
			}
		})
	}
}
