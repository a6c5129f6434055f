package format

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

const source = `qos_policy "core" {
  trust = "none"
  mtu   = 1500
}

ecn_profile "roce" {
  min_threshold = "2MB"
  max_threshold = "1MB"
}
`

func rng(line, col, endCol int32) schema.Range {
	return schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: line, Column: col}, End: schema.Pos{Line: line, Column: endCol}}
}

func sampleResult() *Result {
	fs := []lint.Finding{
		{Rule: "QOS001", Severity: schema.SevError, Subject: rng(2, 3, 17), Device: "core1", Port: "Ethernet3", Count: 2, Paths: 96,
			Message: `core1:Ethernet3 trusts "none", so RoCE data (DSCP 26) lands in priority 0 and leaves with DSCP 0 instead of 26`,
			Fix:     `Set trust = "dscp" in the qos_policy attached to this port, device or role.`,
			Trace: []lint.Step{{Port: "gpu01:eth2"}, {Port: "leaf1:Ethernet1"}, {Port: "core1:Ethernet3", Note: "DSCP 26 → 0: no trust dscp"},
				{Port: "leaf9:Ethernet49"}, {Port: "gpu77:eth0"}}},
		{Rule: "ECN002", Severity: schema.SevError, Subject: rng(7, 3, 28), Count: 1,
			Message: `ecn_profile "roce": min_threshold 2000000 B (2.00 MB) is not below max_threshold 1000000 B (1.00 MB)`,
			Fix:     "Set min_threshold below max_threshold and max_probability between 1 and 100.",
			Related: []lint.Related{{Range: rng(8, 3, 28), Message: "max_threshold set here"}}},
		{Rule: "MTU002", Severity: schema.SevWarning, Subject: rng(3, 3, 15), Device: "core1", Port: "Ethernet3", Count: 1, Paths: 48,
			Message: "core1:Ethernet3 has MTU 1500 on the RoCE path; RDMA path MTU 4096 needs 4192, a, b: c",
			Fix:     "Raise the mtu of the ports on the path (9216 is the usual switch value).",
			Trace:   []lint.Step{{Port: "gpu01:eth2"}, {Port: "core1:Ethernet3"}, {Port: "gpu77:eth0"}}},
		{Rule: "ECN004", Severity: schema.SevInfo, Subject: rng(6, 1, 19), Count: 1,
			Message: `traffic_class "roce" is lossless without ECN, as the fabric's pfc_only design says`},
	}
	var rules []*lint.Rule
	for _, r := range lint.Rules() {
		if r.ID == "QOS001" || r.ID == "ECN002" || r.ID == "MTU002" || r.ID == "ECN004" || r.ID == "PFC001" {
			rules = append(rules, r)
		}
	}
	return &Result{Findings: fs, Sources: map[string][]byte{"core.fab.hcl": []byte(source)}, Rules: rules, Version: "0.1.0-test"}
}

func render(t *testing.T, name string, r *Result) []byte {
	t.Helper()
	f, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b, r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lint/format -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (run with -update to accept):\n%s", name, path, got)
	}
}

func TestGolden(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name, func(t *testing.T) {
			golden(t, f.Name, render(t, f.Name, sampleResult()))
			empty := sampleResult()
			empty.Findings = nil
			golden(t, f.Name+"-clean", render(t, f.Name, empty))
		})
	}
	t.Run("text-colour", func(t *testing.T) {
		r := sampleResult()
		r.Color = true
		got := render(t, "text", r)
		if !bytes.Contains(got, []byte("\x1b[")) {
			t.Error("colour requested but no ANSI escape in text output")
		}
		if bytes.Contains(render(t, "text", sampleResult()), []byte("\x1b[")) {
			t.Error("ANSI escape in uncoloured text output")
		}
	})
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	full := sampleResult()
	full.Rules = lint.Rules()
	for name, r := range map[string]*Result{"sample": sampleResult(), "all rules": full, "clean": {Rules: lint.Rules()}} {
		out := render(t, "sarif", r)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: SARIF output is not valid SARIF 2.1.0: %v", name, err)
		}
	}
	// A broken document must fail, so the check can fail.
	bad := map[string]any{"version": "2.0.0", "runs": []any{}}
	if err := sch.Validate(bad); err == nil {
		t.Error("schema accepted version 2.0.0")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var doc jsonDoc
	if err := json.Unmarshal(render(t, "json", sampleResult()), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 4 || doc.Summary.Errors != 2 || doc.Summary.Warnings != 1 || doc.Summary.Infos != 1 {
		t.Errorf("summary %+v, %d findings", doc.Summary, len(doc.Findings))
	}
	if doc.Findings[0].Paths != 96 || len(doc.Findings[0].Trace) != 5 {
		t.Errorf("first finding lost its trace or path count: %+v", doc.Findings[0])
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("yaml"); err == nil || !strings.Contains(err.Error(), "text, json, sarif") {
		t.Errorf("Lookup(yaml) = %v", err)
	}
	if !strings.Contains(Help(), "checkstyle:") {
		t.Error("Help misses checkstyle")
	}
}

func TestGitHubEscaping(t *testing.T) {
	out := string(render(t, "github", sampleResult()))
	if !strings.Contains(out, "%0Apath: gpu01:eth2") {
		t.Errorf("newline not escaped in data: %s", out)
	}
	if !strings.Contains(out, "::warning file=core.fab.hcl,line=3,col=3,endLine=3,endColumn=15,title=MTU002::") {
		t.Errorf("bad warning command: %s", out)
	}
}
