package deploy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	serviceFile = "systemd/fabricgen-check.service"
	timerFile   = "systemd/fabricgen-check.timer"
	// unitBinary is where the service expects fabricgen.
	unitBinary = "/usr/local/bin/fabricgen"
)

// systemdAnalyze returns systemd-analyze, skipping (never under CI=true)
// without it.
func systemdAnalyze(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("systemd-analyze (Debian package systemd) is not installed; .ci/run installs it")
		}
		t.Skip("systemd-analyze (Debian package systemd) is not installed")
	}
	return p
}

// unit is a unit file's settings: section → key → values, in order (a
// key may repeat).
type unit map[string]map[string][]string

func parseUnit(t *testing.T, path string) unit {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = fh.Close() }()
	u := unit{}
	sec := ""
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			sec = line[1 : len(line)-1]
			if u[sec] == nil {
				u[sec] = map[string][]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || sec == "" || strings.HasSuffix(line, `\`) {
				t.Fatalf("%s: line %q: not KEY=VALUE in a section (continuations are not used)", path, line)
			}
			u[sec][strings.TrimSpace(k)] = append(u[sec][strings.TrimSpace(k)], strings.TrimSpace(v))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return u
}

// one is the single value of key in sec ("" and an error when it is not
// set exactly once).
func (u unit) one(sec, key string) (string, error) {
	v := u[sec][key]
	if len(v) != 1 {
		return "", fmt.Errorf("%s.%s: set %d times, want once", sec, key, len(v))
	}
	return v[0], nil
}

// TestSystemdUnits: the shipped service and timer are what the docs say
// (a oneshot check --local into Debian's textfile directory, on a state
// file, every 5 minutes), with CAP_NET_ADMIN for ethtool -m and no other
// capability; systemd-analyze verify passes on them without a warning;
// and the service's command line is one fabricgen check accepts: run
// with its paths under a temporary root, it writes the textfile (up 0
// and why, this machine having none of the intent's NICs).
func TestSystemdUnits(t *testing.T) {
	sa := systemdAnalyze(t)
	svc, tmr := parseUnit(t, serviceFile), parseUnit(t, timerFile)
	want := []struct {
		u        unit
		sec, key string
		val      string
	}{
		{svc, "Service", "Type", "oneshot"},
		{svc, "Service", "AmbientCapabilities", "CAP_NET_ADMIN"},
		{svc, "Service", "CapabilityBoundingSet", "CAP_NET_ADMIN"},
		{svc, "Service", "DynamicUser", "yes"},
		{svc, "Service", "StateDirectory", "fabricgen"},
		{svc, "Service", "ReadWritePaths", "/var/lib/prometheus/node-exporter"},
		{svc, "Service", "ProtectSystem", "strict"},
		{svc, "Service", "ProtectHome", "yes"},
		{svc, "Service", "NoNewPrivileges", "yes"},
		{svc, "Service", "PrivateTmp", "yes"},
		{svc, "Service", "SuccessExitStatus", "2"},
		{tmr, "Timer", "OnBootSec", "2min"},
		{tmr, "Timer", "OnUnitActiveSec", "5min"},
		{tmr, "Timer", "RandomizedDelaySec", "60"},
		{tmr, "Install", "WantedBy", "timers.target"},
	}
	for _, w := range want {
		got, err := w.u.one(w.sec, w.key)
		if err != nil {
			t.Errorf("%v", err)
		} else if got != w.val {
			t.Errorf("%s=%s, want %s", w.key, got, w.val)
		}
	}
	// No capability but CAP_NET_ADMIN, however it would be spelled.
	caps := regexp.MustCompile(`(?i)CAP_[A-Z_]+`)
	for _, f := range []string{serviceFile, timerFile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			for _, c := range caps.FindAllString(line, -1) {
				if c != "CAP_NET_ADMIN" {
					t.Errorf("%s grants %s: only CAP_NET_ADMIN (ethtool -m) is needed", f, c)
				}
			}
			for _, k := range []string{"User=root", "PermissionsStartOnly", "+/", "!/"} {
				if strings.Contains(strings.ReplaceAll(line, " ", ""), k) {
					t.Errorf("%s: %q gives more than CAP_NET_ADMIN", f, line)
				}
			}
		}
	}
	execStart, err := svc.one("Service", "ExecStart")
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(execStart)
	wantArgs := []string{unitBinary, "check", "--local", "--textfile-dir", "/var/lib/prometheus/node-exporter",
		"--baseline", "/var/lib/fabricgen/state.json", "--save", "/var/lib/fabricgen/state.json", "/etc/fabricgen"}
	if !slices.Equal(args, wantArgs) {
		t.Errorf("ExecStart=%s\nwant %s", execStart, strings.Join(wantArgs, " "))
	}

	bin := t.TempDir()
	build(t, bin)
	fabricgen := filepath.Join(bin, "fabricgen")

	// systemd-analyze verify wants ExecStart's binary to exist: verify
	// copies that run the one just built, the rest unchanged.
	vdir := t.TempDir()
	for _, f := range []string{serviceFile, timerFile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), "ExecStart="+unitBinary+" ", "ExecStart="+fabricgen+" ")
		if err := os.WriteFile(filepath.Join(vdir, filepath.Base(f)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	verify := func(files ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, sa, append([]string{"verify"}, files...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	vsvc, vtmr := filepath.Join(vdir, filepath.Base(serviceFile)), filepath.Join(vdir, filepath.Base(timerFile))
	if out, err := verify(vsvc, vtmr); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The verify can fail: a misspelt key is a warning it prints.
	broken := filepath.Join(vdir, "broken.service")
	b, _ := os.ReadFile(vsvc)
	if err := os.WriteFile(broken, []byte(strings.Replace(string(b), "CapabilityBoundingSet=", "CapabilityBoundingSt=", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := verify(broken); !strings.Contains(out, "CapabilityBoundingSt") {
		t.Errorf("systemd-analyze verify said nothing of a misspelt key:\n%s", out)
	}

	// The service's command, its paths under a temporary root: fabricgen
	// check accepts every flag, and the run writes the textfile with
	// fabricgen_check_up 0 and the reason (no NIC of the intent is this
	// machine's), mode 0644.
	root := t.TempDir()
	intent := filepath.Join(root, "etc", "fabricgen")
	if err := os.CopyFS(intent, os.DirFS(filepath.Join("..", "examples", "roce-storage"))); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"var/lib/prometheus/node-exporter", "var/lib/fabricgen"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var run []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "/") {
			a = filepath.Join(root, a)
		}
		run = append(run, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fabricgen, run...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("fabricgen %s: %v, want exit 1 (no NIC here)\n%s", strings.Join(run, " "), err, out)
	}
	for _, w := range []string{"left to a central fabricgen check", "no NIC of fabric roce-storage has host ="} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the service's command said nothing of %q:\n%s", w, out)
		}
	}
	if strings.Contains(string(out), "unknown flag") || strings.Contains(string(out), "Usage:") {
		t.Errorf("fabricgen check refused the service's flags:\n%s", out)
	}
	prom := filepath.Join(root, "var/lib/prometheus/node-exporter/fabricgen.prom")
	st, err := os.Stat(prom)
	if err != nil {
		t.Fatalf("the service's run wrote no textfile: %v", err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("textfile mode %v, want 0644", st.Mode().Perm())
	}
	tf, _ := os.ReadFile(prom)
	for _, w := range []string{`fabricgen_check_up{fabric="roce-storage"} 0`, "fabricgen_check_error{", "fabricgen_check_last_run_timestamp_seconds"} {
		if !strings.Contains(string(tf), w) {
			t.Errorf("textfile lacks %s:\n%s", w, tf)
		}
	}
}

// build builds fabricgen into dir (deploy cannot import package main).
func build(t *testing.T, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "fabricgen"), "github.com/fabricgen/fabricgen/cmd/fabricgen")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}
