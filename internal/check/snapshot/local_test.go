package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/schema"
)

// TestLocalRunner runs real /bin/sh commands: output, the C locale,
// standard input closed, exit statuses, and the bounds that end a
// command that streams forever, stalls, or leaves a child holding the
// pipe.
func TestLocalRunner(t *testing.T) {
	if _, err := os.Stat(LocalShell); err != nil {
		t.Fatalf("%s: %v (every supported host has it)", LocalShell, err)
	}
	t.Setenv("LANG", "de_DE.UTF-8")
	t.Setenv("LC_NUMERIC", "de_DE.UTF-8")
	cases := []struct {
		name      string
		cmd       string
		timeout   time.Duration
		max       int64
		want      string // Run's output
		status    int    // RunStatus's status
		err       string // Run's error (substring)
		statusErr bool   // RunStatus fails too
		within    time.Duration
	}{
		{name: "output", cmd: "printf 'a b\\nc\\n'", want: "a b\nc\n"},
		{name: "C locale", cmd: `echo "$LC_ALL ${LANG:-unset} ${LC_NUMERIC:-unset}"`, want: "C unset unset\n"},
		{name: "stdin closed", cmd: "cat; echo done", want: "done\n", within: 5 * time.Second},
		{name: "non-zero exit names the command", cmd: "echo out; echo 'ethtool: bad things' >&2; exit 3", status: 3,
			err: `"echo out; echo 'ethtool: bad things' >&2; exit 3" exited with status 3: ethtool: bad things`},
		{name: "non-zero exit without stderr", cmd: "echo only-out; exit 1", status: 1, err: "exited with status 1: only-out"},
		{name: "no such command", cmd: "no-such-command-fabricgen", status: 127, err: "status 127"},
		{name: "streams forever", cmd: "yes fabricgen", max: 1 << 20, err: "wrote more than 1 MiB", statusErr: true, within: 10 * time.Second},
		{name: "exactly the bound", cmd: "head -c 1024 /dev/zero", max: 1024, want: strings.Repeat("\x00", 1024)},
		{name: "one byte past the bound", cmd: "head -c 1025 /dev/zero", max: 1024, err: "wrote more than", statusErr: true},
		{name: "stalls", cmd: "sleep 60", timeout: 300 * time.Millisecond, err: "did not end within 300ms (--timeout)", statusErr: true, within: 5 * time.Second},
		{name: "stalls in a pipeline", cmd: "sleep 60 | cat", timeout: 300 * time.Millisecond, err: "did not end within", statusErr: true, within: 5 * time.Second},
		{name: "child keeps the pipe", cmd: "(sleep 60 &) ; echo early", timeout: 30 * time.Second, want: "early\n", within: 5 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &LocalRunner{Timeout: c.timeout, MaxOutput: c.max}
			start := time.Now()
			out, err := r.Run(c.cmd)
			if took := time.Since(start); c.within > 0 && took > c.within {
				t.Errorf("took %s, want under %s", took, c.within)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Run error %v, want it to contain %q (output %q)", err, c.err, out)
				}
			} else if err != nil || out != c.want {
				t.Fatalf("Run = %q, %v; want %q", out, err, c.want)
			}
			_, status, err := r.RunStatus(c.cmd)
			if (err != nil) != c.statusErr || (!c.statusErr && status != c.status) {
				t.Errorf("RunStatus = status %d, %v; want status %d, error %v", status, err, c.status, c.statusErr)
			}
		})
	}
	t.Run("output bound is the session's error", func(t *testing.T) {
		_, err := (&LocalRunner{MaxOutput: 10}).Run("echo 0123456789ab")
		if !errors.Is(err, session.ErrOutputLimit) {
			t.Errorf("error %v, want session.ErrOutputLimit", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		_, err := (&LocalRunner{Ctx: ctx}).Run("sleep 60")
		if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
			t.Errorf("error %v after %s, want cancelled at once", err, time.Since(start))
		}
	})
}

// TestTakeWithRunner: a snapshot through Options.Runner runs the same
// collector, with no SSH session (no host keys, no inventory), and a
// runner that cannot be made or a command that fails marks only its
// device unreadable.
func TestTakeWithRunner(t *testing.T) {
	fl := startFabricLab(t, "clos-400g")
	var hosts []*schema.Device
	for _, d := range fl.f.Devices {
		if d.HostPlatform && len(hosts) < 3 {
			hosts = append(hosts, d)
		}
	}
	if len(hosts) < 3 {
		t.Fatalf("clos-400g has %d hosts", len(hosts))
	}
	ssh, err := Take(context.Background(), hosts, fl.opts)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Now: fl.opts.Now, Clock: fl.opts.Clock, Runner: func(d *schema.Device) (collect.Runner, error) {
		switch d.Name {
		case hosts[1].Name:
			return nil, errors.New("no runner for this one")
		case hosts[2].Name:
			return failingRunner{}, nil
		}
		return labShell{fl.lab.Device(d.Name).Shell}, nil
	}}
	local, err := Take(context.Background(), hosts, opts)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, d := range local.Devices {
		byName[d.Name] = i
	}
	got := local.Devices[byName[hosts[0].Name]]
	want := ssh.Devices[byName[hosts[0].Name]]
	if got.Error != "" || len(got.Ports) == 0 {
		t.Fatalf("%s through the runner: error %q, %d ports", got.Name, got.Error, len(got.Ports))
	}
	// The same collector: the same ports, families and sources.
	g, _ := json.Marshal(got.Sources)
	w, _ := json.Marshal(want.Sources)
	if string(g) != string(w) || len(got.Ports) != len(want.Ports) || strings.Join(got.Missing, ",") != strings.Join(want.Missing, ",") {
		t.Errorf("runner reading differs from SSH's:\n%s\n%s", g, w)
	}
	if e := local.Devices[byName[hosts[1].Name]].Error; e != "no runner for this one" {
		t.Errorf("%s: error %q", hosts[1].Name, e)
	}
	if e := local.Devices[byName[hosts[2].Name]].Error; !strings.Contains(e, "refused") {
		t.Errorf("%s: error %q", hosts[2].Name, e)
	}
}

// labShell runs commands in a lab host's shell in-process.
type labShell struct {
	sh func(string) (string, int, error)
}

func (l labShell) Run(cmd string) (string, error) {
	out, st, err := l.sh(cmd)
	if err != nil {
		return "", err
	}
	if st != 0 {
		return "", fmt.Errorf("%q exited with status %d", cmd, st)
	}
	return out, nil
}

func (l labShell) RunStatus(cmd string) (string, int, error) { return l.sh(cmd) }

type failingRunner struct{}

func (failingRunner) Run(cmd string) (string, error) { return "", fmt.Errorf("%q refused", cmd) }
