package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// labFabric is the example the lab command tests start (three of its
// devices: an EOS leaf, a SONiC leaf and a ConnectX host).
var labFabric = filepath.Join("..", "..", "examples", "clos-400g")

func labDevices() []string {
	return []string{"--device", "leaf1", "--device", "leaf3", "--device", "nic01"}
}

// waitPatience bounds one wait: a quarter of what is left of the test's
// deadline, at most two minutes, at least a second.
func waitPatience(t *testing.T) time.Duration {
	const most = 2 * time.Minute
	dl, ok := t.Deadline()
	if !ok {
		return most
	}
	return min(most, max(time.Second, time.Until(dl)/4))
}

// shortTemp is a temporary directory short enough for a unix socket.
func shortTemp(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "fg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// waitForLab polls the control socket until the lab answers.
func waitForLab(t *testing.T, dir string, exited <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(waitPatience(t))
	for {
		if _, err := labRequest(context.Background(), dir, lab.ControlRequest{Op: "ping"}); err == nil {
			return
		}
		select {
		case <-exited:
			t.Fatal("lab up exited before serving")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("lab up never answered on its control socket")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLabUpBadFlags(t *testing.T) {
	cfg := t.TempDir()
	writeFile(t, filepath.Join(cfg, "leaf9.cfg"), "hostname leaf9\n")
	// leaf3 of the lab's fabric is of a platform whose running config is
	// not a .cfg file; the refusal of a file that names no device lists
	// every platform's file form.
	leaf3, ok := platforms.Get(schema.Platform(examplePlatform(t, "clos-400g", "leaf3")))
	if !ok || leaf3.RunningConfig.Ext == "cfg" {
		t.Fatalf("leaf3 of clos-400g: a registry platform whose running config is not .cfg, got %+v", leaf3.RunningConfig)
	}
	var everyPlatform []string
	for _, pl := range platforms.Needing("lab emulator") {
		everyPlatform = append(everyPlatform, string(pl.Name))
	}
	wrong := t.TempDir()
	writeFile(t, filepath.Join(wrong, "leaf3.cfg"), "{}\n")
	junos := t.TempDir()
	writeFile(t, filepath.Join(junos, "spine1.cfg"), "set system host-name spine1\r\nreboot now\r\n")
	big := t.TempDir()
	f, err := os.Create(filepath.Join(big, "leaf1.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(lab.MaxRunningConfig + 1); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	zero := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(zero, "leaf1.cfg")); err != nil {
		t.Fatal(err)
	}
	pipe := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(pipe, "leaf1.cfg"), 0o600); err != nil {
		t.Fatal(err)
	}
	deep := t.TempDir()
	if err := os.WriteFile(filepath.Join(deep, "leaf3.json"), []byte("{\"PORT\":\n"+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown device", []string{"--fault", "leaf9:delay=1s"}, []string{`--fault "leaf9:delay=1s"`, `no device "leaf9"`, "drop-after=N", "reject=REGEXP", "delay=DURATION"}},
		{"unknown key", []string{"--fault", "leaf1:speed=1"}, []string{`"leaf1:speed=1"`, `unknown key "speed"`, "drop-after=N"}},
		{"bad value", []string{"--fault", "leaf1:drop-after=many"}, []string{`"leaf1:drop-after=many"`, "whole number"}},
		{"bad regexp", []string{"--fault", "leaf1:reject=(("}, []string{`"leaf1:reject=(("`, "regular expression"}},
		{"no device part", []string{"--fault", "delay=1s"}, []string{`"delay=1s"`, "DEVICE:KEY=VALUE"}},
		{"file names no device", []string{"--running-config", cfg}, append([]string{"leaf9.cfg names no device of the fabric", "<device>." + leaf3.RunningConfig.Ext}, everyPlatform...)},
		{"wrong extension", []string{"--running-config", wrong}, []string{"leaf3.cfg: device leaf3 is " + string(leaf3.Name) + ", whose running config is leaf3." + leaf3.RunningConfig.Ext}},
		{"bad line", []string{"--running-config", junos, "--device", "spine1"}, []string{"spine1.cfg", `line 2 "reboot now"`}},
		{"too big", []string{"--running-config", big}, []string{"leaf1.cfg holds more than 16 MiB", "the lab reads at most 16 MiB of configuration per device"}},
		{"not a directory", []string{"--running-config", filepath.Join(big, "leaf1.cfg")}, []string{"is not a directory"}},
		{"symlink to /dev/zero", []string{"--running-config", zero}, []string{"leaf1.cfg is a character device"}},
		{"named pipe", []string{"--running-config", pipe}, []string{"leaf1.cfg is a named pipe"}},
		{"config_db.json nested 100,000 deep", []string{"--running-config", deep, "--device", "leaf3"}, []string{"leaf3.json:2:", "nested too deeply"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, out, errb := pushStreams("")
			args := append([]string{"lab", "up", labFabric, "--dir", filepath.Join(shortTemp(t), "lab")}, c.args...)
			if !contains(c.args, "--device") {
				args = append(args, labDevices()...)
			}
			if code := run(context.Background(), args, s); code != exitFailed {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errb)
			}
			for _, w := range c.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb)
				}
			}
		})
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestLabUpFaultShow runs lab up in this process and lab fault / lab show
// against it through the control socket, as another process would.
func TestLabUpFaultShow(t *testing.T) {
	base := shortTemp(t)
	dir := filepath.Join(base, "lab")
	cfg := filepath.Join(base, "cfg")
	if err := os.Mkdir(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	// leaf1 starts from its platform folder's brownfield configuration.
	pl, ok := platforms.Get(schema.Platform(examplePlatform(t, "clos-400g", "leaf1")))
	if !ok {
		t.Fatal("leaf1's platform is not in the registry")
	}
	_, eos, err := platformtest.Of(repoRoot(t), pl).Brownfield()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cfg, "leaf1.cfg"), strings.ReplaceAll(eos, "\n", "\r\n"))
	writeFile(t, filepath.Join(cfg, "nic01.sh"), "mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0\n")
	writeFile(t, filepath.Join(cfg, "leaf2.cfg"), "not loaded: leaf2 is not in this lab\n")
	writeFile(t, filepath.Join(cfg, ".gitkeep"), "")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, upOut, upErr := pushStreams("")
	var mu sync.Mutex
	s.out, s.err = &lockedWriter{w: upOut, mu: &mu}, &lockedWriter{w: upErr, mu: &mu}
	done := make(chan struct{})
	var code int
	go func() {
		defer close(done)
		code = run(ctx, append([]string{"lab", "up", labFabric, "--dir", dir, "--running-config", cfg,
			"--fault", "leaf1:reject=^qos map", "--fault", "leaf1:delay=10ms", "--fault", "leaf3:drop-after=2"}, labDevices()...), s)
	}()
	waitForLab(t, dir, done)

	cli := func(want int, args ...string) string {
		t.Helper()
		s, out, errb := pushStreams("")
		if got := run(context.Background(), args, s); got != want {
			t.Fatalf("fabricgen %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, want, out, errb)
		}
		return out.String() + errb.String()
	}
	if out := cli(0, "lab", "fault", "--dir", dir, "leaf1", "drop-after=5"); out != "leaf1: drop-after=5 reject=^qos map delay=10ms\n" {
		t.Errorf("lab fault adds to the --fault settings: %q", out)
	}
	if out := cli(0, "lab", "fault", "--dir", dir, "leaf3", "clear"); out != "leaf3: none\n" {
		t.Errorf("lab fault clear: %q", out)
	}
	show := cli(0, "lab", "show", "--dir", dir, "leaf1")
	if show != string(eos) {
		t.Errorf("lab show of a device started from a file:\n%s", show)
	}
	if out := cli(0, "lab", "show", "--dir", dir, "nic01"); !strings.Contains(out, "dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on") {
		t.Errorf("lab show of the host: %q", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lab", "fault", "--dir", dir, "leaf9", "delay=1s"}, `no device "leaf9" in this lab: use one of leaf1, leaf3, nic01`},
		{[]string{"lab", "fault", "--dir", dir, "leaf1", "speed=1"}, `unknown key "speed"`},
		{[]string{"lab", "fault", "--dir", dir, "leaf1", "clear", "delay=1s"}, "clear goes alone"},
		{[]string{"lab", "show", "--dir", dir, "leaf9"}, `no device "leaf9"`},
		{[]string{"lab", "show", "--dir", filepath.Join(base, "nolab"), "leaf1"}, "no lab is running in " + filepath.Join(base, "nolab")},
		{[]string{"lab", "fault", "--dir", filepath.Join(base, "nolab"), "leaf1", "clear"}, "start one with fabricgen lab up"},
	} {
		if out := cli(exitFailed, c.args...); !strings.Contains(out, c.want) {
			t.Errorf("%s: %q, want %q", strings.Join(c.args, " "), out, c.want)
		}
	}
	// A second lab on the same directory is refused.
	if out := cli(exitFailed, append([]string{"lab", "up", labFabric, "--dir", dir}, labDevices()...)...); !strings.Contains(out, "another lab is running") {
		t.Errorf("second lab up: %q", out)
	}
	cancel()
	<-done
	if code != 0 {
		t.Errorf("lab up exit %d\n%s", code, upErr)
	}
	mu.Lock()
	text := upOut.String()
	mu.Unlock()
	for _, want := range []string{"from " + filepath.Join(cfg, "leaf1.cfg"), "fault reject=^qos map delay=10ms", "fault drop-after=2", "lab fault --dir " + dir, "Lab stopped."} {
		if !strings.Contains(text, want) {
			t.Errorf("lab up output lacks %q:\n%s", want, text)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, lab.ControlSocket)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("control socket left after lab up returned: %v", err)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestLabHelperProcess is not a test: TestLabUpAcrossProcesses runs the
// test binary again with FABRICGEN_LAB_HELPER=1 to get a fabricgen
// process (signals and all, as main sets them up).
func TestLabHelperProcess(t *testing.T) {
	if os.Getenv("FABRICGEN_LAB_HELPER") != "1" {
		t.Skip("helper process of TestLabUpAcrossProcesses")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, strings.Split(os.Getenv("FABRICGEN_LAB_ARGS"), "\x1f"), newStreams())
	stop()
	os.Exit(code)
}

// TestLabUpAcrossProcesses starts lab up as its own process, changes a
// fault and reads a configuration from this one, and stops it with a real
// signal: it exits 0 and removes its control socket.
func TestLabUpAcrossProcesses(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(shortTemp(t), "lab")
			args := append([]string{"lab", "up", labFabric, "--dir", dir, "--fault", "leaf3:delay=1ms"}, labDevices()...)
			cmd := exec.Command(os.Args[0], "-test.run=^TestLabHelperProcess$")
			cmd.Env = append(os.Environ(), "FABRICGEN_LAB_HELPER=1", "FABRICGEN_PASSWORD="+cmdSecret, "FABRICGEN_LAB_ARGS="+strings.Join(args, "\x1f"))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			var werr error
			go func() { werr = cmd.Wait(); close(exited) }()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-exited
			})
			waitForLab(t, dir, exited)
			rep, err := labRequest(context.Background(), dir, lab.ControlRequest{Op: "fault", Device: "leaf3", Set: []string{"reject=apply-patch"}})
			if err != nil || rep.Fault != "reject=apply-patch delay=1ms" {
				t.Fatalf("fault across processes: %v %q", err, rep.Fault)
			}
			rep, err = labRequest(context.Background(), dir, lab.ControlRequest{Op: "show", Device: "leaf3"})
			if err != nil || !strings.Contains(rep.Output, `"DEVICE_METADATA"`) {
				t.Fatalf("show across processes: %v %q", err, rep.Output)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(waitPatience(t)):
				t.Fatalf("lab up did not stop on %s:\n%s", sig, out.String())
			}
			if werr != nil {
				t.Errorf("lab up after %s: %v\n%s", sig, werr, out.String())
			}
			if _, err := os.Stat(filepath.Join(dir, lab.ControlSocket)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("control socket left after %s: %v", sig, err)
			}
			if !strings.Contains(out.String(), "Lab stopped.") {
				t.Errorf("output:\n%s", out.String())
			}
		})
	}
}

// startLabUp runs fabricgen lab up with args in this process until the
// test ends; it returns the lab's directory once the lab answers.
func startLabUp(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(shortTemp(t), "lab")
	ctx, cancel := context.WithCancel(context.Background())
	s, out, errb := pushStreams("")
	var mu sync.Mutex
	s.out, s.err = &lockedWriter{w: out, mu: &mu}, &lockedWriter{w: errb, mu: &mu}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if code := run(ctx, append([]string{"lab", "up", "--dir", dir}, args...), s); code != 0 {
			mu.Lock()
			t.Errorf("lab up %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errb)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitForLab(t, dir, done)
	return dir
}

// labExampleStep is one lab up of TestLabUpEveryExample: fix changes
// what the step before refused (it may return another fabric directory
// and more arguments), then lab up refuses saying refuse (in order; KEY
// is the case's ~/.ssh/fabricgen_ed25519), or serves when refuse is nil.
type labExampleStep struct {
	fix    func(t *testing.T, fdir string) (string, []string)
	refuse []string
}

// TestLabUpEveryExample runs lab up on every fabric under examples/: it
// serves, or it refuses with the exact change that makes it serve, and
// after that change it serves. A new example must be added to the table.
func TestLabUpEveryExample(t *testing.T) {
	root := repoRoot(t)
	writeKey := func(t *testing.T, fdir string) (string, []string) {
		writeKeyPair(t, filepath.Join(os.Getenv("HOME"), ".ssh", "fabricgen_ed25519"))
		return fdir, nil
	}
	cases := map[string][]labExampleStep{
		"ai-training-2subnet": {{}},
		"clos-400g":           {{}},
		"ib-cluster":          {{}},
		"releases":            {{}},
		"roce-storage": {
			{refuse: []string{"stor01-cx6 (", "devices.fab.hcl:", "KEY.pub, which does not exist", "ssh-keygen -t ed25519 -N '' -f KEY\n"}},
			{fix: writeKey},
		},
		"scale": {
			{refuse: []string{"fabric scale has 67648 devices; lab up serves at most 1024", "--device GLOB", "-var NAME=VALUE"}},
			{fix: func(t *testing.T, fdir string) (string, []string) {
				return fdir, []string{"-var", "spines=2", "-var", "leaves=2", "-var", "nics_per_leaf=2"}
			}, refuse: []string{"device leaf0001 (", "scale.fab.hcl:", "has no credentials block", labCredentialsBlock, "export FABRICGEN_PASSWORD=", "(7 more devices have none"}},
			{fix: func(t *testing.T, fdir string) (string, []string) {
				// The fix as printed: the block in every device block.
				b, err := os.ReadFile(filepath.Join(fdir, "scale.fab.hcl"))
				if err != nil {
					t.Fatal(err)
				}
				text := regexp.MustCompile(`(?m)^(device "[a-z]+" \{\n)`).ReplaceAllString(string(b), "${1}"+labCredentialsBlock+"\n")
				dst := filepath.Join(shortTemp(t), "scale")
				if err := os.Mkdir(dst, 0o700); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dst, "scale.fab.hcl"), text)
				return dst, nil
			}},
		},
	}
	// The broken fabrics are wrong on purpose, but they are fabrics: the
	// lab serves them once their NICs' key exists (roce-storage shows the
	// refusal without it).
	broken, err := filepath.Glob(filepath.Join(root, "examples", "broken", "*", "*.fab.hcl"))
	if err != nil || len(broken) == 0 {
		t.Fatalf("no examples/broken fabrics: %v", err)
	}
	for _, b := range broken {
		cases["broken/"+filepath.Base(filepath.Dir(b))] = []labExampleStep{{fix: writeKey}}
	}
	// Every directory of examples/ holding a fabric file is in the table.
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (!strings.HasSuffix(path, ".fab.hcl") && !strings.HasSuffix(path, ".fab.json")) {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "examples"), filepath.Dir(path))
		if _, ok := cases[filepath.ToSlash(rel)]; !ok {
			t.Errorf("examples/%s is a fabric without a case in TestLabUpEveryExample", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			home := shortTemp(t)
			t.Setenv("HOME", home)
			key := filepath.Join(home, ".ssh", "fabricgen_ed25519")
			fdir := filepath.Join(root, "examples", filepath.FromSlash(name))
			var extra []string
			for i, st := range cases[name] {
				if st.fix != nil {
					var more []string
					fdir, more = st.fix(t, fdir)
					extra = append(extra, more...)
				}
				args := append([]string{fdir}, extra...)
				if st.refuse == nil {
					dir := startLabUp(t, args...)
					rep, err := labRequest(context.Background(), dir, lab.ControlRequest{Op: "devices"})
					if err != nil || len(rep.Devices) == 0 {
						t.Errorf("the lab of %s lists no devices: %v", name, err)
					}
					continue
				}
				// A lab that serves instead of refusing is stopped, not waited for.
				ctx, cancel := context.WithTimeout(context.Background(), waitPatience(t))
				s, out, errb := pushStreams("")
				code := run(ctx, append([]string{"lab", "up", "--dir", filepath.Join(shortTemp(t), "lab")}, args...), s)
				cancel()
				if code != exitFailed {
					t.Fatalf("step %d: lab up %s: exit %d, want %d (a refusal)\n%s%s", i+1, strings.Join(args, " "), code, exitFailed, out, errb)
				}
				text := out.String() + errb.String()
				rest := text
				for _, w := range st.refuse {
					w = strings.ReplaceAll(w, "KEY", key)
					at := strings.Index(rest, w)
					if at < 0 {
						t.Fatalf("step %d: the refusal lacks %q (in order):\n%s", i+1, w, text)
					}
					rest = rest[at+len(w):]
				}
			}
		})
	}
}

