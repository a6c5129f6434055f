package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestCauseAndRelatedLines: where a rule puts the line an operator changed
// first and the other side of the disagreement among its related
// locations, both show in the fixture that makes that change (the fixture
// harness checks only the primary line): the primary's source line holds
// subject, and some related location's line holds each of related.
func TestCauseAndRelatedLines(t *testing.T) {
	cases := []struct {
		fixture, rule string
		subject       string
		related       []string
	}{
		{"ets001-fail-queue-strict", "ETS001", `queue "0" { scheduler = "strict" }`,
			[]string{"weight    = 50"}},
		{"ets001-fail-class-queue-shared", "ETS001", "queue     = 3 #", []string{"weight    = 50"}},
		{"ets002-fail-class-scheduler-dwrr", "ETS002", `scheduler = "dwrr" #`, nil},
		{"pfc008-fail-class-lossless-off", "PFC008", "pfc_priorities   = [3]", []string{"lossless  = false"}},
		{"dlk004-fail-kind-changed", "DLK004", `kind     = "leaf" #`, []string{`link "uplink"`, "lossless  = true"}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			dir := filepath.Join("testdata", "fixtures", c.fixture)
			f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			fs, err := Run(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			line := func(r schema.Range) string {
				b, err := os.ReadFile(r.Filename)
				if err != nil || r.Start.Line < 1 {
					return ""
				}
				ls := strings.Split(string(b), "\n")
				if int(r.Start.Line) > len(ls) {
					return ""
				}
				return ls[r.Start.Line-1] + "\n"
			}
			n := 0
			for _, fd := range fs {
				if fd.Rule != c.rule {
					continue
				}
				n++
				if fd.Subject == nil || !strings.Contains(line(*fd.Subject), c.subject) {
					t.Errorf("%s at %v (%q), want the line with %q", c.rule, fd.Subject, line(fd.Range()), c.subject)
				}
				for _, want := range c.related {
					found := false
					for _, r := range fd.Related {
						found = found || strings.Contains(line(r.Range), want)
					}
					if !found {
						t.Errorf("%s names no related line with %q: %+v", c.rule, want, fd.Related)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d %s findings, want 1", n, c.rule)
			}
		})
	}
}
