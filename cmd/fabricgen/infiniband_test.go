package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfiniBandFabricRefusedByCheck: fabricgen check, which reads
// Ethernet switches' and NICs' counters, optics, PFC and ECN, refuses an
// InfiniBand fabric at once, saying what reads an InfiniBand fabric back
// instead (plan, apply, drift, rollback and lab up reach its subnet
// manager hosts: TestInfiniBandPushRoundTrip); render writes the subnet
// manager's files and the hosts' environment, and says the switches have
// none of their own.
func TestInfiniBandFabricRefusedByCheck(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "examples", "ib-cluster")
	inv := filepath.Join(t.TempDir(), "inventory.json")
	if err := os.WriteFile(inv, []byte(`{"sm01": "127.0.0.1:1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := lintRun(t, "check", dir, "--inventory", inv, "--insecure-ignore-host-key")
	text := stdout + stderr
	if code != exitFailed || !strings.Contains(text, `fabric "ib-cluster" is an InfiniBand fabric`) ||
		!strings.Contains(text, "fabricgen check reads Ethernet fabrics") || !strings.Contains(text, "fabricgen apply reads back the tables") {
		t.Errorf("check: exit %d, want %d and the InfiniBand refusal:\n%s", code, exitFailed, text)
	}
	// render writes the subnet manager's files and the hosts' environment,
	// and says the switches have none of their own.
	out := t.TempDir()
	code, stdout, stderr = lintRun(t, "render", dir, "-o", out)
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
