package lint

import (
	"context"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRunReportKeepsSuppressed: RunReport returns what an ignore comment
// hid (inSource, with the comment's reason) and what a rule the config
// turns off would have found (external); Run returns neither.
func TestRunReportKeepsSuppressed(t *testing.T) {
	f := baseFabric()
	editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) {
		q.Trust.V = schema.TrustNone
		q.Trust.Src = schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}, End: schema.Pos{Line: 3, Column: 17}}
	})
	f.Files["core.fab.hcl"] = []byte(suppressSrc)
	off, err := ParseConfig(".fabricgen.hcl", []byte("rule \"QOS001\" {\n  enabled = false\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		cfg       *Config
		kind, why string
	}{
		{"ignore comment", nil, SuppressedInSource, "the core is replaced next quarter"},
		{"config", off, SuppressedExternal, "rule QOS001 is turned off (enabled = false) in .fabricgen.hcl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Config: c.cfg, Only: []string{"QOS001"}}
			rep, err := RunReport(context.Background(), f, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) != 0 {
				t.Errorf("findings = %+v, want none", rep.Findings)
			}
			if len(rep.Suppressed) != 1 {
				t.Fatalf("suppressed = %+v, want one QOS001", rep.Suppressed)
			}
			s := rep.Suppressed[0]
			if s.Finding.Rule != "QOS001" || s.Kind != c.kind || s.Justification != c.why {
				t.Errorf("suppressed = %s %q %q, want QOS001 %q %q", s.Finding.Rule, s.Kind, s.Justification, c.kind, c.why)
			}
			plain, err := Run(context.Background(), f, opts)
			if err != nil || len(plain) != 0 {
				t.Errorf("Run = %+v, %v; want no findings", plain, err)
			}
		})
	}
	// A rule left out by --rule is not suppressed, only not asked for.
	rep, err := RunReport(context.Background(), f, Options{Config: off, Only: []string{"ETS001"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Suppressed {
		if s.Finding.Rule == "QOS001" {
			t.Errorf("QOS001 reported as suppressed though --rule left it out: %+v", s)
		}
	}
}
