package juniperjunos_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestLabRefusesMixedDropAttributes: the lab device refuses a commit that
// maps a lossless and a lossy forwarding class to one queue ("forwarding-
// classes": the classes of a queue share their packet drop attribute),
// from a CLI session and from another administrator, and keeps its
// configuration.
func TestLabRefusesMixedDropAttributes(t *testing.T) {
	mixed := []string{
		"set class-of-service forwarding-classes class storage queue-num 3 no-loss",
		"set class-of-service forwarding-classes class bulk queue-num 3",
	}
	emu, err := plat().Emulator(labtest.Env("fc1", plat().Name))
	if err != nil {
		t.Fatal(err)
	}
	before := emu.Export()
	if err := emu.OutOfBand(mixed); err == nil || !strings.Contains(err.Error(), "queue 3") {
		t.Errorf("another administrator's commit: error %v, want a refusal naming queue 3", err)
	}
	s := emu.NewSession(&cli.Term{}, "admin")
	for _, l := range append(append([]string{"configure private"}, mixed...), "commit") {
		r := s.Handle(l)
		if l != "commit" {
			if r.Status != 0 {
				t.Fatalf("%s: %q", l, r.Out)
			}
			continue
		}
		if r.Status == 0 || !strings.Contains(r.Out, "storage (no-loss) and bulk (lossy) are mapped to queue 3") {
			t.Errorf("commit: status %d %q, want the refusal", r.Status, r.Out)
		}
	}
	if after := emu.Export(); after != before {
		t.Errorf("the refused commits changed the configuration:\n%s", cli.UnifiedDiff("before", "after", before, after))
	}
	if err := emu.OutOfBand([]string{"set class-of-service forwarding-classes class bulk queue-num 3 no-loss", mixed[0]}); err != nil {
		t.Errorf("two lossless classes on one queue: %v", err)
	}
}

// TestLabTakesRenderedShapers: the lab device commits the fixture's QFX
// render (the default no-loss class redeclared lossy, the queues'
// shaping-rate), and a new shaping-rate or transmit-rate replaces the old
// one, as a single-valued Junos statement does.
func TestLabTakesRenderedShapers(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "junos2.set"))
	if err != nil {
		t.Fatal(err)
	}
	emu, err := plat().Emulator(labtest.Env("fc2", plat().Name))
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.OutOfBand(strings.Split(string(golden), "\n")); err != nil {
		t.Fatalf("committing the render: %v", err)
	}
	for _, want := range []string{
		"set class-of-service forwarding-classes class no-loss queue-num 4\n",
		"set class-of-service schedulers FABRICGEN-Q0 shaping-rate 10g\n",
		"set class-of-service schedulers FABRICGEN-Q6 shaping-rate 10g\n",
	} {
		if !strings.Contains(emu.Export(), want) {
			t.Errorf("the lab device lacks %q", strings.TrimSpace(want))
		}
	}
	for _, c := range []struct{ first, then, want, gone string }{
		{"shaping-rate percent 5", "shaping-rate 10g", "FABRICGEN-Q6 shaping-rate 10g\n", "percent 5"},
		{"shaping-rate 10g", "shaping-rate percent 5", "FABRICGEN-Q6 shaping-rate percent 5\n", "10g"},
		{"transmit-rate percent 5", "transmit-rate 2500m", "FABRICGEN-Q6 transmit-rate 2500m\n", "percent 5"},
	} {
		emu, err := plat().Emulator(labtest.Env("fc3", plat().Name))
		if err != nil {
			t.Fatal(err)
		}
		if err := emu.OutOfBand([]string{"set class-of-service schedulers FABRICGEN-Q6 " + c.first, "set class-of-service schedulers FABRICGEN-Q6 " + c.then}); err != nil {
			t.Fatal(err)
		}
		got := emu.Export()
		if !strings.Contains(got, c.want) || strings.Contains(got, "FABRICGEN-Q6 "+strings.Fields(c.first)[0]+" "+c.gone) {
			t.Errorf("%s then %s: got\n%s", c.first, c.then, got)
		}
	}
}
