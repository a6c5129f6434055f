package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCLIRefusesNamedPipes puts a named pipe nobody writes at each path
// fabricgen reads (issue 21: each of the first six blocked forever) and runs
// the command that reads it: each must exit 1 within seconds, naming the
// path and "named pipe". The intent-file case is the one where the first
// SIGINT was ignored; it now never blocks, so no signal is needed.
func TestCLIRefusesNamedPipes(t *testing.T) {
	bin := relBinary(t)
	pl, _ := plainSwitch(t) // the platform of writeInterruptFabric's leaf1
	for _, c := range []struct {
		name string
		pipe string // under the case's directory
		args []string
	}{
		{"intent file", "fabric/pipe.fab.hcl", []string{"lint", "fabric"}},
		{".fabricgen.hcl", "fabric/.fabricgen.hcl", []string{"lint", "fabric"}},
		{"applied state record", "fabric/.fabricgen/applied/leaf1.json", []string{"rollback", "leaf1", "--fabric", "fabric", "--to", "backup.cfg", "--insecure-ignore-host-key", "-auto-approve"}},
		{"--templates file", fmt.Sprintf("tmpl/%s/device.tmpl", pl.Name), []string{"render", "fabric", "--templates", "tmpl", "-o", "out"}},
		{"--inventory", "inventory.json", []string{"plan", "fabric", "--inventory", "inventory.json", "--insecure-ignore-host-key"}},
		{"-var-file", "vars.hcl", []string{"validate", "fabric", "-var-file", "vars.hcl"}},
		// Not among the issue's six, found by TestEveryFileOpenIsBounded.
		{"--known-hosts", "known_hosts", []string{"plan", "fabric", "--known-hosts", "known_hosts"}},
		{"the fabric directory", "pipe", []string{"validate", "pipe"}},
		{"plan file", "plan.json", []string{"apply", "plan.json", "--insecure-ignore-host-key"}},
		{"import configuration", "leaf1.cfg", []string{"import", "--platform", "arista_eos", "-o", "imported", "leaf1.cfg"}},
		{"import --inventory", "inventory.json", []string{"import", "--platform", "arista_eos", "-o", "imported", "--inventory", "inventory.json", "--username", "admin", "--insecure-ignore-host-key"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "")
			if err := os.WriteFile(filepath.Join(dir, "backup.cfg"), []byte("{}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			pipe := filepath.Join(dir, filepath.FromSlash(c.pipe))
			if err := os.MkdirAll(filepath.Dir(pipe), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Fatal(err)
			}
			code, stderr, took := runCLI(t, bin, dir, 60*time.Second, c.args...)
			if code != exitFailed {
				t.Errorf("exit %d after %s, want %d:\n%s", code, took, exitFailed, stderr)
			}
			for _, w := range []string{filepath.Base(c.pipe), "named pipe"} {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if took > 20*time.Second {
				t.Errorf("took %s: the pipe was waited on", took)
			}
		})
	}
}

// TestCLIDeepLintConfig: a .fabricgen.hcl nesting 100,000 brackets (in
// the fabric's directory or a parent) crashed lint, render, plan and apply
// with a stack overflow that exited 2, like findings. Each must exit 1,
// naming .fabricgen.hcl:LINE:COLUMN and "nested too deeply".
func TestCLIDeepLintConfig(t *testing.T) {
	bin := relBinary(t)
	deep := "config {\n  x = " + strings.Repeat("[", issueDepth) + strings.Repeat("]", issueDepth) + " }\n"
	for _, where := range []string{"fabric", "."} {
		for _, args := range [][]string{
			{"lint", "fabric"},
			{"render", "fabric", "-o", "out"},
			{"plan", "fabric", "--insecure-ignore-host-key"},
			{"apply", "fabric", "-auto-approve", "--insecure-ignore-host-key"},
		} {
			t.Run(where+"/"+args[0], func(t *testing.T) {
				dir := t.TempDir()
				writeInterruptFabric(t, dir, "")
				if err := os.WriteFile(filepath.Join(dir, where, ".fabricgen.hcl"), []byte(deep), 0o600); err != nil {
					t.Fatal(err)
				}
				code, stderr, took := runCLI(t, bin, dir, 2*time.Minute, args...)
				if code != exitFailed {
					t.Errorf("exit %d after %s, want %d:\n%.3000s", code, took, exitFailed, stderr)
				}
				for _, bad := range []string{"fatal error", "goroutine ", "panic:"} {
					if strings.Contains(stderr, bad) {
						t.Fatalf("crashed (%q):\n%.3000s", bad, stderr)
					}
				}
				for _, w := range []string{".fabricgen.hcl:2:", "nested too deeply"} {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr lacks %q:\n%.3000s", w, stderr)
					}
				}
			})
		}
	}
}

// runCLI runs bin with args in dir and returns its exit code, output and
// how long it took; it fails the test when the command outlives limit.
func runCLI(t *testing.T, bin, dir string, limit time.Duration, args ...string) (int, string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = relEnv()
	// lint writes diagnostics to standard output (its format), the
	// other commands to standard error: both are read.
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%v still running after %s:\n%s", args, limit, stderr.String())
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, lowerFirstErr(stderr.String()), took
}

// lowerFirstErr makes the diagnostics' summary "Nested too deeply" match
// the errors' "nested too deeply".
func lowerFirstErr(s string) string {
	return strings.ReplaceAll(s, "Nested too deeply", "nested too deeply")
}

// TestCLITemplatesStayInside: render --templates once followed a
// device.tmpl symlinked to a secret and wrote the secret into leaf1.cfg,
// and ignored a misnamed platform folder. Both now exit 1 naming the
// file or folder, and nothing is written.
func TestCLITemplatesStayInside(t *testing.T) {
	bin := relBinary(t)
	pl, _ := plainSwitch(t) // the platform of writeInterruptFabric's leaf1
	name := string(pl.Name)
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir, secret string) error
		want  []string
	}{
		{"device.tmpl linked to a secret", func(t *testing.T, dir, secret string) error {
			return os.Symlink(secret, filepath.Join(dir, "tmpl", name, "device.tmpl"))
		}, []string{"device.tmpl is a symlink to", "outside the --templates folder"}},
		{"misnamed platform folder", func(t *testing.T, dir, _ string) error {
			if err := os.Rename(filepath.Join(dir, "tmpl", name), filepath.Join(dir, "tmpl", "bogus_os")); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "tmpl", "bogus_os", "device.tmpl"), []byte("x\n"), 0o600)
		}, []string{"bogus_os is not named after a platform", name}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "")
			secret := filepath.Join(t.TempDir(), "shadow")
			if err := os.WriteFile(secret, []byte("root:$6$secret-hash\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "tmpl", name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.setup(t, dir, secret); err != nil {
				t.Fatal(err)
			}
			code, out, _ := runCLI(t, bin, dir, time.Minute, "render", "fabric", "--templates", "tmpl", "-o", "out")
			if code != exitFailed {
				t.Errorf("exit %d, want %d:\n%s", code, exitFailed, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "secret-hash") {
				t.Errorf("the secret reached the output:\n%s", out)
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "leaf1."+pl.Render.Ext)); err == nil {
				t.Errorf("out/leaf1.%s was written", pl.Render.Ext)
			}
		})
	}
}

