package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/schema"
)

// labHostRunner runs check --local's commands in a lab host's emulated
// shell, in-process: the runner a real host gets, with the lab behind it.
type labHostRunner struct {
	dev *lab.Device
	ran *atomic.Int64
}

func (r labHostRunner) Run(cmd string) (string, error) {
	out, st, err := r.RunStatus(cmd)
	if err != nil {
		return "", err
	}
	if st != 0 {
		return "", fmt.Errorf("%q exited with status %d: %s", cmd, st, strings.TrimSpace(out))
	}
	return out, nil
}

func (r labHostRunner) RunStatus(cmd string) (string, int, error) {
	r.ran.Add(1)
	return r.dev.Shell(cmd)
}

// localRig is a lab of examples/roce-storage, applied, whose check
// --local runs read the lab host stor01 through labHostRunner.
type localRig struct {
	*pushRig
	ran atomic.Int64
}

func newLocalRig(t *testing.T) *localRig {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a lab")
	}
	// roce-storage's NICs log in with ~/.ssh/fabricgen_ed25519.
	home := shortTemp(t)
	t.Setenv("HOME", home)
	writeKeyPair(t, filepath.Join(home, ".ssh", "fabricgen_ed25519"))
	r := &localRig{pushRig: newPushRig(t, "roce-storage")}
	srv, err := r.lab.ServeControl(r.ctx, filepath.Join(r.dir, "lab", lab.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	r.run(0, nil, "apply", "-auto-approve", "fabric")
	return r
}

// local runs fabricgen with the lab host runner and hostname stor01's
// FQDN, without the rig's SSH flags, expecting the exit code.
func (r *localRig) local(want int, args ...string) (string, string) {
	r.t.Helper()
	s, out, errb := pushStreams("")
	s.hostname = func() (string, error) { return "stor01.lab.example", nil }
	s.localRunner = func(d *schema.Device) (collect.Runner, error) {
		dev := r.lab.Device(d.Name)
		if dev == nil {
			return nil, fmt.Errorf("%s is not in the lab", d.Name)
		}
		return labHostRunner{dev: dev, ran: &r.ran}, nil
	}
	if code := run(r.ctx, args, s); code != want {
		r.t.Fatalf("fabricgen %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errb)
	}
	return out.String(), errb.String()
}

// bare runs fabricgen with no hooks.
func (r *localRig) bare(want int, args ...string) string {
	r.t.Helper()
	s, out, errb := pushStreams("")
	if code := run(r.ctx, args, s); code != want {
		r.t.Fatalf("fabricgen %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errb)
	}
	return out.String() + errb.String()
}

// TestCheckLocalLab: check --local judges a lab host's own NIC through
// the runner (no SSH flags at all): healthy after apply, a bad cable on
// its port found, only the rules a host judges alone, the ones left to a
// central run said once on stderr and absent from the textfile; the
// hostname picks the NICs and a switch or the SSH flags are refused.
func TestCheckLocalLab(t *testing.T) {
	r := newLocalRig(t)
	out, errs := r.local(0, "check", "--local", "fabric", "--lab-dir", "lab")
	if !strings.Contains(out, "Checked 1 device(s)") {
		t.Errorf("healthy local check:\n%s", out)
	}
	if r.ran.Load() == 0 {
		t.Fatal("no command went through the lab host runner")
	}
	if n := strings.Count(errs, "left to a central fabricgen check"); n != 1 {
		t.Errorf("the rules left to a central run are said %d times, want once:\n%s", n, errs)
	}
	for _, id := range []string{"CHK014", "CHK017", "CHK018"} {
		if !strings.Contains(errs, id) {
			t.Errorf("stderr does not name %s as left to a central run:\n%s", id, errs)
		}
	}

	if err := os.Mkdir("textfile", 0o755); err != nil {
		t.Fatal(err)
	}
	// The figures docs/fleet-health.md gives: series and bytes of one
	// host's file (go test -v -run TestCheckLocalLab logs them).
	measure := func(state string) string {
		b, err := os.ReadFile("textfile/fabricgen.prom")
		if err != nil {
			t.Fatal(err)
		}
		series := 0
		for _, l := range strings.Split(string(b), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				series++
			}
		}
		t.Logf("textfile of one host (stor01, one dual-port NIC), %s: %d series, %d bytes", state, series, len(b))
		return string(b)
	}
	r.local(0, "check", "--local", "fabric", "--lab-dir", "lab", "--textfile-dir", "textfile")
	if healthy := measure("healthy"); !strings.Contains(healthy, `fabricgen_check_up{fabric="roce-storage"} 1`) || strings.Contains(healthy, "fabricgen_check_finding{") {
		t.Errorf("healthy host's textfile:\n%s", healthy)
	}
	r.bare(0, "lab", "fault", "--dir", "lab", "stor01-cx6", "bad-cable=eth0")
	r.local(exitFindings, "check", "--local", "fabric", "--lab-dir", "lab", "--textfile-dir", "textfile")
	prom := measure("bad cable on eth0")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	if _, err := parser.TextToMetricFamilies(strings.NewReader(prom)); err != nil {
		t.Fatalf("not the text format: %v\n%s", err, prom)
	}
	for _, want := range []string{`fabricgen_check_finding{fabric="roce-storage",rule="CHK005",severity="error",device="stor01-cx6",port="eth0"`,
		`fabricgen_check_up{fabric="roce-storage"} 1`, "fabricgen_check_last_run_timestamp_seconds"} {
		if !strings.Contains(prom, want) {
			t.Errorf("textfile lacks %s:\n%s", want, prom)
		}
	}
	_, fabric := check.HostRules()
	for _, line := range strings.Split(prom, "\n") {
		for _, id := range fabric {
			if strings.Contains(line, `rule="`+id+`"`) {
				t.Errorf("the textfile speaks of %s, which --local did not run: %s", id, line)
			}
		}
		if strings.Contains(line, `device="`) && !strings.Contains(line, `device="stor01-cx6"`) {
			t.Errorf("a finding about another device than this host's NIC: %s", line)
		}
	}
	// --device names this host's NICs; a switch, a glob matching nothing,
	// the SSH flags and central rules are refused with the reason.
	r.local(exitFindings, "check", "--local", "fabric", "--lab-dir", "lab", "--device", "stor01-cx6", "--rule", "CHK005")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--device", "leaf1"}, "leaf1 is a switch (arista_eos)"},
		{[]string{"--device", "stor0*", "--device", "spine1"}, "spine1 is a switch"},
		{[]string{"--device", "nope*"}, `--device "nope*" matches no device`},
		{[]string{"--inventory", r.common[1]}, "--inventory: --local reads this host's NICs without SSH"},
		{[]string{"--known-hosts", r.lab.KnownHostsPath()}, "--known-hosts: --local"},
		{[]string{"--insecure-ignore-host-key"}, "--insecure-ignore-host-key: --local"},
		{[]string{"--from", "x.json"}, "--from judges saved readings"},
		{[]string{"--rule", "CHK014"}, "CHK014 needs other devices' readings"},
		{[]string{"--textfile-dir", "textfile", "-format", "json"}, "--textfile-dir writes the prometheus format"},
		{[]string{"--textfile-dir", "textfile", "-o", "x.prom"}, "drop --output x.prom"},
	} {
		_, errs := r.local(exitFailed, append([]string{"check", "--local", "fabric", "--lab-dir", "lab"}, c.args...)...)
		if !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.want, errs)
		}
	}
	// A hostname the intent does not know.
	s, _, errb := pushStreams("")
	s.hostname = func() (string, error) { return "gpu-node-7", nil }
	if code := run(r.ctx, []string{"check", "--local", "fabric", "--lab-dir", "lab"}, s); code != exitFailed ||
		!strings.Contains(errb.String(), `has host = "gpu-node-7" (this host's name): the intent knows hosts stor01, stor02, stor03, stor04`) {
		t.Errorf("unknown hostname: exit %d\n%s", code, errb)
	}
}

