package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

const suppressSrc = `qos_policy "core" {
  # fabricgen:ignore QOS001 the core is replaced next quarter
  trust = "none"
  mtu   = 9216
}

# fabricgen:ignore ETS001
qos_policy "other" {
  trust = "dscp"
}
`

func TestSuppressions(t *testing.T) {
	f := baseFabric()
	f.Files["core.fab.hcl"] = []byte(suppressSrc)
	sups := ParseSuppressions(f)
	if len(sups) != 2 {
		t.Fatalf("got %d suppressions, want 2: %+v", len(sups), sups)
	}
	if sups[0].Reason != "the core is replaced next quarter" || sups[0].Covers.Start.Line != 3 || sups[0].Covers.End.Line != 3 {
		t.Errorf("attribute suppression: %+v", sups[0])
	}
	if sups[1].Reason != "" || sups[1].Covers.Start.Line != 8 || sups[1].Covers.End.Line != 10 {
		t.Errorf("block suppression: %+v", sups[1])
	}
	cases := []struct {
		name string
		fd   Finding
		want bool
	}{
		{"attribute below the comment", Finding{Rule: "QOS001", Subject: ptr(schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}})}, true},
		{"other rule", Finding{Rule: "QOS002", Subject: ptr(schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}})}, false},
		{"next attribute", Finding{Rule: "QOS001", Subject: ptr(schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 4, Column: 3}})}, false},
		{"inside the block below", Finding{Rule: "ETS001", Subject: ptr(schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 9, Column: 3}})}, true},
		{"other file", Finding{Rule: "ETS001", Subject: ptr(schema.Range{Filename: "x.fab.hcl", Start: schema.Pos{Line: 9, Column: 3}})}, false},
	}
	for _, c := range cases {
		got := false
		for i := range sups {
			got = got || sups[i].covers(&c.fd)
		}
		if got != c.want {
			t.Errorf("%s: suppressed = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRunAppliesSuppressionAndConfig(t *testing.T) {
	f := baseFabric()
	p := port(f, "spine1:Ethernet1")
	editQoS(p, func(q *schema.PortQoS) {
		q.Trust.V = schema.TrustNone
		q.Trust.Src = schema.Range{Filename: "core.fab.hcl", Start: schema.Pos{Line: 3, Column: 3}, End: schema.Pos{Line: 3, Column: 17}}
	})
	fs, err := Run(context.Background(), f, Options{Only: []string{"QOS001"}})
	if err != nil || len(fs) != 1 {
		t.Fatalf("without suppression: %v %+v", err, fs)
	}
	f.Files["core.fab.hcl"] = []byte(suppressSrc)
	fs, _ = Run(context.Background(), f, Options{Only: []string{"QOS001", "SUP001"}})
	if len(fs) != 1 || fs[0].Rule != "SUP001" {
		t.Errorf("want only the SUP001 for the reasonless ignore, got %+v", fs)
	}
	cfg, err := ParseConfig(".fabricgen.hcl", []byte(`
config {
  fail_level = "warning"
}
rule "sup001" {
  enabled = false
}
rule "QOS005" {
  severity = "info"
}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.FailLevel != schema.SevWarning || cfg.Rules["SUP001"].Enabled || cfg.Rules["QOS005"].Severity != schema.SevInfo {
		t.Errorf("config: %+v", cfg)
	}
	fs, _ = Run(context.Background(), f, Options{Config: cfg, Only: []string{"QOS001", "SUP001"}})
	if len(fs) != 0 {
		t.Errorf("SUP001 disabled by config, got %+v", fs)
	}
}

func TestConfigErrors(t *testing.T) {
	for src, want := range map[string]string{
		`rule "NOPE01" {}`:                     "not a fabricgen rule",
		`rule "QOS001" { severity = "fatal" }`: "unknown severity",
		`config { fail_level = "loud" }`:       "unknown severity",
		`rule "QOS001" { colour = "red" }`:     "holds `config",
		`rule "QOS01" { enabled = false }`:     "Did you mean QOS001?",
		`rule "QOS001" {`:                      "lint config",
	} {
		_, err := ParseConfig(".fabricgen.hcl", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
}

func TestFindConfigWalksUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", ConfigFileName), []byte("config {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := FindConfig(context.Background(), deep)
	if err != nil || got != filepath.Join(root, "a", ConfigFileName) {
		t.Errorf("FindConfig = %q, %v", got, err)
	}
	if _, err := LoadConfig(context.Background(), got); err != nil {
		t.Error(err)
	}
}

func FuzzParseSuppressions(f *testing.F) {
	f.Add([]byte(suppressSrc))
	f.Add([]byte("# fabricgen:ignore QOS001,ETS001 why\n"))
	f.Add([]byte("/* fabricgen:ignore QOS001 */ x = 1"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fab := &schema.Fabric{Files: map[string][]byte{"f.fab.hcl": src}}
		for _, s := range ParseSuppressions(fab) {
			if len(s.Rules) == 0 {
				t.Errorf("suppression without rules: %+v", s)
			}
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`config { fail_level = "warning" }`))
	f.Add([]byte(`rule "QOS001" { enabled = false }`))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseConfig(".fabricgen.hcl", src)
		if err == nil && c == nil {
			t.Error("nil config without error")
		}
	})
}