// TestCLIWritesRefuseNamedPipes: the files fabricgen writes by a path it
// is given refuse a named pipe at once instead of waiting for a reader
// (`plan -out PIPE` blocked forever and ignored its first SIGTERM): plan
// -out and graph -o each exit 1 naming the path and "named pipe", and
// write nothing into the pipe.
func TestCLIWritesRefuseNamedPipes(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	for _, c := range []struct {
		name, pipe string
		args       []string
		devices    bool // the command talks to the lab's devices
	}{
		{"plan -out", "plan.pipe", []string{"plan", "fabric", "-out", "plan.pipe"}, true},
		{"graph -o", "graph.pipe", []string{"graph", "fabric", "-o", "graph.pipe"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pipe := filepath.Join(r.dir, c.pipe)
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan string, 1)
			go func() {
				s, out, errb := pushStreams("")
				args := c.args
				if c.devices {
					args = append(args, r.common...)
				}
				code := run(r.ctx, args, s)
				done <- fmt.Sprintf("exit %d\n%s%s", code, errb, out)
			}()
			select {
			case got := <-done:
				if !strings.HasPrefix(got, fmt.Sprintf("exit %d\n", exitFailed)) || !strings.Contains(got, c.pipe) || !strings.Contains(got, "named pipe") {
					t.Fatalf("want exit %d naming %s as a named pipe, got %s", exitFailed, c.pipe, got)
				}
			case <-time.After(2 * time.Minute):
				// Unblock the writer so the test ends.
				if f, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					_, _ = io.Copy(io.Discard, f)
					_ = f.Close()
				}
				t.Fatalf("%s blocked on the named pipe", c.name)
			}
		})
	}
}
