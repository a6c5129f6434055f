package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fabricgen/fabricgen/internal/lab"
)

// TestCheckCommand drives fabricgen check through the CLI against a lab
// serving examples/ai-training-2subnet: healthy after apply (exit 0), a
// dirty optic set with lab fault found (exit 2) in every format, saved
// readings judged again with --from and --baseline, and bad flags refused.
func TestCheckCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	r := newPushRig(t, "ai-training-2subnet")
	srv, err := r.lab.ServeControl(r.ctx, filepath.Join(r.dir, "lab", lab.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	bare := func(want int, args ...string) string {
		t.Helper()
		s, out, errb := pushStreams("")
		if code := run(r.ctx, args, s); code != want {
			t.Fatalf("fabricgen %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errb)
		}
		return out.String() + errb.String()
	}
	r.run(0, nil, "apply", "-auto-approve", "fabric")
	out, _ := r.run(0, nil, "check", "fabric", "--lab-dir", "lab", "--save", "healthy.json")
	if !strings.Contains(out, "Checked 11 device(s)") || !strings.Contains(out, "(lab clock)") {
		t.Errorf("healthy check:\n%s", out)
	}
	if got := bare(0, "lab", "clock", "--dir", "lab"); !strings.Contains(got, "lab clock: 10s") {
		t.Errorf("lab clock after one check: %s", got)
	}
	if got := bare(0, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet49/1"); !strings.Contains(got, "leaf1: dirty-optic=Ethernet49/1") {
		t.Errorf("lab fault: %s", got)
	}
	// A host link is a 3 m DAC: no optics to dirty.
	if got := bare(exitFailed, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet1"); !strings.Contains(got, "passive copper (dac) link") {
		t.Errorf("a dirty optic on a DAC: %s", got)
	}
	bare(exitFailed, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet99")
	bare(exitFailed, "lab", "fault", "--dir", "lab", "leaf1", "np-off")

	out, _ = r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "--save", "dirty.json")
	for _, want := range []string{"error[CHK010]: link leaf1:Ethernet49/1 ↔ core1:Ethernet1/1 is up at 400G", "seen: leaf1:Ethernet49/1 rx_power_dbm/",
		"from `show interfaces transceiver dom thresholds | json`", "fix:  Clean the fibre connector"} {
		if !strings.Contains(out, want) {
			t.Errorf("dirty-optic check lacks %q:\n%s", want, out)
		}
	}
	js, _ := r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "-format", "json")
	var doc struct {
		Diagnostics []struct {
			Rule     string `json:"rule"`
			Evidence []struct {
				Metric string  `json:"metric"`
				Value  float64 `json:"value"`
				Source string  `json:"source"`
			} `json:"evidence"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range doc.Diagnostics {
		if d.Rule == "CHK010" && len(d.Evidence) > 0 && d.Evidence[0].Value < -17 && d.Evidence[0].Source != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("JSON: no CHK010 with evidence:\n%s", js)
	}
	sarif, _ := r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "-format", "sarif")
	if !strings.Contains(sarif, `"ruleId": "CHK010"`) || !strings.Contains(sarif, "docs/check-rules.md#chk010") || !strings.Contains(sarif, `"evidence"`) {
		t.Errorf("SARIF lacks CHK010, its help URI or evidence")
	}
	prom, _ := r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "-format", "prometheus")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(prom))
	if err != nil || fams["fabricgen_check_finding"] == nil {
		t.Errorf("prometheus: %v\n%s", err, prom)
	}

	// Saved readings judged again, offline.
	bare(0, "lab", "fault", "--dir", "lab", "leaf1", "clear")
	r.run(0, nil, "check", "fabric", "--from", "healthy.json")
	out, _ = r.run(exitFindings, nil, "check", "fabric", "--from", "dirty.json", "--rule", "CHK010")
	if !strings.Contains(out, "CHK010") || strings.Contains(out, "CHK005") {
		t.Errorf("--from with --rule:\n%s", out)
	}
	r.run(exitFindings, nil, "check", "fabric", "--baseline", "dirty.json", "--lab-dir", "lab", "--rule", "CHK005,CHK010")
	_, errOut := r.run(exitFailed, nil, "check", "fabric", "--from", "nothing.json")
	if !strings.Contains(errOut, "nothing.json") {
		t.Errorf("--from a missing file: %s", errOut)
	}
	for _, bad := range [][]string{{"--interval", "0s"}, {"-format", "yaml"}, {"--rule", "CHK999"}, {"--fail-level", "info"}, {"--from", "healthy.json", "--lab-dir", "lab"}} {
		r.run(exitFailed, nil, append([]string{"check", "fabric"}, bad...)...)
	}
}

// TestCheckPrometheusOutput is the periodic inspection as a cron job
// runs it: --output writes node-exporter's textfile atomically after a
// healthy run (up 1) and after one with findings (exit 2, the findings
// published); a run that cannot read a device publishes what it judged
// with up 0 and the device; one that cannot run at all replaces the
// findings with up 0 and the reason, keeping the time of the last
// success, so an alert sees the check failing instead of a stale report.
func TestCheckPrometheusOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	r := newPushRig(t, "ai-training-2subnet")
	srv, err := r.lab.ServeControl(r.ctx, filepath.Join(r.dir, "lab", lab.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	r.run(0, nil, "apply", "-auto-approve", "fabric")
	if err := os.Mkdir("textfile", 0o755); err != nil {
		t.Fatal(err)
	}
	const prom = "textfile/fabricgen.prom"
	read := func() map[string]*dto.MetricFamily {
		t.Helper()
		b, err := os.ReadFile(prom)
		if err != nil {
			t.Fatal(err)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%s is not the text exposition format: %v\n%s", prom, err, b)
		}
		return fams
	}
	gauge := func(fams map[string]*dto.MetricFamily, name string) float64 {
		t.Helper()
		f := fams[name]
		if f == nil || len(f.Metric) == 0 {
			t.Fatalf("no %s", name)
		}
		return f.Metric[0].GetGauge().GetValue()
	}
	out, _ := r.run(0, nil, "check", "fabric", "--lab-dir", "lab", "-format", "prometheus", "--output", prom)
	if out != "" {
		t.Errorf("--output also printed:\n%s", out)
	}
	fams := read()
	if gauge(fams, "fabricgen_check_up") != 1 || fams["fabricgen_check_last_success_timestamp_seconds"] == nil {
		t.Errorf("healthy run: up %v, last success %v", fams["fabricgen_check_up"], fams["fabricgen_check_last_success_timestamp_seconds"])
	}
	success := gauge(fams, "fabricgen_check_last_success_timestamp_seconds")

	// Findings: exit 2, and the file has them (a recipe that moved the
	// file only on exit 0 would have kept the healthy one).
	bare := func(want int, args ...string) {
		t.Helper()
		s, out, errb := pushStreams("")
		if code := run(r.ctx, args, s); code != want {
			t.Fatalf("fabricgen %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errb)
		}
	}
	bare(0, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet49/1")
	r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "-format", "prometheus", "--output", prom)
	fams = read()
	found := false
	for _, m := range fams["fabricgen_check_finding"].GetMetric() {
		for _, l := range m.Label {
			if l.GetName() == "rule" && l.GetValue() == "CHK010" {
				found = true
			}
		}
	}
	if !found || gauge(fams, "fabricgen_check_up") != 1 {
		t.Errorf("the run with a dirty optic did not publish CHK010 with up 1")
	}
	// A second run measures other counter increases: the same series.
	labelSets := func(fams map[string]*dto.MetricFamily) []string {
		var out []string
		for _, m := range fams["fabricgen_check_finding"].GetMetric() {
			var ls []string
			for _, l := range m.Label {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			out = append(out, strings.Join(ls, ","))
		}
		sort.Strings(out)
		return out
	}
	first := labelSets(fams)
	r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "-format", "prometheus", "--output", prom)
	fams = read()
	if second := labelSets(fams); len(first) == 0 || strings.Join(first, "\n") != strings.Join(second, "\n") {
		t.Errorf("two runs on the same fault wrote different finding series:\n%s\n--\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	// It read every device: a success too.
	if got := gauge(fams, "fabricgen_check_last_success_timestamp_seconds"); got < success {
		t.Errorf("last success went back from %v to %v", success, got)
	}
	success = gauge(fams, "fabricgen_check_last_success_timestamp_seconds")
	bare(0, "lab", "fault", "--dir", "lab", "leaf1", "clear")

	// One device unreachable: what was read is judged, up 0 names it.
	inv := map[string]string{}
	raw, err := os.ReadFile(r.common[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &inv); err != nil {
		t.Fatal(err)
	}
	inv["gpu01-cx6"] = "127.0.0.1:1"
	bad, _ := json.Marshal(inv)
	if err := os.WriteFile("bad-inventory.json", bad, 0o600); err != nil {
		t.Fatal(err)
	}
	s, o, e := pushStreams("")
	if code := run(r.ctx, []string{"check", "fabric", "--lab-dir", "lab", "-format", "prometheus", "--output", prom,
		"--inventory", "bad-inventory.json", "--known-hosts", r.common[3], "--timeout", "5s"}, s); code != exitFailed {
		t.Fatalf("a device unreachable: exit %d, want %d\n%s\n%s", code, exitFailed, o, e)
	}
	fams = read()
	if gauge(fams, "fabricgen_check_up") != 0 || fams["fabricgen_check_device_unreadable"] == nil || fams["fabricgen_check_findings"] == nil {
		t.Errorf("an unreadable device: want up 0, the device and the findings of the rest")
	}
	if got := gauge(fams, "fabricgen_check_last_success_timestamp_seconds"); got != success {
		t.Errorf("last success moved to %v on a run that failed (was %v)", got, success)
	}

	// The check cannot run at all (no known_hosts): up 0, the reason, no
	// findings, the last success kept.
	s, o, e = pushStreams("")
	if code := run(r.ctx, []string{"check", "fabric", "--lab-dir", "lab", "-format", "prometheus", "--output", prom,
		"--inventory", r.common[1], "--known-hosts", "missing_known_hosts"}, s); code != exitFailed {
		t.Fatalf("no known_hosts: exit %d, want %d\n%s\n%s", code, exitFailed, o, e)
	}
	fams = read()
	if gauge(fams, "fabricgen_check_up") != 0 || fams["fabricgen_check_error"] == nil || fams["fabricgen_check_finding"] != nil {
		t.Errorf("a check that could not run: want up 0 and the reason, no findings")
	}
	if got := gauge(fams, "fabricgen_check_last_success_timestamp_seconds"); got != success {
		t.Errorf("last success %v, want %v", got, success)
	}
	// A text report is not written on failure: the last one stays.
	r.run(0, nil, "check", "fabric", "--lab-dir", "lab", "--output", "report.txt")
	before, _ := os.ReadFile("report.txt")
	s, _, _ = pushStreams("")
	run(r.ctx, []string{"check", "fabric", "--lab-dir", "lab", "--output", "report.txt", "--inventory", r.common[1], "--known-hosts", "missing_known_hosts"}, s)
	if after, _ := os.ReadFile("report.txt"); string(after) != string(before) || !strings.Contains(string(after), "Checked 11 device(s)") {
		t.Errorf("a failed text run touched the last report:\n%s", after)
	}
	// --from and --baseline together are refused, naming both.
	r.run(0, nil, "check", "fabric", "--lab-dir", "lab", "--save", "saved.json")
	_, errOut := r.run(exitFailed, nil, "check", "fabric", "--from", "saved.json", "--baseline", "saved.json")
	if !strings.Contains(errOut, "--from and --baseline are mutually exclusive") {
		t.Errorf("--from with --baseline: %s", errOut)
	}
}
