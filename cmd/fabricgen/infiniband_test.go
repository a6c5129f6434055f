package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfiniBandFabricRefusedByDeviceCommands: the commands that reach or
// emulate devices over SSH refuse an InfiniBand fabric at once, saying
// what to do instead, rather than trying to log in to switches the
// subnet manager programs.
func TestInfiniBandFabricRefusedByDeviceCommands(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "examples", "ib-cluster")
	inv := filepath.Join(t.TempDir(), "inventory.json")
	if err := os.WriteFile(inv, []byte(`{"sm01": "127.0.0.1:1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command string
		args    []string
	}{
		{"plan", []string{"plan", dir, "--inventory", inv, "--insecure-ignore-host-key"}},
		{"drift", []string{"drift", dir, "--inventory", inv, "--insecure-ignore-host-key"}},
		{"apply", []string{"apply", dir, "--inventory", inv, "--insecure-ignore-host-key", "--auto-approve"}},
		{"check", []string{"check", dir, "--inventory", inv, "--insecure-ignore-host-key"}},
		{"rollback", []string{"rollback", dir, "sm01", "--inventory", inv, "--insecure-ignore-host-key"}},
		{"lab", []string{"lab", "up", "--dir", filepath.Join(shortTemp(t), "lab"), dir}},
	} {
		t.Run(c.command, func(t *testing.T) {
			code, out, stderr := lintRun(t, c.args...)
			text := out + stderr
			if code != exitFailed || !strings.Contains(text, `fabric "ib-cluster" is an InfiniBand fabric`) ||
				!strings.Contains(text, "fabricgen "+c.command+" works on Ethernet fabrics") || !strings.Contains(text, "fabricgen render") {
				t.Errorf("%s: exit %d, want %d and the InfiniBand refusal:\n%s", strings.Join(c.args, " "), code, exitFailed, text)
			}
		})
	}
	// render writes the subnet manager's files and the hosts' environment,
	// and says the switches have none of their own.
	out := t.TempDir()
	code, stdout, stderr := lintRun(t, "render", dir, "-o", out)
	if code != 0 || !strings.Contains(stdout, "have no file of their own: the subnet manager configures them") {
		t.Fatalf("render: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"sm01.opensm.conf", "sm01.partitions.conf", "sm01.qos-policy.conf", "sm02.opensm.conf", "gpu01.sh"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("render wrote no %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "leaf1.conf")); err == nil {
		t.Error("render wrote a file for the managed switch leaf1")
	}
}