// TestCheckLocalTimer: two timer runs on one state file (--baseline and
// --save the same path): the first, with no file yet, reads twice; each
// later one reads once and judges the time since the last run (the lab
// clock moved 5 minutes), and the file keeps two snapshots.
func TestCheckLocalTimer(t *testing.T) {
	r := newLocalRig(t)
	const state = "state.json"
	timer := []string{"check", "--local", "fabric", "--lab-dir", "lab", "--baseline", state, "--save", state, "-format", "json"}
	_, errs := r.local(0, timer...)
	if !strings.Contains(errs, "no baseline in state.json yet: reading twice") {
		t.Errorf("first run:\n%s", errs)
	}
	r.bare(0, "lab", "fault", "--dir", "lab", "stor01-cx6", "bad-cable=eth0")
	for run := range 3 {
		r.bare(0, "lab", "clock", "--dir", "lab", "advance", "5m")
		before := r.ran.Load()
		out, errs := r.local(exitFindings, timer...)
		if strings.Contains(errs, "no baseline") {
			t.Errorf("run %d read twice:\n%s", run, errs)
		}
		if !strings.Contains(out, `"rule": "CHK005"`) || !strings.Contains(out, "5m0s") && !strings.Contains(out, "in 5m") {
			t.Errorf("run %d did not judge the 5-minute window's FEC errors:\n%s", run, out)
		}
		f, err := check.ReadFile(state)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Snapshots) != 2 {
			t.Errorf("run %d: state file holds %d snapshots, want 2", run, len(f.Snapshots))
		}
		if st, err := os.Stat(state); err == nil {
			t.Logf("run %d: state file %d bytes (one dual-port NIC, two readings)", run, st.Size())
		}
		if w := f.Snapshots[1].Taken.Sub(f.Snapshots[0].Taken); w < 5*time.Minute || w > 6*time.Minute {
			t.Errorf("run %d: window %s, want the 5 minutes since the last run", run, w)
		}
		if n := r.ran.Load() - before; n == 0 {
			t.Errorf("run %d ran no command", run)
		}
	}
}

