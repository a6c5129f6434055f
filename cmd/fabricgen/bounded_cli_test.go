package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/testtool"
)

// TestBoundedCLIFiles runs fabricgen on files that never end, under a
// 2 GiB data limit (prlimit --data, from util-linux; not --as, since the
// Go runtime alone reserves 1.3–1.5 GB of address space): each is refused
// with exit 1 and the file named, never read to the end. /dev/zero is a
// character device, refused before a byte is read (readlimit.Open); an
// override template linked to it leads out of the --templates folder.
func TestBoundedCLIFiles(t *testing.T) {
	prlimit := testtool.Need(t, "prlimit", "util-linux")
	bin := relBinary(t)
	pl, _ := plainSwitch(t) // the platform of writeInterruptFabric's leaf1
	// zeroAt makes rel (under the case's directory) a symlink to
	// /dev/zero.
	zeroAt := func(rel string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  []string
	}{
		{"intent file /dev/zero", zeroAt("fabric/zero.fab.hcl"), []string{"validate", "fabric"}, []string{"zero.fab.hcl", "Not a regular file", "character device"}},
		{".fabricgen.hcl /dev/zero", zeroAt("fabric/.fabricgen.hcl"), []string{"lint", "fabric"}, []string{".fabricgen.hcl", "character device"}},
		{"override template /dev/zero", zeroAt(fmt.Sprintf("tmpl/%s/device.tmpl", pl.Name)), []string{"render", "fabric", "--templates", "tmpl", "-o", "out"}, []string{"device.tmpl", "outside the --templates folder"}},
		{"inventory /dev/zero", nil, []string{"plan", "fabric", "--inventory", "/dev/zero", "--insecure-ignore-host-key"}, []string{"--inventory", "/dev/zero", "character device"}},
		{"plan file /dev/zero", nil, []string{"apply", "/dev/zero", "--insecure-ignore-host-key"}, []string{"/dev/zero", "character device"}},
		{"var file /dev/zero", nil, []string{"validate", "fabric", "-var-file", "/dev/zero"}, []string{"/dev/zero", "character device"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "")
			if c.setup != nil {
				c.setup(t, dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, prlimit, append([]string{"--data=2147483648", "--", bin}, c.args...)...)
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

// TestBoundedCLITemplates renders with an override template that doubles
// a 256-byte string 25 and 40 times in a row, with no loop or template
// call (25 doublings took 10.9 GB in 26 s before the string budget; 40
// were killed by the kernel at 23 GB), under the same 2 GiB data limit:
// each must end within seconds with exit 1, the string limit and the
// template line named, and a small peak RSS.
func TestBoundedCLITemplates(t *testing.T) {
	prlimit := testtool.Need(t, "prlimit", "util-linux")
	bin := relBinary(t)
	pl, _ := plainSwitch(t) // the platform of writeInterruptFabric's leaf1
	for _, n := range []int{25, 40} {
		t.Run(strconv.Itoa(n)+" doublings", func(t *testing.T) {
			dir := t.TempDir()
			writeInterruptFabric(t, dir, "")
			var tmpl strings.Builder
			tmpl.WriteString("{{$s := printf \"%256s\" \"x\"}}\n")
			for range n {
				tmpl.WriteString("{{$s = print $s $s}}\n")
			}
			tmpl.WriteString("{{len $s}}\n")
			if err := os.MkdirAll(filepath.Join(dir, "tmpl", string(pl.Name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "tmpl", string(pl.Name), "device.tmpl"), []byte(tmpl.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, prlimit, "--data=2147483648", "--", bin, "render", "fabric", "--templates", "tmpl", "-o", "out")
			cmd.Dir = dir
			cmd.Env = relEnv()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitFailed {
				t.Errorf("exit %v, want status 1:\n%s", err, stderr.String())
			}
			// The 256-byte string reaches 64 MiB, the string limit, at
			// the 18th doubling: line 19 of the template.
			for _, w := range []string{"device.tmpl:19:", "stopped after 64 MiB of strings", "string limit", "instead of growing a variable"} {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), "fatal error") {
				t.Errorf("crashed:\n%s", stderr.String())
			}
			rss := int64(0)
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rss = ru.Maxrss << 10 // KiB on Linux
			}
			t.Logf("%d doublings: exit after %s, peak RSS %d MiB", n, took.Round(time.Millisecond), rss>>20)
			if took > 30*time.Second {
				t.Errorf("took %s", took)
			}
			if rss > 512<<20 {
				t.Errorf("peak RSS %d MiB, want under 512 MiB", rss>>20)
			}
		})
	}
}

// TestBoundedCLIEndlessDevices runs `fabricgen plan` with --parallelism
// 16 under the 2 GiB data limit against a lab (its own process) serving
// examples/clos-400g, where four switches and two hosts answer their
// reads with output that never ends (the stream fault): each of them
// fails with the output limit (32 MiB, the default) and the command
// named, every other device is planned, and plan's peak RSS stays a
// small fraction of what six endless answers would take unbounded.
func TestBoundedCLIEndlessDevices(t *testing.T) {
	prlimit := testtool.Need(t, "prlimit", "util-linux")
	bin := relBinary(t)
	dir := shortTemp(t)
	copyExample(t, "clos-400g", dir)
	endless := map[string]string{
		"leaf1": "stream=^show running-config", "leaf2": "stream=^show running-config", "spine1": "stream=^show configuration",
		"leaf3": "stream=sonic-cfggen", "nic01": "stream=mlnx_qos", "nic02": "stream=^dcb",
	}
	args := []string{"lab", "up", "fabric", "--dir", "lab"}
	for d, f := range endless {
		args = append(args, "--fault", d+":"+f)
	}
	lab := relStart(t, dir, args...)
	lab.waitLine(lab.out, "Serving until interrupted")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, "--data=2147483648", "--", bin, "plan", "fabric", "--inventory", "lab/inventory.json",
		"--known-hosts", "lab/known_hosts", "--parallelism", "16")
	cmd.Dir = dir
	cmd.Env = relEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailed {
		t.Errorf("exit %v, want status 1:\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for d := range endless {
		if !regexp.MustCompile(`(?m)^✗ ` + d + ` \(.*the device sent more than 32 MiB in answer to "`).MatchString(out) {
			t.Errorf("%s is not failed with the output limit:\n%s", d, out)
		}
	}
	if n := strings.Count(out, " will change"); n < 30 {
		t.Errorf("only %d devices planned:\n%s\n%s", n, out, stderr.String())
	}
	if strings.Contains(stderr.String(), "fatal error") {
		t.Errorf("crashed:\n%s", stderr.String())
	}
	rss := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10
	}
	t.Logf("plan of 38 devices, 6 endless, took %s; peak RSS %d MiB", took.Round(time.Millisecond), rss>>20)
	// Six endless answers at the limit, held about three times over by
	// scrapligo, plus the plan itself.
	if rss > 1<<30 {
		t.Errorf("peak RSS %d MiB, want under 1 GiB", rss>>20)
	}
}
