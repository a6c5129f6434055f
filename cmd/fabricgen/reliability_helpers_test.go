package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// The reliability suite (reliability_test.go) drives the real fabricgen
// binary as separate processes: a lab up per scenario, plan, apply,
// rollback, lab fault and lab show, with real signals and real SSH. These
// are its tools: building the binary once, running and watching child
// processes, and judging a device's configuration against its backup and
// the intents.

// relSecret is the lab password the children get in FABRICGEN_PASSWORD.
const relSecret = "rel-T3st-lab-pa55"

// relBin is the fabricgen binary built once per test run.
var relBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

var errNoGoTool = errors.New("the go command is neither on PATH nor in GOROOT/bin")

// TestMain removes the binary the reliability suite built.
func TestMain(m *testing.M) {
	code := m.Run()
	if relBin.dir != "" {
		_ = os.RemoveAll(relBin.dir)
	}
	os.Exit(code)
}

// relBinary builds ./cmd/fabricgen (without -race: the children are the
// system under test, the race detector watches the parent) once, and
// returns its path. Without a go command the test skips, naming it,
// except under CI=true.
func relBinary(t *testing.T) string {
	t.Helper()
	relBin.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(build.Default.GOROOT, "bin", "go")
			if _, serr := os.Stat(goTool); serr != nil {
				relBin.err = errNoGoTool
				return
			}
		}
		dir, err := os.MkdirTemp("", "fgbin")
		if err != nil {
			relBin.err = err
			return
		}
		relBin.dir = dir
		bin := filepath.Join(dir, "fabricgen")
		cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/fabricgen")
		cmd.Dir = repoRoot(t)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			relBin.err = fmt.Errorf("go build: %w", err)
			return
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// A cold build on a loaded 2-core machine takes a while: give it
		// half of what is left of the test binary's deadline.
		limit := 10 * time.Minute
		if dl, ok := t.Deadline(); ok {
			limit = time.Until(dl) / 2
		}
		timer := time.NewTimer(limit)
		defer timer.Stop()
		select {
		case err = <-done:
		case <-timer.C:
			_ = cmd.Process.Kill()
			<-done
			err = fmt.Errorf("no binary within %s", limit.Round(time.Second))
		}
		if err != nil {
			relBin.err = fmt.Errorf("go build ./cmd/fabricgen: %w\n%s", err, out.String())
			return
		}
		relBin.path = bin
	})
	if errors.Is(relBin.err, errNoGoTool) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v: the reliability suite builds the fabricgen binary with it", relBin.err)
		}
		t.Skipf("%v: the reliability suite builds the fabricgen binary with it", relBin.err)
	}
	if relBin.err != nil {
		t.Fatal(relBin.err)
	}
	return relBin.path
}

// relEnv is the children's environment: the test's, without fabricgen's
// own variables (a plan key or FABRICGEN_VAR_* would change what they
// do) and with the lab password, no colour and every progress step (the
// tests act at given steps).
func relEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "FABRICGEN_") || k == "NO_COLOR" || k == "SSH_AUTH_SOCK" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "FABRICGEN_PASSWORD="+relSecret, "NO_COLOR=1", ProgressEnv+"=steps")
}

// relDeadline is the end of one wait: waitPatience from now.
func relDeadline(t *testing.T) time.Time { return time.Now().Add(waitPatience(t)) }

// lineLog collects a child's output stream and lets the test wait for a
// line, or act on one in the goroutine that reads it (for a signal that
// must land before the child's next command).
type lineLog struct {
	mu      sync.Mutex
	all     bytes.Buffer
	partial []byte
	lines   []string
	notify  chan struct{}
	hooks   []lineHook
}

type lineHook struct {
	match string
	fn    func()
}

func newLineLog() *lineLog { return &lineLog{notify: make(chan struct{})} }

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.all.Write(p)
	l.partial = append(l.partial, p...)
	var fire []func()
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := string(l.partial[:i])
		l.partial = l.partial[i+1:]
		l.lines = append(l.lines, line)
		kept := l.hooks[:0]
		for _, h := range l.hooks {
			if strings.Contains(line, h.match) {
				fire = append(fire, h.fn)
			} else {
				kept = append(kept, h)
			}
		}
		l.hooks = kept
		close(l.notify)
		l.notify = make(chan struct{})
	}
	l.mu.Unlock()
	for _, f := range fire {
		f()
	}
	return len(p), nil
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all.String()
}

// onLine runs fn once, in the writer's goroutine, on the first line from
// now on that contains match.
func (l *lineLog) onLine(match string, fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hooks = append(l.hooks, lineHook{match, fn})
}

// find returns the first line containing one of matches, and whether
// there is one; else a channel closed at the next line.
func (l *lineLog) find(matches ...string) (string, bool, chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		for _, m := range matches {
			if strings.Contains(line, m) {
				return line, true, nil
			}
		}
	}
	return "", false, l.notify
}

