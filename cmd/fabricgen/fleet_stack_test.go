package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/schema"
)

// The host the stack test checks, its port with the fault, and the rule
// the fault raises. ai-training-2subnet's host links are 3 m DACs, so no
// host port has an optic to dirty (the lab refuses it); a bad cable on
// the host's port is the host-side fault: uncorrectable FEC codewords,
// CHK005, severity error.
const (
	stackHost     = "gpu01-cx6"
	stackHostname = "gpu01" // the host attribute of stackHost
	stackPort     = "ens1f0np0"
	stackFault    = "bad-cable=" + stackPort
	stackRule     = "CHK005"
	stackStaleSec = 5 // the copied FabricgenCheckStale threshold, seconds
)

// stackCheckArgs is the one command line the stack test runs on the
// host: fabricgen check --local for that host's NICs, written into
// node-exporter's textfile directory (the timer's command, without its
// state file). extra are more flags (a window).
func stackCheckArgs(textfileDir string, extra ...string) []string {
	return append([]string{"check", "fabric", "--local", "--lab-dir", "lab", "--textfile-dir", textfileDir}, extra...)
}

// TestFleetHealthStack is issue 28's proof through the real monitoring
// stack: Debian's prometheus-node-exporter (textfile collector),
// prometheus (the shipped rules) and prometheus-alertmanager (a webhook
// receiver in the test) on 127.0.0.1. A host's bad cable in the lab is
// checked by check --local (the host's commands through its runner) into
// the textfile directory and the alert reaches
// Alertmanager with the finding's labels and runbook; a second run on the
// same fault keeps the same alert (one fingerprint, never resolved and
// fired again); clearing the fault resolves it; a file nobody rewrites
// raises FabricgenCheckStale.
func TestFleetHealthStack(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab, Prometheus, Alertmanager and node-exporter")
	}
	bins := map[string]string{}
	for _, b := range []struct{ bin, pkg string }{
		{"prometheus", "prometheus"},
		{"prometheus-alertmanager", "prometheus-alertmanager"},
		{"prometheus-node-exporter", "prometheus-node-exporter"},
	} {
		p, err := exec.LookPath(b.bin)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s (Debian package %s) is not installed; .ci/run installs it", b.bin, b.pkg)
			}
			t.Skipf("%s (Debian package %s) is not installed", b.bin, b.pkg)
		}
		bins[b.bin] = p
	}
	st := startStack(t, bins)

	r := newPushRig(t, "ai-training-2subnet")
	srv, err := r.lab.ServeControl(r.ctx, filepath.Join(r.dir, "lab", lab.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	labFault := func(args ...string) {
		t.Helper()
		s, out, errb := pushStreams("")
		if code := run(r.ctx, append([]string{"lab", "fault", "--dir", "lab"}, args...), s); code != 0 {
			t.Fatalf("fabricgen lab fault %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errb)
		}
	}
	// check runs the host's check and returns when it started.
	check := func(want int, extra ...string) time.Time {
		t.Helper()
		start := time.Now()
		// The host's own commands, run in the lab host's shell through
		// --local's runner; the host is gpu01 by its hostname.
		s, out, errb := pushStreams("")
		s.hostname = func() (string, error) { return stackHostname, nil }
		var ran atomic.Int64
		s.localRunner = func(d *schema.Device) (collect.Runner, error) {
			dev := r.lab.Device(d.Name)
			if dev == nil {
				return nil, fmt.Errorf("%s is not in the lab", d.Name)
			}
			return labHostRunner{dev: dev, ran: &ran}, nil
		}
		args := stackCheckArgs(st.textfile, extra...)
		if code := run(r.ctx, args, s); code != want {
			t.Fatalf("fabricgen %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errb)
		}
		if ran.Load() == 0 {
			t.Fatal("check --local ran no command through the host's runner")
		}
		return start
	}
	isFinding := func(a stackAlert) bool {
		return a.Labels["alertname"] == "FabricgenFindingError" && a.Labels["rule"] == stackRule
	}

	// 1. The fault on the host's port, one check of that host.
	r.run(0, nil, "apply", "-auto-approve", "fabric")
	labFault(stackHost, stackFault)
	start := check(exitFindings)
	firstEvidence := stackEvidence(t, st.textfile, stackRule)
	st.waitProm(t, "FabricgenFindingError firing in Prometheus", "/api/v1/alerts", func(body []byte) bool {
		return stackPromFiring(body, "FabricgenFindingError", stackRule)
	})
	toProm := time.Since(start)

	// 2. The alert in Alertmanager, with the finding's labels and runbook.
	var fired stackAlert
	st.waitAM(t, "FabricgenFindingError for "+stackRule+" in Alertmanager", func(as []stackAlert) bool {
		for _, a := range as {
			if isFinding(a) && a.active() {
				fired = a
				return true
			}
		}
		return false
	})
	toAM := time.Since(start)
	for k, v := range map[string]string{"rule": stackRule, "device": stackHost, "port": stackPort, "fabric": "ai-training", "severity": "critical"} {
		if fired.Labels[k] != v {
			t.Errorf("the alert's %s is %q, want %q: %v", k, fired.Labels[k], v, fired.Labels)
		}
	}
	if _, ok := fired.Labels["summary"]; ok {
		t.Errorf("the alert carries a summary label (a series per measurement): %v", fired.Labels)
	}
	if got, want := fired.Annotations["runbook_url"], "docs/check-rules.md#"+strings.ToLower(stackRule); !strings.HasSuffix(got, want) {
		t.Errorf("runbook_url %q, want one ending in %q", got, want)
	}
	if !strings.Contains(fired.Annotations["summary"], stackRule+" on "+stackHost+":"+stackPort) {
		t.Errorf("summary annotation %q does not name the rule and the place", fired.Annotations["summary"])
	}
	st.waitHook(t, "the firing notification at the webhook", func(ns []stackNote) bool {
		for _, n := range ns {
			for _, a := range n.Alerts {
				if isFinding(a) && a.Status == "firing" && a.Fingerprint == fired.Fingerprint {
					return true
				}
			}
		}
		return false
	})
	toHook := time.Since(start)

	// 5. A second run on the unchanged fault over a longer window (as a
	// timer run after a late one) measures another counter increase: the
	// same series, so the same alert, never resolved and fired again.
	second := check(exitFindings, "--interval", "20s")
	if got := stackEvidence(t, st.textfile, stackRule); got == firstEvidence {
		t.Fatalf("the second run measured what the first did (%s): it proves nothing about measured values in labels", got)
	}
	st.waitScraped(t, second)
	time.Sleep(3 * time.Second) // three scrapes and evaluations: time for a new series to replace the old one
	as, body, err := st.amAlerts()
	if err != nil {
		t.Fatal(err)
	}
	var same []stackAlert
	for _, a := range as {
		if isFinding(a) {
			same = append(same, a)
		}
	}
	if len(same) != 1 || same[0].Fingerprint != fired.Fingerprint || !same[0].StartsAt.Equal(fired.StartsAt) || !same[0].active() {
		t.Errorf("after a second run on the same fault Alertmanager holds %d such alerts, want the one alert %s from %s:\n%s", len(same), fired.Fingerprint, fired.StartsAt, body)
	}
	for _, n := range st.notes() {
		for _, a := range n.Alerts {
			if isFinding(a) && (a.Status != "firing" || a.Fingerprint != fired.Fingerprint) {
				t.Errorf("the webhook got %s for %s (fingerprint %s) while the fault stayed", a.Status, a.Labels["rule"], a.Fingerprint)
			}
		}
	}

	// 3. The fault cleared: the finding series goes and the alert resolves.
	labFault(stackHost, "clear")
	before := len(st.notes())
	start = check(0)
	st.waitHook(t, "the resolved notification at the webhook", func(ns []stackNote) bool {
		for _, n := range ns[before:] {
			for _, a := range n.Alerts {
				if isFinding(a) && a.Status == "resolved" && a.Fingerprint == fired.Fingerprint {
					return true
				}
			}
		}
		return false
	})
	toResolved := time.Since(start)
	st.waitAM(t, "the resolved alert gone from Alertmanager's active alerts", func(as []stackAlert) bool {
		for _, a := range as {
			if isFinding(a) && a.active() {
				return false
			}
		}
		return true
	})
	st.waitProm(t, "the alert gone from Prometheus", "/api/v1/alerts", func(body []byte) bool {
		return !strings.Contains(string(body), `"rule":"`+stackRule+`"`)
	})
	if n, body := st.promQuery(t, `fabricgen_check_finding{rule="`+stackRule+`"}`); n != 0 {
		t.Errorf("the finding series is still there after the fault cleared:\n%s", body)
	}

	// 4. The file ages: nobody runs check, its last run timestamp (wall
	// time: check writes time.Now(), not the lab clock) falls behind, and
	// the copied rule's short threshold raises FabricgenCheckStale.
	last := check(0)
	if ts := stackLastRun(t, st.textfile); ts < last.Unix() || ts > time.Now().Unix() {
		t.Fatalf("fabricgen_check_last_run_timestamp_seconds %d is not the wall time of the run (%d): the lab clock?", ts, last.Unix())
	}
	st.waitScraped(t, last)
	var stale stackAlert
	st.waitAM(t, "FabricgenCheckStale in Alertmanager", func(as []stackAlert) bool {
		for _, a := range as {
			if a.Labels["alertname"] == "FabricgenCheckStale" && a.active() && a.StartsAt.After(last) {
				stale = a
				return true
			}
		}
		return false
	})
	// The timestamp is whole seconds, so the file can look up to 1 s
	// older than the run's start.
	if age := stale.StartsAt.Sub(last); age < (stackStaleSec-1)*time.Second {
		t.Errorf("FabricgenCheckStale fired %s after the last run, before the %d s threshold", age, stackStaleSec)
	}
	if !strings.HasSuffix(stale.Annotations["runbook_url"], "docs/check.md#periodic-inspection-with-prometheus") {
		t.Errorf("FabricgenCheckStale's runbook_url: %q", stale.Annotations["runbook_url"])
	}
	t.Logf("check start → alert firing in Prometheus %s, in Alertmanager %s, at the webhook %s; check start after the fault cleared → resolved at the webhook %s; last run start → FabricgenCheckStale's startsAt %s (threshold %d s)",
		toProm.Round(time.Millisecond), toAM.Round(time.Millisecond), toHook.Round(time.Millisecond), toResolved.Round(time.Millisecond), stale.StartsAt.Sub(last).Round(time.Millisecond), stackStaleSec)
}

// stack is the running monitoring stack: node-exporter reading
// textfile, Prometheus scraping it with the shipped rules, Alertmanager
// sending to a webhook in the test.
type stack struct {
	textfile string // node-exporter's textfile directory
	prom, am string // base URLs
	client   *http.Client

	mu    sync.Mutex
	hooks []stackNote // what the webhook received, in order
}

// stackAlert is an alert as Alertmanager's API and its webhook give it.
type stackAlert struct {
	Labels      map[string]string
	Annotations map[string]string
	StartsAt    time.Time
	EndsAt      time.Time
	Fingerprint string
	// Status is "firing" or "resolved" in a notification, the state
	// ("active", "suppressed", "unprocessed") in the API.
	Status string
}

// UnmarshalJSON reads an alert whose status is a string (webhook) or an
// object with a state (API).
func (a *stackAlert) UnmarshalJSON(b []byte) error {
	var p struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
		StartsAt    time.Time         `json:"startsAt"`
		EndsAt      time.Time         `json:"endsAt"`
		Fingerprint string            `json:"fingerprint"`
		Status      json.RawMessage   `json:"status"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("alert: %w", err)
	}
	*a = stackAlert{Labels: p.Labels, Annotations: p.Annotations, StartsAt: p.StartsAt, EndsAt: p.EndsAt, Fingerprint: p.Fingerprint}
	var o struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal(p.Status, &a.Status); err != nil {
		if err := json.Unmarshal(p.Status, &o); err != nil {
			return fmt.Errorf("alert status %s: %w", p.Status, err)
		}
		a.Status = o.State
	}
	return nil
}

// active is whether the alert has not ended.
func (a stackAlert) active() bool {
	return a.Status != "resolved" && (a.EndsAt.IsZero() || a.EndsAt.After(time.Now()))
}

// stackNote is one webhook notification.
type stackNote struct {
	Status string       `json:"status"`
	Alerts []stackAlert `json:"alerts"`
}

// stackWait bounds every wait on the stack; the stack's own latency is
// about 2 s (scrape 1 s, evaluation 1 s, group_wait 1 s).
const stackWait = 20 * time.Second

// startStack starts the webhook receiver, node-exporter, Alertmanager and
// Prometheus, each on a free port of 127.0.0.1, and waits until each is
// ready. Everything is killed in t.Cleanup.
func startStack(t *testing.T, bins map[string]string) *stack {
	t.Helper()
	dir := t.TempDir()
	st := &stack{textfile: filepath.Join(dir, "textfile"), client: &http.Client{Timeout: 2 * time.Second}}
	for _, d := range []string{st.textfile, filepath.Join(dir, "tsdb"), filepath.Join(dir, "am")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var n stackNote
		if err := json.NewDecoder(io.LimitReader(req.Body, 1<<20)).Decode(&n); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		st.mu.Lock()
		st.hooks = append(st.hooks, n)
		st.mu.Unlock()
	}))
	t.Cleanup(hook.Close)

	// The shipped rules, with only the staleness threshold shortened:
	// 900 s is tested by promtool (package deploy); a live test cannot
	// wait 15 minutes.
	shipped, err := os.ReadFile(filepath.Join("..", "..", "deploy", "prometheus", "fabricgen-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	const staleExpr = "time() - fabricgen_check_last_run_timestamp_seconds > 900"
	if strings.Count(string(shipped), staleExpr) != 1 {
		t.Fatalf("the shipped rules no longer hold %q once: update this test's copy", staleExpr)
	}
	rules := strings.Replace(string(shipped), staleExpr, fmt.Sprintf("time() - fabricgen_check_last_run_timestamp_seconds > %d", stackStaleSec), 1)
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}

	ne := st.startProc(t, dir, "node-exporter", bins["prometheus-node-exporter"], "/metrics", func(addr string) []string {
		return []string{"--web.listen-address=" + addr, "--collector.disable-defaults", "--collector.textfile",
			"--collector.textfile.directory=" + st.textfile, "--log.level=warn"}
	})
	amConf := fmt.Sprintf(`route: {receiver: hook, group_by: [alertname, rule, device, port], group_wait: 1s, group_interval: 1s, repeat_interval: 1h}
receivers: [{name: hook, webhook_configs: [{url: %q, send_resolved: true}]}]
`, hook.URL+"/hook")
	if err := os.WriteFile(filepath.Join(dir, "alertmanager.yml"), []byte(amConf), 0o600); err != nil {
		t.Fatal(err)
	}
	am := st.startProc(t, dir, "alertmanager", bins["prometheus-alertmanager"], "/-/ready", func(addr string) []string {
		return []string{"--config.file=" + filepath.Join(dir, "alertmanager.yml"), "--storage.path=" + filepath.Join(dir, "am"),
			"--web.listen-address=" + addr, "--cluster.listen-address=", "--log.level=warn"}
	})
	promConf := fmt.Sprintf(`global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: [rules.yml]
alerting: {alertmanagers: [{static_configs: [{targets: [%q]}]}]}
scrape_configs: [{job_name: node, static_configs: [{targets: [%q]}]}]
`, am, ne)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(promConf), 0o600); err != nil {
		t.Fatal(err)
	}
	prom := st.startProc(t, dir, "prometheus", bins["prometheus"], "/-/ready", func(addr string) []string {
		return []string{"--config.file=" + filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path=" + filepath.Join(dir, "tsdb"),
			"--web.listen-address=" + addr, "--log.level=warn"}
	})
	st.am, st.prom = "http://"+am, "http://"+prom
	// The rules are loaded: Prometheus lists the staleness rule.
	st.waitProm(t, "the rules loaded", "/api/v1/rules", func(body []byte) bool {
		return strings.Contains(string(body), `"name":"FabricgenCheckStale"`)
	})
	// Ready to measure: Prometheus applies its targets and finds its
	// Alertmanager a few seconds after it starts (its scrape manager
	// reloads every 5 s), which is not the latency a fleet sees.
	stackPoll(t, "Prometheus scraping node-exporter", func() (bool, string) {
		n, body := st.promQuery(t, `up{job="node"} == 1`)
		return n == 1, body
	})
	st.waitProm(t, "Prometheus finding Alertmanager", "/api/v1/alertmanagers", func(body []byte) bool {
		return strings.Contains(string(body), `"activeAlertmanagers":[{"url":"http://`+am+`/api/v2/alerts"}]`)
	})
	return st
}

// startProc starts bin in its own process group on a free port of
// 127.0.0.1, picking another port when the one picked was taken in the
// meantime, and waits until GET ready answers 200. It returns the
// address. The process group is killed in t.Cleanup; its log is printed
// there when the test failed.
func (st *stack) startProc(t *testing.T, dir, name, bin, ready string, args func(addr string) []string) string {
	t.Helper()
	var last string
attempts:
	for attempt := 0; attempt < 5; attempt++ {
		addr := stackFreeAddr(t)
		logPath := filepath.Join(dir, fmt.Sprintf("%s-%d.log", name, attempt))
		logf, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, args(addr)...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			_ = logf.Close()
			t.Fatalf("start %s: %v", name, err)
		}
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			_ = logf.Close()
			close(done)
		}()
		t.Cleanup(func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Errorf("%s (pid %d) did not exit after SIGKILL", name, cmd.Process.Pid)
			}
			if t.Failed() {
				b, _ := os.ReadFile(logPath)
				t.Logf("%s log:\n%s", name, stackTail(b, 4000))
			}
		})
		deadline := time.Now().Add(stackWait)
		for {
			_, err := st.get("http://" + addr + ready)
			if err == nil {
				return addr
			}
			select {
			case <-done:
				b, _ := os.ReadFile(logPath)
				if strings.Contains(string(b), "address already in use") {
					last = string(b)
					continue attempts
				}
				t.Fatalf("%s exited before it was ready:\n%s", name, stackTail(b, 4000))
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s not ready at %s within %s: %v", name, addr, stackWait, err)
			}
		}
	}
	t.Fatalf("%s: no free port in 5 attempts:\n%s", name, stackTail([]byte(last), 2000))
	return ""
}

// stackFreeAddr is 127.0.0.1 with a port free a moment ago (the
// binaries cannot listen on :0 and say which port they got).
func stackFreeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// stackTail is the last n bytes of b.
func stackTail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// get GETs u and returns the body of a 200 answer.
func (st *stack) get(u string) ([]byte, error) {
	resp, err := st.client.Get(u)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return body, fmt.Errorf("GET %s: %s: %s", u, resp.Status, stackTail(body, 500))
	}
	return body, nil
}

// poll calls try every 100 ms until it is true, failing the test with
// what and the last answer after stackWait.
func stackPoll(t *testing.T, what string, try func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(stackWait)
	for {
		ok, last := try()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s; the last answer:\n%s", what, stackWait, stackTail([]byte(last), 6000))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// amAlerts is Alertmanager's GET /api/v2/alerts, and its body.
func (st *stack) amAlerts() ([]stackAlert, string, error) {
	body, err := st.get(st.am + "/api/v2/alerts")
	if err != nil {
		return nil, string(body), err
	}
	var as []stackAlert
	if err := json.Unmarshal(body, &as); err != nil {
		return nil, string(body), fmt.Errorf("alertmanager's alerts: %w", err)
	}
	return as, string(body), nil
}

// waitAM waits until ok holds for Alertmanager's alerts.
func (st *stack) waitAM(t *testing.T, what string, ok func([]stackAlert) bool) {
	t.Helper()
	stackPoll(t, what, func() (bool, string) {
		as, body, err := st.amAlerts()
		if err != nil {
			return false, err.Error()
		}
		return ok(as), body
	})
}

// notes is a copy of the webhook's notifications so far.
func (st *stack) notes() []stackNote {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]stackNote(nil), st.hooks...)
}

// waitHook waits until ok holds for the webhook's notifications.
func (st *stack) waitHook(t *testing.T, what string, ok func([]stackNote) bool) {
	t.Helper()
	stackPoll(t, what, func() (bool, string) {
		ns := st.notes()
		b, _ := json.MarshalIndent(ns, "", " ")
		return ok(ns), string(b)
	})
}

// waitProm waits until ok holds for the body of Prometheus's GET path.
func (st *stack) waitProm(t *testing.T, what, path string, ok func([]byte) bool) {
	t.Helper()
	stackPoll(t, what, func() (bool, string) {
		body, err := st.get(st.prom + path)
		if err != nil {
			return false, err.Error()
		}
		return ok(body), string(body)
	})
}

// promQuery is how many series an instant PromQL query returns.
func (st *stack) promQuery(t *testing.T, q string) (int, string) {
	t.Helper()
	body, err := st.get(st.prom + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Result []json.RawMessage `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Status != "success" {
		t.Fatalf("query %s: %v\n%s", q, err, body)
	}
	return len(r.Data.Result), string(body)
}

// waitScraped waits until Prometheus holds the textfile of a check run
// started at start: its last run timestamp is start's second or later.
func (st *stack) waitScraped(t *testing.T, start time.Time) {
	t.Helper()
	q := fmt.Sprintf("fabricgen_check_last_run_timestamp_seconds >= %d", start.Unix())
	stackPoll(t, "Prometheus scraping the run of "+start.Format(time.RFC3339), func() (bool, string) {
		n, body := st.promQuery(t, q)
		return n == 1, body
	})
}

// stackPromFiring is whether Prometheus's /api/v1/alerts answer holds
// alert name firing for rule.
func stackPromFiring(body []byte, name, rule string) bool {
	var r struct {
		Data struct {
			Alerts []struct {
				Labels map[string]string `json:"labels"`
				State  string            `json:"state"`
			} `json:"alerts"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &r) != nil {
		return false
	}
	for _, a := range r.Data.Alerts {
		if a.Labels["alertname"] == name && a.Labels["rule"] == rule && a.State == "firing" {
			return true
		}
	}
	return false
}

// stackEvidence is the rule's fabricgen_check_evidence lines in the
// textfile, sorted: what the run measured.
func stackEvidence(t *testing.T, dir, rule string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "fabricgen.prom"))
	if err != nil {
		t.Fatal(err)
	}
	var ev []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "fabricgen_check_evidence{") && strings.Contains(l, `rule="`+rule+`"`) {
			ev = append(ev, l)
		}
	}
	if len(ev) == 0 {
		t.Fatalf("no evidence for %s in the textfile:\n%s", rule, b)
	}
	sort.Strings(ev)
	return strings.Join(ev, "\n")
}

// stackLastRun is fabricgen_check_last_run_timestamp_seconds in the
// textfile.
func stackLastRun(t *testing.T, dir string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "fabricgen.prom"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "fabricgen_check_last_run_timestamp_seconds{"); ok {
			f := strings.Fields(rest)
			ts, err := strconv.ParseInt(f[len(f)-1], 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			return ts
		}
	}
	t.Fatalf("no fabricgen_check_last_run_timestamp_seconds in the textfile:\n%s", b)
	return 0
}
