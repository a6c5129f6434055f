package ibsim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Binaries the package runs, with the Debian package of each.
var Binaries = map[string]string{
	"ibsim":     "ibsim-utils",
	"ibsim-run": "ibsim-utils",
	"opensm":    "opensm",
	"smpquery":  "infiniband-diags",
	"saquery":   "infiniband-diags",
}

// Sim is one running ibsim with its scratch directory. Close stops it and
// every process started through it.
type Sim struct {
	// Dir is the scratch directory: net file, logs, OpenSM's cache.
	Dir   string
	Topo  *Topology
	env   []string
	ibsim *exec.Cmd
	procs []*exec.Cmd
	// logs numbers the OpenSM logs of this simulator.
	logs atomic.Int64
}

// Start writes t's net file into dir and starts `ibsim -s -n` on it,
// waiting (bounded by ctx) until its control socket is bound.
func Start(ctx context.Context, dir string, t *Topology) (*Sim, error) {
	net := filepath.Join(dir, "net")
	if err := os.WriteFile(net, t.Net(), 0o600); err != nil {
		return nil, fmt.Errorf("writing the ibsim topology: %w", err)
	}
	// The scratch directory is unique, so a socket named after its path
	// is unique too, within the process and across processes.
	h := fnv.New64a()
	h.Write([]byte(dir))
	sock := fmt.Sprintf("fabricgen-%d-%x", os.Getpid(), h.Sum64())
	s := &Sim{Dir: dir, Topo: t, env: append(os.Environ(),
		"IBSIM_SOCKNAME="+sock,
		"SIM_HOST="+t.SM().ID,
		"OSM_TMP_DIR="+dir,
		"OSM_CACHE_DIR="+dir,
	)}
	out, err := os.Create(filepath.Join(dir, "ibsim.out"))
	if err != nil {
		return nil, fmt.Errorf("creating the ibsim log: %w", err)
	}
	defer out.Close()
	cmd := exec.Command("ibsim", "-s", "-n", net)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, s.env, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting ibsim: %w", err)
	}
	s.ibsim = cmd
	for {
		b, err := os.ReadFile("/proc/net/unix")
		if err == nil && bytes.Contains(b, []byte("@"+sock+":ctl")) {
			return s, nil
		}
		select {
		case <-ctx.Done():
			cerr := s.Close()
			return nil, errors.Join(fmt.Errorf("waiting for ibsim's socket: %w", ctx.Err()), cerr)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// command is name args under ibsim-run, in the scratch directory.
func (s *Sim) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "ibsim-run", append([]string{name}, args...)...)
	cmd.Dir, cmd.Env = s.Dir, s.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Run runs name args under ibsim-run and returns its standard output.
func (s *Sim) Run(ctx context.Context, name string, args ...string) (string, error) {
	return s.run(ctx, func() *exec.Cmd { return s.command(ctx, name, args...) }, name, args)
}

// RunAs runs name args like Run, attached to the port of node id (an
// HCA's "H-gpu01-ib0") instead of the SM's: the SA answers it as that
// port, within that port's partitions.
func (s *Sim) RunAs(ctx context.Context, id, name string, args ...string) (string, error) {
	if s.Topo.Node(id) == nil {
		return "", fmt.Errorf("running %s as %q: the topology has no such node", name, id)
	}
	return s.run(ctx, func() *exec.Cmd {
		cmd := s.command(ctx, name, args...)
		// The last SIM_HOST wins (os/exec keeps the last of duplicate keys).
		cmd.Env = append(slices.Clone(s.env), "SIM_HOST="+id)
		return cmd
	}, name, args)
}

// madAttempts is how many times a diagnostic tool's query is sent when
// its MADs time out: ibsim answers from one process that a loaded machine
// (the test suite's parallel packages) can starve past the tools' 1 s
// MAD timeout. A timed-out query asked nothing of the fabric, so asking
// again is the same query.
const madAttempts = 3

func (s *Sim) run(ctx context.Context, cmd func() *exec.Cmd, name string, args []string) (string, error) {
	var err error
	var out string
	for attempt := 1; attempt <= madAttempts; attempt++ {
		var o, errb bytes.Buffer
		c := cmd()
		c.Stdout, c.Stderr = &o, &errb
		if rerr := c.Run(); rerr == nil {
			return o.String(), nil
		} else {
			out = o.String()
			err = fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), rerr, strings.TrimSpace(lastLines(errb.String(), 5)))
		}
		if (name != "smpquery" && name != "saquery") || !strings.Contains(err.Error(), "timed out") || ctx.Err() != nil {
			break
		}
	}
	return out, err
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// HUP sends SIGHUP to every OpenSM StartOpenSM started (ibsim-run execs
// it, so the process is OpenSM itself), as fabricgen apply's pkill -HUP
// does on an SM host, without touching any other OpenSM of the machine.
func (s *Sim) HUP() error {
	for _, c := range s.procs {
		if c.Process == nil || c.ProcessState != nil {
			continue
		}
		if err := c.Process.Signal(syscall.SIGHUP); err != nil {
			return fmt.Errorf("SIGHUP to opensm (pid %d): %w", c.Process.Pid, err)
		}
	}
	return nil
}

