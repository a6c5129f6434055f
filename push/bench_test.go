package push

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// labHelperEnv makes the test binary a lab server (see TestMain): the
// benchmark runs its devices in another process so the client's CPU time
// can be measured alone.
const labHelperEnv = "FABRICGEN_BENCH_LAB_DEVICES"

// labDelayEnv gives the helper's devices a response time (a Go duration),
// as real switches have: show running-config takes tens to hundreds of ms.
const labDelayEnv = "FABRICGEN_BENCH_LAB_DELAY"

func TestMain(m *testing.M) {
	if n := os.Getenv(labHelperEnv); n != "" {
		os.Exit(serveLab(n))
	}
	os.Exit(m.Run())
}

// labInfo is what the helper prints once its devices listen.
type labInfo struct {
	KnownHosts string            `json:"known_hosts"`
	Inventory  map[string]string `json:"inventory"`
}

// benchPlatform is the platform of the benchmark's devices: the
// registry's first switch (the lab helper process and the benchmark agree
// on it without passing it).
func benchPlatform() (platform.Platform, bool) {
	for _, pl := range platforms.Needing("push dialect") {
		if !pl.Spec.Host {
			return pl, true
		}
	}
	return platform.Platform{}, false
}

func serveLab(count string) int {
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		fmt.Fprintf(os.Stderr, "%s=%q: want a device count\n", labHelperEnv, count)
		return 2
	}
	dir, err := os.MkdirTemp("", "fabricgen-bench-lab-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	pl, ok := benchPlatform()
	if !ok {
		fmt.Fprintln(os.Stderr, "the registry has no switch platform")
		return 2
	}
	specs := make([]lab.DeviceSpec, n)
	for i := range specs {
		specs[i] = lab.DeviceSpec{Name: fmt.Sprintf("leaf%04d", i), Platform: pl.Name, Username: "admin", Password: testSecret}
	}
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer l.Close()
	if v := os.Getenv(labDelayEnv); v != "" {
		delay, err := time.ParseDuration(v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s=%q: %v\n", labDelayEnv, v, err)
			return 2
		}
		for _, s := range specs {
			l.Device(s.Name).SetFault(lab.Fault{Delay: delay})
		}
	}
	info := labInfo{KnownHosts: l.KnownHostsPath(), Inventory: map[string]string{}}
	for _, s := range specs {
		info.Inventory[s.Name] = l.Addr(s.Name)
	}
	if err := json.NewEncoder(os.Stdout).Encode(info); err != nil {
		return 2
	}
	_, _ = io.Copy(io.Discard, os.Stdin) // serve until the benchmark closes stdin
	return 0
}

// procCPU is a process's user+system CPU time from /proc/PID/stat.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+2:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// startLabProcess runs n EOS lab devices in a child process and returns
// its address book and pid.
func startLabProcess(b *testing.B, n int, delay time.Duration) (labInfo, int) {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", labHelperEnv, n), fmt.Sprintf("%s=%s", labDelayEnv, delay))
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
	var info labInfo
	if err := json.NewDecoder(bufio.NewReader(stdout)).Decode(&info); err != nil {
		b.Fatalf("lab helper: %v", err)
	}
	return info, cmd.Process.Pid
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlan plans 1,000 EOS lab devices (served by a child process)
// with parallelism 64. It reports the wall time of one plan, the client
// CPU per device, one device's plan time measured alone, the ideal wall
// time (devices ÷ parallelism × one device's time) and wall ÷ ideal.
// "loopback" answers at once, so client and lab CPU on this machine bound
// the wall time; "device-latency" gives every response 100 ms, like a real
// switch, which is what parallelism is for.
func BenchmarkPlan(b *testing.B) {
	b.Run("loopback", func(b *testing.B) { benchmarkPlan(b, 0) })
	b.Run("device-latency=100ms", func(b *testing.B) { benchmarkPlan(b, 100*time.Millisecond) })
}

func benchmarkPlan(b *testing.B, delay time.Duration) {
	const devices, parallelism = 1000, 64
	info, labPID := startLabProcess(b, devices, delay)
	hk, err := session.NewHostKeys([]string{info.KnownHosts}, false)
	if err != nil {
		b.Fatal(err)
	}
	pl, ok := benchPlatform()
	if !ok {
		b.Fatal("the registry has no switch platform")
	}
	pc, err := caseFrom(platformtest.Of(repoRoot, pl))
	if err != nil {
		b.Fatal(err)
	}
	rendered := []byte(pc.dev.rendered)
	f := &schema.Fabric{Name: "bench", Digest: "bench"}
	var inputs []Input
	for i := range devices {
		d := &schema.Device{
			Name:     fmt.Sprintf("leaf%04d", i),
			Platform: schema.Value[schema.Platform]{V: pl.Name, Set: true},
			Credentials: schema.Credentials{
				Username:    schema.Value[string]{V: "admin", Set: true},
				PasswordEnv: schema.Value[string]{V: passwordEnv, Set: true},
			},
		}
		f.Devices = append(f.Devices, d)
		inputs = append(inputs, Input{Device: d, Rendered: rendered})
	}
	f.Reindex()
	opts := Options{Parallelism: parallelism, Timeout: 60 * time.Second, HostKeys: hk, Inventory: info.Inventory, Getenv: getenv}

	// One device alone, best of 5: the unit of the ideal.
	one := time.Duration(1<<63 - 1)
	solo := opts
	solo.Parallelism = 1
	for range 5 {
		start := time.Now()
		p, err := Plan(context.Background(), f, inputs[:1], "bench", solo)
		if err != nil || p.Devices[0].Status == "error" {
			b.Fatalf("single plan: %v %s", err, p.Devices[0].Error)
		}
		one = min(one, time.Since(start))
	}
	ideal := time.Duration((devices + parallelism - 1) / parallelism * int(one))

	b.ResetTimer()
	var wall, cpu, labCPU time.Duration
	for range b.N {
		c0, l0, t0 := cpuTime(), procCPU(labPID), time.Now()
		p, err := Plan(context.Background(), f, inputs, "bench", opts)
		wall += time.Since(t0)
		cpu += cpuTime() - c0
		labCPU += procCPU(labPID) - l0
		if err != nil {
			b.Fatal(err)
		}
		if s := p.Summary(); s.Errors > 0 {
			b.Fatalf("%d devices failed, e.g. %s", s.Errors, firstError(p.Devices))
		}
	}
	n := time.Duration(b.N)
	b.ReportMetric((wall / n).Seconds(), "wall-s/plan")
	b.ReportMetric(float64((cpu/n).Microseconds())/1000/devices, "client-cpu-ms/device")
	b.ReportMetric(float64((labCPU/n).Microseconds())/1000/devices, "lab-cpu-ms/device")
	b.ReportMetric(one.Seconds()*1000, "one-device-ms")
	b.ReportMetric(ideal.Seconds(), "ideal-s")
	b.ReportMetric(float64(wall/n)/float64(ideal), "wall/ideal")
	// The CPU floor: client and lab CPU spread over every core. On a
	// small machine it, not the ideal, bounds the wall time.
	floor := (cpu + labCPU) / n / time.Duration(runtime.NumCPU())
	b.ReportMetric(floor.Seconds(), "cpu-floor-s")
}

func firstError(ds []*planfile.Device) string {
	for _, d := range ds {
		if d.Error != "" {
			return d.Name + ": " + d.Error
		}
	}
	return ""
}
