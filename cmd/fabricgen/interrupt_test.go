package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptBase is a small valid fabric the interrupted loads sit next to:
// one leaf1 of the plain switch platform (plainSwitch) with one port.
func interruptBase(t *testing.T) string {
	t.Helper()
	pl, port := plainSwitch(t)
	return fmt.Sprintf(`fabric "lab" {
  qos_policy = qos_policy.p
}
traffic_class "roce" {
  dscp     = [26]
  priority = 3
  lossless = true
}
qos_policy "p" {
  classes = [traffic_class.roce]
}
device "leaf1" {
  kind     = "leaf"
  platform = %q
  port %q { speed = "100G" }
}
variable "v" {
  default = 1
}
`, pl.Name, port)
}

// TestLoadInterrupted sends real signals to fabricgen validate while it
// evaluates a large (but allowed) expression. (A -var-file that is a
// named pipe, once the other case here, is now refused at once:
// TestCLIRefusesNamedPipes.) The first SIGINT or
// SIGTERM stops the load: exit 1, "Interrupted", within seconds.
func TestLoadInterrupted(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run("evaluation/"+sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "locals {\n  a = {for i in range(380000) : tostring(i) => i}\n}\n")
			p := relStart(t, dir, "validate", "fabric")
			waitCPU(t, p, 200*time.Millisecond)
			interruptAndWant(t, p, sig)
		})
	}
}

func writeInterruptFabric(t *testing.T, dir, extra string) {
	t.Helper()
	fab := filepath.Join(dir, "fabric")
	if err := os.MkdirAll(fab, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fab, "base.fab.hcl"), []byte(interruptBase(t)+extra), 0o644); err != nil {
		t.Fatal(err)
	}
}

// interruptAndWant sends sig and wants fabricgen to stop within a few
// seconds, exit 1 and say it was interrupted.
func interruptAndWant(t *testing.T, p *relProc, sig syscall.Signal) {
	t.Helper()
	start := time.Now()
	p.signal(sig)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("still running 20s after %s: %s", sig, p.result())
	}
	r := p.result()
	t.Logf("stopped %s after %s", time.Since(start).Round(time.Millisecond), sig)
	if r.code != exitFailed {
		t.Errorf("exit %d after %s, want %d: %s", r.code, sig, exitFailed, r)
	}
	if !strings.Contains(r.stderr, "Interrupted") || strings.Contains(r.stderr, "Success") {
		t.Errorf("after %s: want the load reported as interrupted: %s", sig, r)
	}
}

// waitCPU waits until the child has used at least d of CPU time: it is
// then past its start-up (signal handlers set) and evaluating.
func waitCPU(t *testing.T, p *relProc, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(waitPatience(t))
	stat := filepath.Join("/proc", strconv.Itoa(p.cmd.Process.Pid), "stat")
	for {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Fatalf("%v (the test reads the child's CPU time from /proc): %s", err, p.result())
		}
		// Fields after the command name (which ends with ")"): utime is the 14th field.
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(fields) > 12 {
			ticks, _ := strconv.Atoi(fields[11])
			if time.Duration(ticks)*10*time.Millisecond >= d {
				return
			}
		}
		select {
		case <-p.done:
			t.Fatalf("fabricgen ended before it was interrupted: %s", p.result())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("fabricgen used no CPU: %s", p.result())
		}
	}
}

// TestInterruptsForce: outside graceful mode the first signal cancels and
// the second forces the exit; in graceful mode the first closes the
// channel, the second cancels and none forces.
func TestInterruptsForce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	forced := 0
	in := &interrupts{cancel: cancel, force: func() { forced++ }, first: make(chan struct{})}
	in.signal()
	if ctx.Err() == nil || forced != 0 {
		t.Fatalf("first signal: cancelled %v, forced %d; want cancelled, not forced", ctx.Err(), forced)
	}
	in.signal()
	if forced != 1 {
		t.Fatalf("second signal: forced %d times, want 1", forced)
	}

	ctx, cancel = context.WithCancel(context.Background())
	forced = 0
	in = &interrupts{cancel: cancel, force: func() { forced++ }, first: make(chan struct{})}
	first := in.Graceful(nil)
	in.signal()
	select {
	case <-first:
	default:
		t.Fatal("graceful: the first signal did not close the channel")
	}
	if ctx.Err() != nil {
		t.Fatal("graceful: the first signal cancelled the context")
	}
	in.signal()
	in.signal()
	if ctx.Err() == nil || forced != 0 {
		t.Fatalf("graceful: cancelled %v, forced %d; want cancelled, never forced", ctx.Err(), forced)
	}
}
