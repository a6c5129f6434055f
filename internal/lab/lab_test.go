package lab

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

func TestStartValidation(t *testing.T) {
	sw, host := anySwitch(t), anyHost(t)
	ok := DeviceSpec{Name: "a", Platform: sw, Username: "u", Password: "p"}
	cases := []struct {
		name  string
		specs []DeviceSpec
		dir   string
		want  string
	}{
		{"no dir", []DeviceSpec{ok}, "", "Options.Dir is empty"},
		{"no devices", nil, "x", "no devices"},
		{"bad platform", []DeviceSpec{{Name: "a", Platform: "ios", Username: "u", Password: "p"}}, "x", `unknown platform "ios"`},
		{"bad name", []DeviceSpec{{Name: "a b", Platform: sw, Username: "u", Password: "p"}}, "x", "not a valid hostname"},
		{"duplicate", []DeviceSpec{ok, ok}, "x", "listed twice"},
		{"no credentials", []DeviceSpec{{Name: "a", Platform: sw, Username: "u"}}, "x", "no Password"},
		{"bad host port", []DeviceSpec{{Name: "a", Platform: host, Username: "u", Password: "p", Ports: []string{"Eth 1"}}}, "x", "not a Linux interface name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir
			if dir != "" {
				dir = t.TempDir()
			}
			l, err := Start(context.Background(), c.specs, Options{Dir: dir})
			if err == nil {
				_ = l.Close()
				t.Fatalf("Start succeeded, want error containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestKnownHostsAuthAndExec(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	var specs []DeviceSpec
	for _, p := range platforms.NamesNeeding("lab emulator") {
		specs = append(specs, DeviceSpec{Name: "d-" + strings.ReplaceAll(string(p), "_", "-"), Platform: p,
			Username: testUser, Password: testPass, AuthorizedKeys: []ssh.PublicKey{signer.PublicKey()}})
	}
	l := startLab(t, specs...)
	data, err := os.ReadFile(l.KnownHostsPath())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(specs) {
		t.Fatalf("known_hosts has %d lines, want %d", len(lines), len(specs))
	}
	for i, sp := range specs {
		host := "[127.0.0.1]:" + strings.TrimPrefix(l.Addr(sp.Name), "127.0.0.1:")
		if !strings.HasPrefix(lines[i], host+" ssh-ed25519 ") {
			t.Errorf("known_hosts line %d = %q, want it to start with %q", i, lines[i], host)
		}
	}
	hk, err := knownhosts.New(l.KnownHostsPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range specs {
		t.Run(string(sp.Platform), func(t *testing.T) {
			cfg := &ssh.ClientConfig{User: testUser, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: hk, Timeout: patience(t)}
			cl, err := ssh.Dial("tcp", l.Addr(sp.Name), cfg)
			if err != nil {
				t.Fatalf("public-key login: %v", err)
			}
			defer cl.Close()
			sess, err := cl.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			cmd := showRunning(t, sp.Platform, "hostname")
			out, err := sess.CombinedOutput(cmd)
			if err != nil || !strings.Contains(string(out), sp.Name) {
				t.Errorf("exec %q: %v %q", cmd, err, out)
			}
			bad := &ssh.ClientConfig{User: testUser, Auth: []ssh.AuthMethod{ssh.Password("wrong")}, HostKeyCallback: hk, Timeout: patience(t)}
			if c, err := ssh.Dial("tcp", l.Addr(sp.Name), bad); err == nil {
				_ = c.Close()
				t.Error("wrong password accepted")
			}
		})
	}
}

func TestHostKeysReusedAndBasePort(t *testing.T) {
	dir := t.TempDir()
	specs := []DeviceSpec{{Name: "a", Platform: anySwitch(t), Username: "u", Password: "p"}}
	l1, err := Start(context.Background(), specs, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k1 := l1.Device("a").HostKey().Marshal()
	_ = l1.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	l2, err := Start(context.Background(), specs, Options{Dir: dir, BasePort: base})
	if err != nil {
		t.Fatalf("Start on the free port %d: %v", base, err)
	}
	defer l2.Close()
	if string(l2.Device("a").HostKey().Marshal()) != string(k1) {
		t.Error("host key not reused from Options.Dir")
	}
	if got, want := l2.Addr("a"), fmt.Sprintf("127.0.0.1:%d", base); got != want {
		t.Errorf("Addr = %s, want %s", got, want)
	}
}

func TestContextCancelCloses(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l, err := Start(ctx, []DeviceSpec{{Name: "a", Platform: anyHost(t), Username: "u", Password: "p"}}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr("a")
	cancel()
	deadline := time.Now().Add(patience(t))
	for {
		if _, err := dialSSH(l, "a"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still accepts connections after cancel", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkStart1000 starts 1,000 devices (a mix of all platforms) and
// closes them: the cost of the lab in the push benchmark.
func BenchmarkStart1000(b *testing.B) {
	specs := benchSpecs(1000)
	dir := b.TempDir()
	b.ReportAllocs()
	var live uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		l, err := Start(context.Background(), specs, Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = after.HeapAlloc - before.HeapAlloc
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(live)/float64(len(specs)), "live-B/device")
}

// BenchmarkShowRunning1000 logs in to each of 1,000 devices with 64
// clients in parallel and reads the running config over SSH.
func BenchmarkShowRunning1000(b *testing.B) {
	specs := benchSpecs(1000)
	l, err := Start(context.Background(), specs, Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	hk, err := knownhosts.New(l.KnownHostsPath())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		work := make(chan DeviceSpec)
		var wg sync.WaitGroup
		errs := make(chan error, len(specs))
		for range 64 {
			wg.Go(func() {
				for sp := range work {
					errs <- execOnce(l, sp, hk)
				}
			})
		}
		for _, sp := range specs {
			work <- sp
		}
		close(work)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(specs))/1e6, "ms/device")
}

func execOnce(l *Lab, sp DeviceSpec, hk ssh.HostKeyCallback) error {
	cfg := &ssh.ClientConfig{User: sp.Username, Auth: []ssh.AuthMethod{ssh.Password(sp.Password)}, HostKeyCallback: hk,
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519}, Timeout: 10 * time.Second}
	cl, err := ssh.Dial("tcp", l.Addr(sp.Name), cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", sp.Name, err)
	}
	defer cl.Close()
	sess, err := cl.NewSession()
	if err != nil {
		return err
	}
	cmd := "ip link show"
	if pl, ok := platforms.Get(sp.Platform); ok && !pl.Spec.Host && pl.Dialect != nil {
		cmd = pl.Dialect().ShowRunning
	}
	out, err := sess.Output(cmd)
	if err != nil || len(out) == 0 {
		return fmt.Errorf("%s: %q: %w", sp.Name, cmd, err)
	}
	return nil
}

func benchSpecs(n int) []DeviceSpec {
	ps := platforms.NamesNeeding("lab emulator")
	specs := make([]DeviceSpec, n)
	for i := range specs {
		specs[i] = DeviceSpec{Name: fmt.Sprintf("dev%04d", i), Platform: ps[i%len(ps)], Username: "admin", Password: "bench-pw"}
	}
	return specs
}

// showRunning is the command printing platform p's running configuration
// (its push dialect's, which names the device), or host's for a host.
func showRunning(t testing.TB, p schema.Platform, host string) string {
	t.Helper()
	pl, ok := platforms.Get(p)
	if !ok {
		t.Fatalf("platform %s is not in the registry", p)
	}
	if pl.Spec.Host || pl.Dialect == nil {
		return host
	}
	return pl.Dialect().ShowRunning
}

// anySwitch is the registry's first switch platform the lab emulates: a
// test about the lab, not about a platform, starts one of those.
func anySwitch(t testing.TB) schema.Platform {
	t.Helper()
	for _, pl := range platforms.Needing("lab emulator") {
		if !pl.Spec.Host && pl.Emulator != nil {
			return pl.Name
		}
	}
	t.Fatal("the registry has no switch platform the lab emulates")
	return ""
}

// anyHost is the registry's first host platform the lab emulates.
func anyHost(t testing.TB) schema.Platform {
	t.Helper()
	for _, pl := range platforms.Needing("lab emulator") {
		if pl.Spec.Host && pl.Emulator != nil {
			return pl.Name
		}
	}
	t.Fatal("the registry has no host platform the lab emulates")
	return ""
}