// relProc is a running fabricgen child process.
type relProc struct {
	t    *testing.T
	args []string
	cmd  *exec.Cmd
	out  *lineLog
	err  *lineLog
	done chan struct{}
	code int
}

// relResult is how a child ended.
type relResult struct {
	args           []string
	code           int
	stdout, stderr string
}

func (r relResult) String() string {
	return fmt.Sprintf("fabricgen %s: exit %d\n--- stdout:\n%s--- stderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// want fails the test unless the child exited with code.
func (r relResult) want(t *testing.T, code int) relResult {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d: %s", r.code, code, r)
	}
	return r
}

// relStart starts fabricgen with args in dir; the test's end kills it if
// it still runs.
func relStart(t *testing.T, dir string, args ...string) *relProc {
	t.Helper()
	p := &relProc{t: t, args: args, out: newLineLog(), err: newLineLog(), done: make(chan struct{})}
	p.cmd = exec.Command(relBinary(t), args...)
	p.cmd.Dir = dir
	p.cmd.Env = relEnv()
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start fabricgen %s: %v", strings.Join(args, " "), err)
	}
	go func() {
		err := p.cmd.Wait()
		p.code = 0
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			p.code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				p.code = -int(ws.Signal())
			}
		} else if err != nil {
			p.code = -1000
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// relRun runs fabricgen with args in dir to its end.
func relRun(t *testing.T, dir string, args ...string) relResult {
	t.Helper()
	return relStart(t, dir, args...).wait()
}

// wait waits for the child to end, killing it (and failing) when it takes
// longer than the test can wait.
func (p *relProc) wait() relResult {
	p.t.Helper()
	timer := time.NewTimer(time.Until(relDeadline(p.t)))
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		_ = p.cmd.Process.Kill()
		<-p.done
		p.t.Fatalf("fabricgen %s did not end in time: %s", strings.Join(p.args, " "), p.result())
	}
	return p.result()
}

func (p *relProc) result() relResult {
	r := relResult{args: p.args, code: p.code, stdout: p.out.String(), stderr: p.err.String()}
	if strings.Contains(r.stdout+r.stderr, relSecret) {
		p.t.Errorf("fabricgen %s printed the lab password", strings.Join(p.args, " "))
	}
	return r
}

// waitLine waits until the child prints a line containing one of
// matches on stream (its stdout or stderr), and fails when it ends first
// or the wait runs out.
func (p *relProc) waitLine(stream *lineLog, matches ...string) string {
	p.t.Helper()
	match := strings.Join(matches, `" or "`)
	deadline := relDeadline(p.t)
	for {
		line, ok, changed := stream.find(matches...)
		if ok {
			return line
		}
		timer := time.NewTimer(time.Until(deadline))
		select {
		case <-changed:
			timer.Stop()
			continue
		case <-p.done:
			timer.Stop()
			if line, ok, _ := stream.find(matches...); ok {
				return line
			}
			p.t.Fatalf("fabricgen %s ended before printing %q: %s", strings.Join(p.args, " "), match, p.result())
		case <-timer.C:
			_ = p.cmd.Process.Kill()
			<-p.done
			p.t.Fatalf("fabricgen %s never printed %q: %s", strings.Join(p.args, " "), match, p.result())
		}
	}
}

// signal sends sig to the child.
func (p *relProc) signal(sig os.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("signal %s to fabricgen %s: %v", sig, strings.Join(p.args, " "), err)
	}
}

