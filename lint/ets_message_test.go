package lint

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestETS001MessageListsQueues pins the ETS001 message to a readable list
// of the DWRR queues' weights (it once printed "50 0 0 60 0 0 s 0").
func TestETS001MessageListsQueues(t *testing.T) {
	f, diags := schema.Load(filepath.Join("..", "examples", "broken", "ets-sum"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	findings, err := Run(context.Background(), f, Options{Only: []string{"ETS001"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "core1:Ethernet1: DWRR weights sum to 110, not 100 (queue 0: 50, queue 3: 60)"
	var got []string
	for _, fd := range findings {
		got = append(got, fd.Summary)
		if strings.Contains(fd.Summary, " s ") || strings.Contains(fd.Summary, " 0 0 ") {
			t.Errorf("message still lists bare weights: %q", fd.Summary)
		}
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("ETS001 messages %q, want [%q]", got, want)
	}
}

// TestETS001NamesMissingDefaultClass: weights that fall short because no
// class has role "default" name that class, with its weight, in the
// message and the fix; a sum over 100 keeps the plain message.
func TestETS001NamesMissingDefaultClass(t *testing.T) {
	tests := []struct {
		dir, summary, fix string
	}{
		{"testdata/fixtures/ets001-fail-no-default-class", `no traffic_class has role "default"`, `role = "default", dscp = [0], priority = 0 and weight = 50`},
		{filepath.Join("..", "examples", "broken", "ets-sum"), "sum to 110, not 100", "Adjust the classes'"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.dir), func(t *testing.T) {
			f, diags := schema.Load(tt.dir, schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			fs, err := Run(context.Background(), f, Options{Only: []string{"ETS001"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != 1 || !strings.Contains(fs[0].Summary, tt.summary) || !strings.Contains(fs[0].Fix, tt.fix) {
				t.Fatalf("ETS001 findings %+v: want one saying %q with a fix saying %q", fs, tt.summary, tt.fix)
			}
		})
	}
}
