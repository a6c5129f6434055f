package snapshot

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// benchLabEnv makes the test binary a lab server (TestMain): the
// benchmark's lab runs in another process, so the client's CPU is
// measured alone. Its value is the response delay (a Go duration).
const benchLabEnv = "FABRICGEN_BENCH_CHECK_LAB"

// benchLabProfileEnv, when set to a file name, makes the lab helper write
// a CPU profile of its whole life there (the client's is -cpuprofile).
const benchLabProfileEnv = "FABRICGEN_BENCH_CHECK_LAB_CPUPROFILE"

// benchVars size examples/scale to 1,000 devices: 10 spines (EOS), 30
// leaves (EOS and SONiC) and 960 NICs (nvidia_mlnx and linux_dcb).
var benchVars = map[string]string{"spines": "10", "leaves": "30", "nics_per_leaf": "32"}

func TestMain(m *testing.M) {
	if d, ok := os.LookupEnv(benchLabEnv); ok {
		os.Exit(serveBenchLab(d))
	}
	os.Exit(m.Run())
}

// benchFabric loads the benchmark's fabric, every device logging in as
// admin with the lab password.
func benchFabric() (*schema.Fabric, error) {
	f, diags := schema.Load(filepath.Join("..", "..", "..", "examples", "scale"), schema.Options{Vars: benchVars, Getenv: getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		return nil, diags
	}
	for _, d := range f.Devices {
		d.Credentials = schema.Credentials{Username: schema.Value[string]{V: "admin", Set: true}, PasswordEnv: schema.Value[string]{V: "FABRICGEN_PASSWORD", Set: true}}
	}
	return f, nil
}

// benchInfo is what the helper prints once its devices listen.
type benchInfo struct {
	KnownHosts string            `json:"known_hosts"`
	Inventory  map[string]string `json:"inventory"`
	Control    string            `json:"control"`
}

// serveBenchLab starts the fabric's devices with their rendered
// configurations (the intent applied) and the data plane, serves the
// control socket and waits until stdin closes.
func serveBenchLab(delay string) int {
	fail := func(err error) int { fmt.Fprintln(os.Stderr, err); return 2 }
	if path := os.Getenv(benchLabProfileEnv); path != "" {
		fh, err := os.Create(path)
		if err != nil {
			return fail(err)
		}
		if err := pprof.StartCPUProfile(fh); err != nil {
			return fail(err)
		}
		defer func() { pprof.StopCPUProfile(); _ = fh.Close() }()
	}
	f, err := benchFabric()
	if err != nil {
		return fail(err)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		return fail(err)
	}
	outs, err := r.RenderAll(context.Background(), f, f.Devices)
	if err != nil {
		return fail(err)
	}
	specs := make([]lab.DeviceSpec, len(f.Devices))
	for i, d := range f.Devices {
		specs[i] = lab.SpecOf(d)
		specs[i].Username, specs[i].Password, specs[i].RunningConfig = "admin", labSecret, string(outs[i].Text)
		for _, p := range d.Ports {
			specs[i].Ports = append(specs[i].Ports, p.Name)
		}
	}
	dir, err := os.MkdirTemp("", "fabricgen-bench-check-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: dir, Fabric: f})
	if err != nil {
		return fail(err)
	}
	defer l.Close()
	if d, err := time.ParseDuration(delay); err == nil && d > 0 {
		for _, s := range specs {
			l.Device(s.Name).SetFault(lab.Fault{Delay: d})
		}
	}
	// The data plane computes the fabric's traffic once per change of
	// configuration or fault (about a second here); do it now, as a lab
	// that has been up for a while has, not inside the measured check.
	_ = l.DataPlane().View(specs[0].Name).Ports()
	srv, err := l.ServeControl(context.Background(), filepath.Join(dir, lab.ControlSocket))
	if err != nil {
		return fail(err)
	}
	defer srv.Close()
	info := benchInfo{KnownHosts: l.KnownHostsPath(), Inventory: map[string]string{}, Control: srv.Path()}
	for _, s := range specs {
		info.Inventory[s.Name] = l.Addr(s.Name)
	}
	if err := json.NewEncoder(os.Stdout).Encode(info); err != nil {
		return 2
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// startBenchLab runs the lab helper and returns its address book and pid.
func startBenchLab(b *testing.B, delay time.Duration) (benchInfo, int) {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchLabEnv+"="+delay.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	var info benchInfo
	if err := json.NewDecoder(bufio.NewReader(stdout)).Decode(&info); err != nil {
		b.Fatalf("lab helper: %v", err)
	}
	return info, cmd.Process.Pid
}

// procCPU is a process's user+system CPU time from /proc/PID/stat.
func procCPU(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(raw)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCheck checks 1,000 lab devices (examples/scale with 10 spines,
// 30 leaves and 960 NICs, served by a child process with the intent
// applied and its data plane) with parallelism 64: two readings, the lab
// clock advanced 10 s between them through its control socket, and the
// evaluation. It reports the wall time of one check, the client and lab
// CPU per device, one device's check time measured alone, the ideal wall
// time (⌈devices ÷ parallelism⌉ × one device's time) and wall ÷ ideal.
// "loopback" answers at once, so the CPU of client and lab on this
// machine bound the wall time; "device-latency" gives every response
// 100 ms, like a real switch, which is what parallelism is for.
func BenchmarkCheck(b *testing.B) {
	b.Run("loopback", func(b *testing.B) { benchmarkCheck(b, 0) })
	b.Run("device-latency=100ms", func(b *testing.B) { benchmarkCheck(b, 100*time.Millisecond) })
}

func benchmarkCheck(b *testing.B, delay time.Duration) {
	const parallelism = 64
	f, err := benchFabric()
	if err != nil {
		b.Fatal(err)
	}
	devices := len(f.Devices)
	info, labPID := startBenchLab(b, delay)
	hk, err := session.NewHostKeys([]string{info.KnownHosts}, false)
	if err != nil {
		b.Fatal(err)
	}
	ctl, err := lab.DialControl(context.Background(), info.Control)
	if err != nil {
		b.Fatal(err)
	}
	defer ctl.Close()
	clock := func() time.Time {
		rep, err := ctl.Do(context.Background(), lab.ControlRequest{Op: "clock"})
		if err != nil {
			b.Fatal(err)
		}
		t, _ := time.Parse(time.RFC3339Nano, rep.ClockTime)
		return t
	}
	opts := Options{Parallelism: parallelism, Timeout: 2 * time.Minute, HostKeys: hk, Inventory: info.Inventory, Getenv: getenv, Clock: check.ClockLab}
	checkOnce := func(devs []*schema.Device, par int) []check.Finding {
		o := opts
		o.Parallelism = par
		o.Sessions = NewSessions(context.Background())
		defer func() { _ = o.Sessions.Close() }()
		now := clock()
		o.Now = func() time.Time { return now }
		before, err := Take(context.Background(), devs, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ctl.Do(context.Background(), lab.ControlRequest{Op: "clock", Advance: "10s"}); err != nil {
			b.Fatal(err)
		}
		now = clock()
		after, err := Take(context.Background(), devs, o)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range after.Devices {
			if d.Error != "" {
				b.Fatalf("%s: %s", d.Name, d.Error)
			}
		}
		fs, err := check.Evaluate(f, before, after, check.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return fs
	}
	// One device alone (the slowest kind, a host), best of 3: the unit of
	// the ideal.
	var oneDev *schema.Device
	for _, d := range f.Devices {
		if d.HostPlatform {
			oneDev = d
			break
		}
	}
	one := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		checkOnce([]*schema.Device{oneDev}, 1)
		one = min(one, time.Since(start))
	}
	ideal := time.Duration((devices + parallelism - 1) / parallelism * int(one))
	b.ResetTimer()
	var wall, cpu, labCPU time.Duration
	for range b.N {
		c0, l0, t0 := cpuTime(), procCPU(labPID), time.Now()
		fs := checkOnce(f.Devices, parallelism)
		wall += time.Since(t0)
		cpu += cpuTime() - c0
		labCPU += procCPU(labPID) - l0
		for _, fd := range fs {
			if fd.Severity >= schema.SevWarning {
				b.Fatalf("the healthy benchmark fabric has a finding: %s %s", fd.Rule, fd.Summary)
			}
		}
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64(devices), "devices")
	b.ReportMetric((wall / n).Seconds(), "wall-s/check")
	b.ReportMetric(float64((cpu/n).Microseconds())/1000/float64(devices), "client-cpu-ms/device")
	b.ReportMetric(float64((labCPU/n).Microseconds())/1000/float64(devices), "lab-cpu-ms/device")
	b.ReportMetric(one.Seconds()*1000, "one-device-ms")
	b.ReportMetric(ideal.Seconds(), "ideal-s")
	b.ReportMetric(float64(wall/n)/float64(ideal), "wall/ideal")
	b.ReportMetric(((cpu + labCPU) / n / time.Duration(runtime.NumCPU())).Seconds(), "cpu-floor-s")
}