// writeKeyPair writes an ed25519 key pair at key and key.pub, as
// ssh-keygen -t ed25519 with an empty passphrase does.
func writeKeyPair(t *testing.T, key string) {
	t.Helper()
	if _, err := os.Stat(key + ".pub"); err == nil {
		return
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, key, string(pem.EncodeToMemory(blk)))
	writeFile(t, key+".pub", string(ssh.MarshalAuthorizedKey(sp)))
}

// TestLabUpRealTime: a plain lab up (its clock on real time) and a plain
// check (no --lab-dir: it waits --interval on the wall) see traffic, and
// check finds a DSCP rewrite injected with --fault; --clock manual keeps
// the counters still. It runs always (about 2 s): a 300 ms interval is
// enough wall time for the lab's counters to move.
func TestLabUpRealTime(t *testing.T) {
	fabric := copyExample(t, "clos-400g", shortTemp(t))
	dir := startLabUp(t, fabric, "--fault", "spine1:remark=0")
	common := []string{"--inventory", filepath.Join(dir, "inventory.json"), "--known-hosts", filepath.Join(dir, "known_hosts")}
	// As the README's tour: apply the intent (factory configurations
	// have no RoCE class to follow), then check.
	s, out, errb := pushStreams("")
	if code := run(context.Background(), append([]string{"apply", fabric, "-auto-approve"}, common...), s); code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", code, out, errb)
	}
	s, out, errb = pushStreams("")
	code := run(context.Background(), append([]string{"check", fabric, "--interval", "300ms", "-format", "json"}, common...), s)
	if code != exitFindings {
		t.Fatalf("check against a lab with spine1:remark=0: exit %d, want %d\n%s%s", code, exitFindings, out, errb)
	}
	for _, want := range []string{`"CHK014"`, "spine1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("check lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out.String(), "not verified") {
		t.Errorf("check saw no traffic on a real-time lab:\n%s", out)
	}

	manual := startLabUp(t, labFabric, "--clock", "manual")
	for _, d := range []string{dir, manual} {
		a, err := labRequest(context.Background(), d, lab.ControlRequest{Op: "clock"})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		b, err := labRequest(context.Background(), d, lab.ControlRequest{Op: "clock"})
		if err != nil {
			t.Fatal(err)
		}
		if moved := a.ClockTime != b.ClockTime; moved != (d == dir) {
			t.Errorf("lab %s: clock %s then %s (real time: %v)", d, a.Clock, b.Clock, d == dir)
		}
	}
	s, out, errb = pushStreams("")
	if code := run(context.Background(), []string{"lab", "up", labFabric, "--clock", "wall"}, s); code != exitFailed || !strings.Contains(errb.String(), "--clock real (the default") {
		t.Errorf("lab up --clock wall: exit %d\n%s%s", code, out, errb)
	}
}