// OpenSM runs one sweep of `opensm -F conf -o -f log` and returns the
// log's text.
func (s *Sim) OpenSM(ctx context.Context, conf string) (string, error) {
	log := filepath.Join(s.Dir, fmt.Sprintf("opensm-%d.log", s.logs.Add(1)))
	out, err := s.Run(ctx, "opensm", "-F", conf, "-o", "-f", log)
	b, rerr := os.ReadFile(log)
	if err != nil {
		return string(b), fmt.Errorf("%w\n%s", err, lastLines(out, 5))
	}
	if rerr != nil {
		return "", fmt.Errorf("reading the OpenSM log: %w", rerr)
	}
	return string(b), nil
}

// StartOpenSM starts `opensm -F conf -f log` in the background, for SA
// queries, and waits until the log says the subnet is up. Close stops it.
func (s *Sim) StartOpenSM(ctx context.Context, conf string) (log string, err error) {
	log = filepath.Join(s.Dir, fmt.Sprintf("opensm-%d.log", s.logs.Add(1)))
	// -d2 flushes the log after each message, so "SUBNET UP" can be seen
	// while OpenSM runs (opensm --help).
	cmd := exec.Command("ibsim-run", "opensm", "-F", conf, "-f", log, "-d2")
	cmd.Dir, cmd.Env = s.Dir, s.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting opensm: %w", err)
	}
	s.procs = append(s.procs, cmd)
	for {
		b, _ := os.ReadFile(log)
		if bytes.Contains(b, []byte("SUBNET UP")) {
			return log, nil
		}
		select {
		case <-ctx.Done():
			return log, fmt.Errorf("waiting for OpenSM to bring the subnet up: %w\n%s", ctx.Err(), lastLines(string(b), 5))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PIDs are the process ids of ibsim and the background OpenSMs.
func (s *Sim) PIDs() []int {
	var out []int
	for _, c := range append(slices.Clone(s.procs), s.ibsim) {
		if c != nil && c.Process != nil {
			out = append(out, c.Process.Pid)
		}
	}
	return out
}

// Close stops every process the Sim started, each by its process group,
// and waits for them.
func (s *Sim) Close() error {
	var errs []error
	for _, c := range append(s.procs, s.ibsim) {
		if c == nil || c.Process == nil {
			continue
		}
		if err := syscall.Kill(-c.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("stopping %s (pid %d): %w", c.Path, c.Process.Pid, err))
		}
		_ = c.Wait() // killed: the exit status says so
	}
	s.procs, s.ibsim = nil, nil
	return errors.Join(errs...)
}
