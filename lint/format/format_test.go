package format

import (
	"bytes"
	"encoding/json"
	"github.com/fabricgen/fabricgen/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

const source = `qos_policy "core" {
  trust = "none"
  mtu   = 1500
}

ecn_profile "roce" {
  min_threshold = "2MB"
  max_threshold = "1MB"
}
`

func rng(line, col, endCol int32) *schema.Range {
	return &schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: line, Column: col}, End: schema.Pos{Line: line, Column: endCol}}
}

func sampleResult() *Result {
	fs := []lint.Finding{
		{Rule: "QOS001", Severity: schema.SevError, Subject: rng(2, 3, 17), Device: "core1", Port: "Ethernet3", Count: 2, Paths: []lint.FlowPaths{{Flow: "RoCE data", Paths: 96}, {Flow: "CNP", Paths: 96}},
			Implied: []diag.Implied{{Rule: "QOS002", Severity: schema.SevError, Summary: "core1:Ethernet3 maps RoCE DSCP 26 to priority 0"}},
			Summary: `core1:Ethernet3 trusts "none", so RoCE data (DSCP 26) lands in priority 0 and leaves with DSCP 0 instead of 26`,
			Fix:     `Set trust = "dscp" in the qos_policy attached to this port, device or role.`,
			Trace: []lint.Step{{Port: "gpu01:eth2"}, {Port: "leaf1:Ethernet1"}, {Port: "core1:Ethernet3", Note: "DSCP 26 → 0: no trust dscp", Src: *rng(2, 3, 17)},
				{Port: "leaf9:Ethernet49"}, {Port: "gpu77:eth0"}}},
		{Rule: "ECN002", Severity: schema.SevError, Subject: rng(7, 3, 28), Count: 1,
			Summary: `ecn_profile "roce": min_threshold 2000000 B (2.00 MB) is not below max_threshold 1000000 B (1.00 MB)`,
			Fix:     "Set min_threshold below max_threshold and max_probability between 1 and 100.",
			Related: []lint.Related{{Range: *rng(8, 3, 28), Message: "max_threshold set here"}}},
		{Rule: "MTU002", Severity: schema.SevWarning, Subject: rng(3, 3, 15), Device: "core1", Port: "Ethernet3", Count: 1, Paths: []lint.FlowPaths{{Flow: "RoCE data", Paths: 48}},
			Summary: "core1:Ethernet3 has MTU 1500 on the RoCE path; RDMA path MTU 4096 needs 4192, a, b: c",
			Fix:     "Raise the mtu of the ports on the path (9216 is the usual switch value).",
			Trace:   []lint.Step{{Port: "gpu01:eth2"}, {Port: "core1:Ethernet3"}, {Port: "gpu77:eth0"}}},
		{Rule: "ECN004", Severity: schema.SevInfo, Subject: rng(6, 1, 19), Count: 1,
			Summary: `traffic_class "roce" is lossless without ECN, as the fabric's pfc_only design says`},
	}
	var rules []*lint.Rule
	for _, r := range lint.Rules() {
		if r.ID == "QOS001" || r.ID == "ECN002" || r.ID == "MTU002" || r.ID == "ECN004" || r.ID == "PFC001" {
			rules = append(rules, r)
		}
	}
	hidden := []lint.Suppressed{
		{Kind: lint.SuppressedInSource, Justification: "lab fabric, jumbo frames are not needed",
			Finding: lint.Finding{Rule: "MTU002", Severity: schema.SevWarning, Subject: rng(3, 3, 15), Device: "core2", Port: "Ethernet4", Count: 3,
				Summary: "core2:Ethernet4 has MTU 1500 on the RoCE path", Fix: "Raise the mtu.",
				Related: []lint.Related{{Range: *rng(6, 1, 19), Message: "another place"}, {Range: *rng(7, 3, 28), Message: "a third place"}}}},
		{Kind: lint.SuppressedExternal, Justification: "rule PFC001 is turned off (enabled = false) in .fabricgen.hcl",
			Finding: lint.Finding{Rule: "PFC001", Severity: schema.SevError, Subject: rng(2, 3, 17), Summary: "PFC is off on core1:Ethernet3"}},
	}
	return &Result{Diagnostics: lint.Diagnostics(fs), Suppressed: hidden, Valid: true, Sources: map[string][]byte{"core.fab.hcl": []byte(source)}, Rules: rules, Version: "0.1.0-test"}
}

