package push

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/push/planfile"
)

// TestRangeKeysBaselineEndToEnd: on the SONiC brownfield device (stock
// BUFFER_QUEUE "Ethernet0|0-2", "3-4", "5-6"), the lossless queue moves
// 5 → 6 → 3, each plan applied: a rendered queue splits the stock range
// and keeps the other queues' stock profile, a dropped one gets back the
// brownfield's (the oldest backup, which plan reads) and merges into the
// stock range again, the plan after each apply is empty, and no plan takes
// over a key the previous apply re-added for the device.
func TestRangeKeysBaselineEndToEnd(t *testing.T) {
	var bc *brownfieldCase
	for _, c := range brownfieldCases(t) {
		if c.md.fx.Platform.Dialect().ConfigDB {
			bc = &c
			break
		}
	}
	if bc == nil {
		t.Fatal("no CONFIG_DB brownfield case")
	}
	bq := func(running string) []string {
		var db map[string]map[string]map[string]any
		if err := json.Unmarshal([]byte(running), &db); err != nil {
			t.Fatalf("the device's CONFIG_DB: %v", err)
		}
		var out []string
		for k, f := range db["BUFFER_QUEUE"] {
			if strings.HasPrefix(k, "Ethernet0|") {
				out = append(out, fmt.Sprintf("%s=%v", k, f["profile"]))
			}
		}
		sort.Strings(out)
		return out
	}
	const lossy, lossless = "egress_lossy_profile", "egress_lossless_profile"
	if got, want := bq(bc.dev.running), []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5-6=" + lossy}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the brownfield's stock BUFFER_QUEUE is %q, the test expects %q", got, want)
	}
	r := newBrownfieldRig(t, bc.dev, bc.dev.running)
	backups := filepath.Join(t.TempDir(), "backups")
	r.opts.State.BackupRoot = backups
	// The records are unsigned here: trust them, as a signed one is (an
	// unsigned record's key alone is kept, see docs/push.md).
	r.opts.TrustRecords = true
	for _, c := range []struct {
		queue    string
		want     []string
		takeover []string
	}{
		{"5", []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossless, "Ethernet0|6=" + lossy},
			[]string{"BUFFER_QUEUE|Ethernet0|5-6|profile = " + lossy}},
		{"6", []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3-4=" + lossless, "Ethernet0|5=" + lossy, "Ethernet0|6=" + lossless},
			[]string{"BUFFER_QUEUE|Ethernet0|6|profile = " + lossy}},
		{"3", []string{"Ethernet0|0-2=" + lossy, "Ethernet0|3=" + lossless, "Ethernet0|4=" + lossless, "Ethernet0|5-6=" + lossy},
			[]string{"BUFFER_QUEUE|Ethernet0|3-4|profile = " + lossless}},
	} {
		r.inputs[0].Rendered = []byte(fmt.Sprintf(`{"BUFFER_QUEUE": {"Ethernet0|%s": {"profile": %q}}}`, c.queue, lossless))
		p := r.plan()
		d := p.Devices[0]
		if d.Status != planfile.StatusChange {
			t.Fatalf("queue %s: plan %s (%s), want a change", c.queue, d.Status, d.Error)
		}
		if !reflect.DeepEqual(d.Takeover, c.takeover) {
			t.Errorf("queue %s: the plan takes over %q, want %q", c.queue, d.Takeover, c.takeover)
		}
		if res := r.apply(p, backups); res[0].Status != StatusApplied {
			t.Fatalf("queue %s: apply %s (%s)", c.queue, res[0].Status, res[0].Reason)
		}
		if got := bq(r.lab.Device(bc.dev.name).RunningConfig()); !reflect.DeepEqual(got, c.want) {
			t.Errorf("queue %s: Ethernet0's BUFFER_QUEUE\n got %q\nwant %q", c.queue, got, c.want)
		}
		if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged || len(d.Takeover) > 0 {
			t.Errorf("queue %s: the plan after the apply: %s (%s), takes over %q, diff:\n%s", c.queue, d.Status, d.Error, d.Takeover, d.Diff.Text)
		}
	}
}
