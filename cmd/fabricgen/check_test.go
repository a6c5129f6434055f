package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

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
	if got := bare(0, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet1"); !strings.Contains(got, "leaf1: dirty-optic=Ethernet1") {
		t.Errorf("lab fault: %s", got)
	}
	bare(exitFailed, "lab", "fault", "--dir", "lab", "leaf1", "dirty-optic=Ethernet99")
	bare(exitFailed, "lab", "fault", "--dir", "lab", "leaf1", "np-off")

	out, _ = r.run(exitFindings, nil, "check", "fabric", "--lab-dir", "lab", "--save", "dirty.json")
	for _, want := range []string{"error[CHK010]: link gpu01-cx6:ens1f0np0 ↔ leaf1:Ethernet1 is up at 100G", "seen: leaf1:Ethernet1 rx_power_dbm/",
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