// TestSARIFSuppressions: suppressed findings are SARIF results with a
// suppression of the right kind and justification, and every other format
// leaves them out.
func TestSARIFSuppressions(t *testing.T) {
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID           string
				RelatedLocations []json.RawMessage
				Suppressions     []struct{ Kind, Justification string }
			}
		}
	}
	if err := json.Unmarshal(render(t, "sarif", sampleResult()), &log); err != nil {
		t.Fatal(err)
	}
	type got struct {
		rule, kind, why string
		related         int
	}
	var sup []got
	for _, res := range log.Runs[0].Results {
		for _, s := range res.Suppressions {
			sup = append(sup, got{res.RuleID, s.Kind, s.Justification, len(res.RelatedLocations)})
		}
	}
	want := []got{
		{"MTU002", "inSource", "lab fabric, jumbo frames are not needed", 2},
		{"PFC001", "external", "rule PFC001 is turned off (enabled = false) in .fabricgen.hcl", 0},
	}
	if len(sup) != len(want) {
		t.Fatalf("suppressed results = %+v, want %+v", sup, want)
	}
	for i := range want {
		if sup[i] != want[i] {
			t.Errorf("suppressed result %d = %+v, want %+v", i, sup[i], want[i])
		}
	}
	bare := sampleResult()
	bare.Suppressed = nil
	for _, f := range Formats() {
		if f.Name == "sarif" {
			continue
		}
		if !bytes.Equal(render(t, f.Name, sampleResult()), render(t, f.Name, bare)) {
			t.Errorf("%s shows suppressed findings", f.Name)
		}
	}
}

// TestRelatedPlacesInEveryFormat: a finding's related places reach every
// format that can carry more than its main location.
func TestRelatedPlacesInEveryFormat(t *testing.T) {
	for _, f := range Formats() {
		if f.Name == "compact" {
			continue // one line per diagnostic, by definition
		}
		out := string(render(t, f.Name, sampleResult()))
		if !strings.Contains(out, "max_threshold set here") {
			t.Errorf("%s lacks the related place \"max_threshold set here\"", f.Name)
		}
	}
}

// invalidResult is an intent that does not load: one error with a source
// (control characters in it), one without.
func invalidResult() *Result {
	r := sampleResult()
	r.Valid = false
	r.Suppressed = nil
	r.Diagnostics = diag.Diagnostics{
		diag.Sourceless(diag.Error, "Cannot read fabric directory", "open fabric/: permission denied"),
		{Severity: diag.Error, Summary: "Unsupported argument", Detail: "An argument named \"trst\" is not expected here.\x1b[2J Did you mean \"trust\"?", Subject: rng(2, 3, 7)},
	}
	return r
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

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), got, "go test ./lint/format -update")
}

