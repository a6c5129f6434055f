package config_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/schema"
)

// TestBufferPGTakeover: a rendered lossless PG displaces the stock key it
// overlaps ("Ethernet0|3-4" for "Ethernet0|3"), leaves the port's lossy
// PG 0 alone, and a restore brings the displaced key back.
func TestBufferPGTakeover(t *testing.T) {
	d := mustDialect(t, schema.SONiC)
	running := `{"PORT": {"Ethernet0": {"speed": "400000", "lanes": "0"}},
"BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}, "Ethernet0|3-4": {"profile": "pg_lossless_400000_5m_profile"}}}`
	rendered := `{"PORT": {"Ethernet0": {"speed": "400000"}}, "BUFFER_PG": {"Ethernet0|3": {"profile": "pg_lossless_400000_5m_profile"}}}`
	cmp, err := config.CompareConfigDB("leaf", running, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cmp.Changes.Commands(), "\n")
	for _, want := range []string{`{"op":"remove","path":"/BUFFER_PG/Ethernet0|3-4"}`, `{"op":"add","path":"/BUFFER_PG/Ethernet0|3"`} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Ethernet0|0") {
		t.Errorf("the lossy PG 0 is touched:\n%s", got)
	}
	applied := `{"PORT": {"Ethernet0": {"speed": "400000", "lanes": "0"}},
"BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}, "Ethernet0|3": {"profile": "pg_lossless_400000_5m_profile"}}}`
	back, err := config.CompareRestore("leaf", applied, running, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(back.Changes.Commands(), "\n")
	for _, want := range []string{`{"op":"remove","path":"/BUFFER_PG/Ethernet0|3"}`, `"path":"/BUFFER_PG/Ethernet0|3-4"`} {
		if !strings.Contains(got, want) {
			t.Errorf("restore lacks %s:\n%s", want, got)
		}
	}
}

// TestWholeTableRemoved: when every key of a table goes, the patch removes
// the table (CONFIG_DB has no empty tables; the config updater refuses a
// patch leaving one), in an apply and in a restore.
func TestWholeTableRemoved(t *testing.T) {
	d := mustDialect(t, schema.SONiC)
	running := `{"PORT": {"Ethernet0": {"speed": "400000"}, "Ethernet8": {"speed": "400000"}},
"BUFFER_PG": {"Ethernet0|3": {"profile": "p"}, "Ethernet8|3": {"profile": "p"}}}`
	rendered := `{"PORT": {"Ethernet0": {"speed": "400000"}, "Ethernet8": {"speed": "400000"}}}`
	scope := `{"BUFFER_PG": {"Ethernet0|3": {"profile": "p"}, "Ethernet8|3": {"profile": "p"}}}`
	cmp, err := config.CompareScoped("leaf", running, rendered, scope, d)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmp.Changes.Commands(), "\n"); got != `{"op":"remove","path":"/BUFFER_PG"}` {
		t.Errorf("changes %q, want the table removed once", got)
	}
	back, err := config.CompareRestore("leaf", running, rendered, scope, d)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(back.Changes.Commands(), "\n"); got != `{"op":"remove","path":"/BUFFER_PG"}` {
		t.Errorf("restore %q, want the table removed once", got)
	}
}
