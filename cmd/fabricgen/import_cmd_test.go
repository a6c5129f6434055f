package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrownfieldWalkthrough is examples/brownfield/README.md end to end,
// through the binary: import the three saved configurations (exit 2: two
// lines no intent expresses, and lint's PFC001 on the spine port that
// forgot its no-drop), fix the intent where the fault is, start the lab
// from the same configurations, and plan: the spine gets its no-drop line,
// leaf2 loses the DSCP rewrite the report named, leaf1 is unchanged.
func TestBrownfieldWalkthrough(t *testing.T) {
	bin := relBinary(t)
	work := shortTemp(t)
	cfgs, err := filepath.Glob(filepath.Join(repoRoot(t), "examples", "brownfield", "configs", "*.cfg"))
	if err != nil || len(cfgs) != 3 {
		t.Fatalf("examples/brownfield/configs: %v %v", cfgs, err)
	}
	args := append([]string{"import", "--platform", "arista_eos", "--fabric", "dc1", "--username", "admin", "--password-env", "FABRICGEN_PASSWORD", "-o", "dc1"}, cfgs...)
	code, out, _ := runCLI(t, bin, work, time.Minute, args...)
	if code != exitFindings {
		t.Fatalf("import exit %d, want 2:\n%s", code, out)
	}
	for _, want := range []string{"leaf2.cfg:6: an egress rewrite map", "qos rewrite dscp", "shape rate 50 percent", "error[PFC001]", "spine1:Ethernet2/1 enables PFC on priority none"} {
		if !strings.Contains(out, want) {
			t.Errorf("import output lacks %q:\n%s", want, out)
		}
	}
	// The same, as data.
	code, js, _ := runCLI(t, bin, work, time.Minute, append([]string{"import", "--platform", "arista_eos", "-f", "json", "-o", "dc1-json"}, cfgs...)...)
	var rep importReport
	if code != exitFindings || json.Unmarshal([]byte(js), &rep) != nil || len(rep.Report) != 2 || len(rep.Devices) != 3 {
		t.Errorf("import -f json: exit %d, %d report lines, %d devices:\n%s", code, len(rep.Report), len(rep.Devices), js)
	}
	// A second import into the same directory is refused: import never
	// overwrites a fabric.
	if code, out, _ := runCLI(t, bin, work, time.Minute, args...); code != exitFailed || !strings.Contains(out, "already holds a fabric") {
		t.Errorf("second import: exit %d:\n%s", code, out)
	}
	// The fix: spine1's Ethernet2/1 loses the port policy that mirrors
	// the forgotten no-drop.
	devs := filepath.Join(work, "dc1", "devices.fab.hcl")
	text, err := os.ReadFile(devs)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(text), "\n") {
		if !strings.Contains(l, "qos_policy.spine1-Ethernet2-1") {
			kept = append(kept, l)
		}
	}
	if len(kept) == len(strings.Split(string(text), "\n")) {
		t.Fatalf("no port policy for spine1 Ethernet2/1 in:\n%s", text)
	}
	if err := os.WriteFile(devs, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	labDir := filepath.Join(work, "lab")
	cmd := exec.Command(bin, "lab", "up", "dc1", "--dir", labDir, "--running-config", filepath.Dir(cfgs[0]))
	cmd.Dir, cmd.Env = work, relEnv()
	var labOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &labOut, &labOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(waitPatience(t)):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	waitForLab(t, labDir, exited)
	code, out, _ = runCLI(t, bin, work, 2*time.Minute, "plan", "dc1", "--inventory", filepath.Join(labDir, "inventory.json"), "--known-hosts", filepath.Join(labDir, "known_hosts"))
	if code != 0 {
		t.Fatalf("plan exit %d:\n%s\nlab:\n%s", code, out, labOut.String())
	}
	for _, want := range []string{"+   priority-flow-control priority 3 no-drop", "-qos rewrite dscp", "No changes: leaf1", "Plan: 2 to change, 1 unchanged; +1 -1 lines."} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
}