func TestGolden(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name, func(t *testing.T) {
			checkGolden(t, f.Name, render(t, f.Name, sampleResult()))
			empty := sampleResult()
			empty.Diagnostics, empty.Suppressed = nil, nil
			checkGolden(t, f.Name+"-clean", render(t, f.Name, empty))
			checkGolden(t, f.Name+"-invalid", render(t, f.Name, invalidResult()))
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
	based := sampleResult()
	based.BasePath = "."
	for name, r := range map[string]*Result{"sample": sampleResult(), "all rules": full, "clean": {Rules: lint.Rules(), Valid: true},
		"invalid": invalidResult(), "base path": based} {
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
	if doc.FormatVersion != JSONFormatVersion || !doc.Valid || len(doc.Diagnostics) != 4 || doc.ErrorCount != 2 || doc.WarningCount != 1 || doc.InfoCount != 1 {
		t.Errorf("document %+v", doc)
	}
	if p := doc.Diagnostics[0].Paths; len(p) != 2 || p[0] != (jsonPaths{"RoCE data", 96}) || p[1] != (jsonPaths{"CNP", 96}) || len(doc.Diagnostics[0].Trace) != 5 || len(doc.Diagnostics[0].Implied) != 1 {
		t.Errorf("first finding lost its trace or path count: %+v", doc.Diagnostics[0])
	}
	doc = jsonDoc{}
	if err := json.Unmarshal(render(t, "json", invalidResult()), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Valid || doc.ErrorCount != 2 || doc.Diagnostics[1].Range == nil || doc.Diagnostics[1].Snippet == nil {
		t.Errorf("invalid intent: %+v", doc)
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

// TestEveryFormatCarriesLoadErrors: an intent that does not load is not
// 0 bytes in any format; each names the error and the validation rule.
func TestEveryFormatCarriesLoadErrors(t *testing.T) {
	for _, f := range Formats() {
		out := string(render(t, f.Name, invalidResult()))
		if !strings.Contains(out, "Unsupported argument") || !strings.Contains(out, "Cannot read fabric directory") {
			t.Errorf("%s: the load errors are missing:\n%s", f.Name, out)
		}
		if strings.Contains(out, "\x1b[2J") {
			t.Errorf("%s: a raw escape sequence reached the output", f.Name)
		}
		if !strings.Contains(out, lint.ValidationRule) {
			t.Errorf("%s: load errors are not filed under %s:\n%s", f.Name, lint.ValidationRule, out)
		}
	}
}

// TestSARIFStableAndRelative: URIs relative to the base path with a
// uriBaseId, a helpUri per rule, and fingerprints that survive a line shift.
func TestSARIFStableAndRelative(t *testing.T) {
	r := sampleResult()
	r.BasePath = "."
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, "sarif", r), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for _, rule := range run.Tool.Driver.Rules {
		if !strings.Contains(rule.HelpURI, "docs/rules.md#"+strings.ToLower(rule.ID)+"--") {
			t.Errorf("rule %s: helpUri %q", rule.ID, rule.HelpURI)
		}
	}
	loc := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation
	if loc.URI != "core.fab.hcl" || loc.URIBaseID != SARIFBaseID {
		t.Errorf("location %+v", loc)
	}
	fp := run.Results[0].PartialFingerprints[fingerprintKey]
	// The same finding two lines further down keeps its fingerprint.
	shifted := sampleResult()
	shifted.Sources["core.fab.hcl"] = append([]byte("\n\n"), shifted.Sources["core.fab.hcl"]...)
	d := *shifted.Diagnostics[0]
	s := *d.Subject
	s.Start.Line += 2
	d.Subject = &s
	if got := fingerprints(diag.Diagnostics{&d}, []string{"core.fab.hcl"}, shifted.Sources)[0]; fp == "" || got != fp {
		t.Errorf("fingerprint changed with the line: %q vs %q", got, fp)
	}
}

// TestSARIFEdgeCases: a file outside the base path gets an absolute file
// URI and no uriBaseId; identical results (one typo on four lines) get
// distinct fingerprints; a value given with -var has no file location but
// keeps the variable's name; GitHub's see: lines are relative to the base.
func TestSARIFEdgeCases(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(t.TempDir(), "x.fab.hcl")
	inside := filepath.Join(base, "fab", "a.fab.hcl")
	src := "device \"a\" {\n  platform = \"sonc\"\n}\n"
	typo := func(file string, line int32) *diag.Diagnostic {
		return &diag.Diagnostic{Severity: diag.Error, Summary: "Unknown platform", Detail: `"sonc" is no platform`,
			Subject: &diag.Range{Filename: file, Start: diag.Pos{Line: line, Column: 14}, End: diag.Pos{Line: line, Column: 20}}}
	}
	ds := diag.Diagnostics{typo(inside, 2), typo(inside, 2), typo(inside, 2), typo(inside, 2), typo(outside, 2),
		{Severity: diag.Error, Summary: "Undeclared variable", Detail: `-var sets "nosuch", but no variable block declares it.`, Subject: &diag.Range{Filename: "-var nosuch"}},
		{Severity: diag.Error, Rule: "LNK001", Summary: "speeds differ", Subject: &diag.Range{Filename: inside, Start: diag.Pos{Line: 1, Column: 1}},
			Related: []diag.Related{{Range: diag.Range{Filename: inside, Start: diag.Pos{Line: 2, Column: 3}}, Message: "other end"}}}}
	r := &Result{Diagnostics: ds, Sources: map[string][]byte{inside: []byte(src), outside: []byte(src)}, Rules: lint.Rules(), BasePath: base}
	var log struct {
		Runs []struct {
			Results []struct {
				Message   struct{ Text string } `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, "sarif", r), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results
	seen := map[string]bool{}
	for i, x := range res[:4] {
		fp := x.PartialFingerprints[fingerprintKey]
		if seen[fp] {
			t.Errorf("result %d: fingerprint %s shared with another result", i, fp)
		}
		seen[fp] = true
		if l := x.Locations[0].PhysicalLocation.ArtifactLocation; l.URI != "fab/a.fab.hcl" || l.URIBaseID != SARIFBaseID {
			t.Errorf("result %d: location %+v", i, l)
		}
	}
	if l := res[4].Locations[0].PhysicalLocation.ArtifactLocation; l.URIBaseID != "" || !strings.HasPrefix(l.URI, "file:///") || !strings.HasSuffix(l.URI, "/x.fab.hcl") {
		t.Errorf("a file outside the base: %+v, want an absolute file URI without uriBaseId", l)
	}
	if len(res[5].Locations) != 0 || !strings.Contains(res[5].Message.Text, "nosuch") {
		t.Errorf("-var value: locations %+v, message %q", res[5].Locations, res[5].Message.Text)
	}
	gh := string(render(t, "github", r))
	if strings.Contains(gh, "file=-var") || !strings.Contains(gh, "title=VAL001::Undeclared variable") {
		t.Errorf("github: a -var value got a file location:\n%s", gh)
	}
	if !strings.Contains(gh, "see: fab/a.fab.hcl:2:3: other end") || strings.Contains(gh, "see: "+filepath.ToSlash(base)) {
		t.Errorf("github: see: path not relative to the base:\n%s", gh)
	}
	if strings.Contains(string(render(t, "compact", r)), "-var nosuch:0:0") {
		t.Error("compact: a -var value printed as a file position")
	}
}

// TestPlacesInMachineFormats: the places a finding about several ports
// counts are SARIF relatedLocations and JSON places; the text format
// counts them ("and N more places") and lists none.
func TestPlacesInMachineFormats(t *testing.T) {
	r := sampleResult()
	d := r.Diagnostics[0]
	d.Count = 3
	d.Places = []diag.Related{{Range: *rng(4, 1, 10), Message: "port leaf1:Ethernet1"}, {Range: *rng(5, 1, 10), Message: "port leaf2:Ethernet1"}}
	sarif := string(render(t, "sarif", r))
	js := string(render(t, "json", r))
	for _, p := range []string{"port leaf1:Ethernet1", "port leaf2:Ethernet1"} {
		if !strings.Contains(sarif, p) {
			t.Errorf("SARIF lacks the place %q", p)
		}
		if !strings.Contains(js, p) {
			t.Errorf("JSON lacks the place %q", p)
		}
	}
	if !strings.Contains(js, `"places"`) {
		t.Error(`JSON has no "places"`)
	}
	if text := string(render(t, "text", r)); strings.Contains(text, "port leaf1:Ethernet1") {
		t.Errorf("the text format lists places:\n%s", text)
	}
}