// TestCheckLocalTextfile: --textfile-dir writes atomically (a reader
// looping meanwhile never sees half a file), mode 0644 whatever the
// umask, refuses a FIFO or a directory at the target at once, and in a
// directory it cannot write it writes nothing and exits 1 with the reason.
func TestCheckLocalTextfile(t *testing.T) {
	r := newLocalRig(t)
	r.bare(0, "lab", "fault", "--dir", "lab", "stor01-cx6", "bad-cable=eth0")
	dir := filepath.Join(r.dir, "textfile")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "fabricgen.prom")
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)

	var reads, bad atomic.Int64
	var firstBad atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := os.ReadFile(target)
			if err != nil {
				continue
			}
			reads.Add(1)
			if !bytes.HasSuffix(b, []byte("\n")) || !bytes.Contains(b, []byte("fabricgen_check_last_success_timestamp_seconds")) {
				bad.Add(1)
				firstBad.CompareAndSwap(nil, string(b))
			}
		}
	})
	for range 5 {
		r.local(exitFindings, "check", "--local", "fabric", "--lab-dir", "lab", "--textfile-dir", dir)
	}
	close(stop)
	wg.Wait()
	if reads.Load() == 0 {
		t.Error("the reader never saw the file")
	}
	if bad.Load() > 0 {
		t.Errorf("%d of %d reads saw half a file, e.g.:\n%v", bad.Load(), reads.Load(), firstBad.Load())
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644 (node-exporter reads it as another user)", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the textfile directory holds %d entries, want only fabricgen.prom (no temp left)", len(ents))
	}

	for name, mk := range map[string]func(string) error{
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"directory": func(p string) error { return os.Mkdir(p, 0o755) },
	} {
		d := filepath.Join(r.dir, "tf-"+name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mk(filepath.Join(d, "fabricgen.prom")); err != nil {
			t.Fatal(err)
		}
		done := make(chan string, 1)
		go func() {
			_, errs := r.local(exitFailed, "check", "--local", "fabric", "--lab-dir", "lab", "--textfile-dir", d)
			done <- errs
		}()
		select {
		case errs := <-done:
			if !strings.Contains(errs, "not a report file") {
				t.Errorf("%s at the target: stderr %s", name, errs)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s at the target: check hangs", name)
		}
		if ents, _ := os.ReadDir(d); len(ents) != 1 {
			t.Errorf("%s at the target: %d entries left, want the %s alone", name, len(ents), name)
		}
	}

	// A directory no one may write: read-only for a user; as root, sysfs
	// (no file can be created there).
	ro := filepath.Join(r.dir, "tf-ro")
	if os.Geteuid() == 0 {
		ro = "/sys/kernel"
	} else if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	_, errs := r.local(exitFailed, "check", "--local", "fabric", "--lab-dir", "lab", "--textfile-dir", ro)
	denied := strings.Contains(errs, "permission denied") || strings.Contains(errs, "not permitted") || strings.Contains(errs, "no such file")
	if !strings.Contains(errs, filepath.Join(ro, "fabricgen.prom")) || !denied {
		t.Errorf("unwritable textfile dir: stderr %s", errs)
	}
	if _, err := os.Lstat(filepath.Join(ro, "fabricgen.prom")); err == nil {
		t.Errorf("something was written in %s", ro)
	}
}

// TestLocalDevices: the hostname (or its first label, any case) picks the
// NICs whose host it is, never a switch that shares the name; no match
// lists at most maxHostsListed hosts, in natural order, and says how many
// more; a failing hostname asks for --device.
func TestLocalDevices(t *testing.T) {
	f := &schema.Fabric{Name: "big"}
	for i := 25; i >= 1; i-- {
		d := &schema.Device{Name: fmt.Sprintf("gpu%d-nic", i), HostPlatform: true}
		d.Host.V = fmt.Sprintf("gpu%d", i)
		f.Devices = append(f.Devices, d)
	}
	two := &schema.Device{Name: "gpu3-nic2", HostPlatform: true}
	two.Host.V = "gpu3"
	sw := &schema.Device{Name: "gpu3"}
	sw.Host.V = "gpu3"
	f.Devices = append(f.Devices, two, sw)
	names := func(ds []*schema.Device) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct {
		host, want, err string
	}{
		{host: "gpu3", want: "gpu3-nic,gpu3-nic2"},
		{host: "GPU3.rack7.example.net", want: "gpu3-nic,gpu3-nic2"},
		{host: "gpu30", err: `has host = "gpu30" (this host's name): the intent knows hosts gpu1, gpu2, gpu3, gpu4, gpu5, gpu6, gpu7, gpu8, gpu9, gpu10 and 15 more;`},
		{host: "", err: `has host = ""`},
	} {
		got, err := localDevices(f, nil, func() (string, error) { return c.host, nil })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("host %q: %v, want error %q", c.host, err, c.err)
			}
			continue
		}
		if err != nil || names(got) != c.want {
			t.Errorf("host %q: %s, %v; want %s", c.host, names(got), err, c.want)
		}
	}
	if _, err := localDevices(f, nil, func() (string, error) { return "", fmt.Errorf("uname failed") }); err == nil || !strings.Contains(err.Error(), "name its NICs with --device") {
		t.Errorf("hostname failing: %v", err)
	}
	if _, err := localDevices(f, []string{"gpu3*"}, nil); err == nil || !strings.Contains(err.Error(), "gpu3 is a switch") {
		t.Errorf("--device matching a switch: %v", err)
	}
}
