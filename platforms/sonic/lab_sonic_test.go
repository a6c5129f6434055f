package sonic_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// patchFor builds the JSON Patch that merges a config_db fragment into db.
func patchFor(t *testing.T, db map[string]any, frag map[string]any) string {
	t.Helper()
	var ops []map[string]any
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }
	for table, v := range frag {
		cur, ok := db[table].(map[string]any)
		if !ok {
			ops = append(ops, map[string]any{"op": "add", "path": "/" + esc(table), "value": v})
			continue
		}
		for key, kv := range v.(map[string]any) {
			if _, ok := cur[key].(map[string]any); !ok {
				ops = append(ops, map[string]any{"op": "add", "path": "/" + esc(table) + "/" + esc(key), "value": kv})
				continue
			}
			fields, isMap := kv.(map[string]any)
			if !isMap {
				ops = append(ops, map[string]any{"op": "add", "path": "/" + esc(table) + "/" + esc(key), "value": kv})
				continue
			}
			for f, fv := range fields {
				ops = append(ops, map[string]any{"op": "add", "path": "/" + esc(table) + "/" + esc(key) + "/" + esc(f), "value": fv})
			}
		}
	}
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSONiCApplyPatchCheckpointRollback(t *testing.T) {
	golden, err := os.ReadFile("../../templates/testdata/golden/clos-400g/leaf3.json")
	if err != nil {
		t.Fatalf("read the templates' SONiC golden file: %v", err)
	}
	var frag map[string]any
	if err := json.Unmarshal(golden, &frag); err != nil {
		t.Fatal(err)
	}
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf3", Platform: plat().Name})
	dev := l.Device("leaf3")
	before := dev.RunningConfig()
	var db map[string]any
	if err := json.Unmarshal([]byte(before), &db); err != nil {
		t.Fatalf("running config is not JSON: %v", err)
	}
	patch := patchFor(t, db, frag)
	sh := labtest.OpenShell(t, l, "leaf3", `admin@leaf3:~\$ $`)
	if out := sh.Run("config apply-patch /tmp/x.json"); !strings.Contains(out, "Root privileges are required") {
		t.Errorf("apply-patch without sudo: %q", out)
	}
	sh.Run("sudo config checkpoint fg-pre")
	if out := sh.Run("printf '%s' '" + patch + "' > /tmp/fg.json; echo $?"); out != "0\n" {
		t.Fatalf("write patch: %q", out)
	}
	out := sh.Run("sudo config apply-patch /tmp/fg.json")
	if !strings.Contains(out, "Patch applied successfully.") {
		t.Fatalf("apply-patch:\n%s", out)
	}
	shown := sh.Run("sonic-cfggen -d --print-data")
	if shown != dev.RunningConfig() || !strings.Contains(shown, `"DSCP_TO_TC_MAP"`) {
		t.Errorf("sonic-cfggen output differs from RunningConfig or lacks the patch")
	}
	if got := sh.Run("show runningconfiguration all"); got != shown {
		t.Errorf("show runningconfiguration all differs from sonic-cfggen")
	}
	bad := `[{"op": "add", "path": "/PORT_QOS_MAP/Ethernet999", "value": {"pfc_enable": "3"}}]`
	sh.Run("echo '" + bad + "' > /tmp/bad.json")
	if out := sh.Run("sudo config apply-patch /tmp/bad.json; echo $?"); !strings.Contains(out, "leafref to PORT Ethernet999") || !strings.HasSuffix(out, "1\n") {
		t.Errorf("bad patch: %q", out)
	}
	if out := sh.Run("sudo config rollback fg-pre"); !strings.Contains(out, "Config rolled back successfully.") {
		t.Fatalf("rollback: %s", out)
	}
	if dev.RunningConfig() != before {
		t.Errorf("rollback did not restore:\n%s", cli.UnifiedDiff("before", "after", before, dev.RunningConfig()))
	}
}
