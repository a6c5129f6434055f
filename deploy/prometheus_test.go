package deploy

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/diag"
)

const (
	rulesFile = "prometheus/fabricgen-rules.yml"
	testFile  = "prometheus/fabricgen-rules.test.yml"
)

// promtool returns Debian's promtool, skipping (never under CI=true) without it.
func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("promtool (Debian package prometheus) is not installed; .ci/run installs it")
		}
		t.Skip("promtool (Debian package prometheus) is not installed")
	}
	return p
}

func runTool(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestAlertRules: the shipped rules pass promtool check rules and their
// unit tests (promtool test rules), which fire each alert and clear it.
func TestAlertRules(t *testing.T) {
	pt := promtool(t)
	runTool(t, ".", pt, "check", "rules", rulesFile)
	out := runTool(t, "prometheus", pt, "test", "rules", filepath.Base(testFile))
	if !strings.Contains(out, "SUCCESS") {
		t.Errorf("promtool test rules:\n%s", out)
	}
	// The test can fail: an alert expected that the rules cannot give.
	src, err := os.ReadFile(testFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(rulesFile)), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(src, []byte("- eval_time: 10m\n        alertname: FabricgenFindingWarning\n        exp_alerts: []"), []byte("- eval_time: 10m\n        alertname: FabricgenFindingWarning\n        exp_alerts: [{exp_labels: {severity: warning}}]"), 1)
	if bytes.Equal(broken, src) {
		t.Fatal("the test file changed: the mutation no longer applies")
	}
	if err := os.WriteFile(filepath.Join(dir, "t.yml"), broken, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(pt, "test", "rules", filepath.Join(dir, "t.yml")).Run(); err == nil {
		t.Error("promtool test rules passed a test that expects a warning before its 15 minutes")
	}
}

// TestRulesReadWhatCheckWrites: every series and label the rules read is
// one fabricgen check writes (check.WritePrometheus, whose output passes
// promtool check metrics), and every runbook link lands on an anchor of
// the docs.
func TestRulesReadWhatCheckWrites(t *testing.T) {
	var b bytes.Buffer
	run := check.Run{Fabric: "f", Read: 3, Unreadable: []string{"leaf9"}, At: time.Unix(1700000000, 0), LastSuccess: time.Unix(1699990000, 0),
		Findings: []check.Finding{
			{Rule: "CHK010", Severity: diag.Error, Device: "leaf1", Port: "Ethernet1", Evidence: []diag.Evidence{{Device: "leaf1", Port: "Ethernet1", Metric: "rx_power_dbm/1", Value: -18}}},
			{Rule: "CHK006", Severity: diag.Warning, Device: "nic01", Port: "eth0"},
			{Rule: "CHK019", Severity: diag.Info, Device: "leaf2"},
		}}
	if err := check.WritePrometheus(&b, run); err != nil {
		t.Fatal(err)
	}
	// A run that could not judge the fabric writes fabricgen_check_error.
	var failed bytes.Buffer
	if err := check.WritePrometheus(&failed, check.Run{Fabric: "f", Failed: "no known_hosts", At: time.Unix(1700000000, 0)}); err != nil {
		t.Fatal(err)
	}
	exposition := b.String() + failed.String()
	if _, err := exec.LookPath("promtool"); err == nil || os.Getenv("CI") == "true" {
		cmd := exec.Command(promtool(t), "check", "metrics")
		cmd.Stdin = strings.NewReader(b.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool check metrics: %v\n%s", err, out)
		}
	}
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`fabricgen_[a-z_]+`).FindAllString(string(rules), -1) {
		names[m] = true
	}
	if len(names) < 3 {
		t.Fatalf("the rules read %d fabricgen series", len(names))
	}
	for n := range names {
		if !strings.Contains(exposition, "\n"+n+"{") {
			t.Errorf("the rules read %s, which check does not write", n)
		}
	}
	for _, m := range regexp.MustCompile(`\$labels\.([a-z_]+)`).FindAllStringSubmatch(string(rules), -1) {
		if m[1] == "instance" {
			continue // Prometheus adds it at the scrape
		}
		if !strings.Contains(exposition, m[1]+`="`) {
			t.Errorf("the rules read label %s, which check does not write", m[1])
		}
	}
	rulesDoc, err := os.ReadFile(filepath.Join("..", "docs", "check-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, r := range check.Rules() {
		if !bytes.Contains(rulesDoc, []byte(`<a id="`+strings.ToLower(r.ID)+`"></a>`)) {
			missing = append(missing, r.ID)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/check-rules.md has no short anchor for %v: the alerts' runbook links would land at the top", missing)
	}
	checkDoc, err := os.ReadFile(filepath.Join("..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rules), "check.md#periodic-inspection-with-prometheus") && !bytes.Contains(checkDoc, []byte("\n## Periodic inspection with Prometheus\n")) {
		t.Error("docs/check.md has no heading \"Periodic inspection with Prometheus\" for the runbook links")
	}
}