// readJSONFile decodes a JSON file into v.
func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// unmanaged lists what a configuration holds outside the sections
// fabricgen manages for any of the rendered configs, as a multiset of
// "path → raw line" entries (switches whose config is text) or "TABLE|key|
// field = value" entries (SONiC's CONFIG_DB). Raw lines keep their
// indentation, so a comparison is byte for byte.
func unmanaged(t *testing.T, dl *dialect.Dialect, text string, rendered ...string) map[string]int {
	t.Helper()
	out := map[string]int{}
	if dl.ConfigDB {
		managed := map[string]bool{}
		for _, r := range rendered {
			cmp, err := config.Compare("device", text, r, dl)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(cmp.Running+cmp.Desired, "\n") {
				if f, _, ok := strings.Cut(l, " = "); ok {
					managed[f] = true
				}
			}
		}
		var doc map[string]map[string]map[string]any
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatalf("CONFIG_DB is not JSON: %v", err)
		}
		// BUFFER_QUEUE and BUFFER_PG are compared by queue / priority
		// group: a stock "Ethernet0|3-4" split into the render's "3" and
		// the device's "4" leaves the device's profile of queue 4 as it
		// was.
		ours := map[string]bool{}
		for _, r := range rendered {
			var rd map[string]map[string]map[string]any
			_ = json.Unmarshal([]byte(r), &rd)
			for _, tb := range []string{"BUFFER_QUEUE", "BUFFER_PG"} {
				for k := range rd[tb] {
					for _, i := range bufferIndexes(k) {
						ours[tb+"|"+i] = true
					}
				}
			}
		}
		for tb, keys := range doc {
			for k, fields := range keys {
				for f, v := range fields {
					// What the switch derives itself (buffermgrd's
					// lossless PGs and profiles) is nobody's change.
					if sv, ok := v.(string); ok && derived(dl, tb+"|"+k+"|"+f+" = "+sv) {
						continue
					}
					b, _ := json.Marshal(v)
					if ids := bufferIndexes(k); (tb == "BUFFER_QUEUE" || tb == "BUFFER_PG") && ids != nil {
						for _, i := range ids {
							if !ours[tb+"|"+i] {
								out[tb+"|"+i+"|"+f+" = "+string(b)]++
							}
						}
						continue
					}
					name := tb + "|" + k + "|" + f
					if !managed[name] {
						out[name+" = "+string(b)]++
					}
				}
			}
		}
		return out
	}
	managed := map[string]bool{}
	var walk func(prefix string, ns []*config.Node)
	walk = func(prefix string, ns []*config.Node) {
		for _, n := range ns {
			p := prefix + "\n" + n.Line
			managed[p] = true
			walk(p, n.Children)
		}
	}
	for _, r := range rendered {
		run, _ := config.Managed(config.Parse(text, dl), config.Parse(r, dl), dl)
		walk("", run.Nodes)
	}
	// The same nesting rule as config.Parse, keeping the raw line.
	type frame struct {
		indent int
		path   string
	}
	var stack []frame
	for _, line := range strings.Split(config.Normalize(text, dl), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		path := "\n" + trimmed
		if len(stack) > 0 {
			path = stack[len(stack)-1].path + path
		}
		stack = append(stack, frame{ind, path})
		if !managed[path] {
			out[strings.TrimPrefix(path, "\n")+"  ⟶  "+line]++
		}
	}
	return out
}

// sameUnmanaged fails when the lines outside the managed sections differ
// between two configurations (a line gone, changed or added).
func sameUnmanaged(t *testing.T, dl *dialect.Dialect, what, before, now string, rendered ...string) {
	t.Helper()
	if dl.Host {
		return // a host's state is all managed: compared whole instead
	}
	a, b := unmanaged(t, dl, before, rendered...), unmanaged(t, dl, now, rendered...)
	var gone, added []string
	for k, n := range a {
		if b[k] < n {
			gone = append(gone, k)
		}
	}
	for k, n := range b {
		if a[k] < n {
			added = append(added, k)
		}
	}
	sort.Strings(gone)
	sort.Strings(added)
	if len(gone)+len(added) > 0 {
		t.Errorf("%s: configuration outside the managed sections changed:\ngone:\n  %s\nadded:\n  %s", what,
			strings.Join(gone, "\n  "), strings.Join(added, "\n  "))
	}
	if len(a) == 0 {
		t.Errorf("%s: no line outside the managed sections to check: the brownfield config is missing", what)
	}
}

// withoutDerivedDB is a CONFIG_DB text without the fields the device
// writes itself (dialect.Derived), so a state compares the same whatever
// buffermgrd did after it (the text as is when it is not JSON).
func withoutDerivedDB(dl *dialect.Dialect, text string) string {
	var doc map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return text
	}
	for tb, keys := range doc {
		dropped := false
		for k, fields := range keys {
			n := len(fields)
			for f, v := range fields {
				if sv, ok := v.(string); ok && derived(dl, tb+"|"+k+"|"+f+" = "+sv) {
					delete(fields, f)
				}
			}
			if n > 0 && len(fields) == 0 {
				delete(keys, k)
				dropped = true
			}
		}
		if dropped && len(keys) == 0 {
			delete(doc, tb)
		}
	}
	b, err := json.MarshalIndent(doc, "", "    ")
	if err != nil {
		return text
	}
	return string(b) + "\n"
}

// derived reports whether the device writes the line itself
// (dialect.Derived).
func derived(dl *dialect.Dialect, line string) bool {
	for _, re := range dl.Derived {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// bufferIndexes lists a BUFFER_QUEUE / BUFFER_PG key's "port|index" for
// each index of "port|lo" or "port|lo-hi" (nil for another form).
func bufferIndexes(key string) []string {
	port, ids, ok := strings.Cut(key, "|")
	if !ok || strings.ContainsAny(port, ",") {
		return nil
	}
	a, b, isRange := strings.Cut(ids, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi-lo > 64 {
		return nil
	}
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, port+"|"+strconv.Itoa(i))
	}
	return out
}
