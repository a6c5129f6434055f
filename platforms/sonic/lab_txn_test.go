package sonic_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func TestSONiCCheckpointsAndPrivatePatchDirectory(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf3", Platform: plat().Name})
	dev := l.Device("leaf3")
	prompt := `admin@leaf3:~\$ $`
	a := labtest.OpenShell(t, l, "leaf3", prompt)
	a.Run("sudo config checkpoint fg-1")
	_ = a.Close()
	b := labtest.OpenShell(t, l, "leaf3", prompt)
	var names []string
	if err := json.Unmarshal([]byte(b.Run("config list-checkpoints")), &names); err != nil || len(names) != 1 || names[0] != "fg-1" {
		t.Fatalf("list-checkpoints: %q, %v", names, err)
	}
	d1 := strings.TrimSpace(b.Run("mktemp -d"))
	d2 := strings.TrimSpace(b.Run("mktemp -d"))
	if !regexp.MustCompile(`^/tmp/tmp\.[A-Za-z0-9]{10}$`).MatchString(d1) || d1 == d2 {
		t.Fatalf("mktemp -d gave %q and %q", d1, d2)
	}
	b.Run(`d=$(mktemp -d /tmp/fabricgen.XXXXXX) && printf '%s' '[{"op":"replace","path":"/PORT/Ethernet8/mtu","value":"9000"}]' > "$d/patch.json" && echo "$d" > /tmp/last`)
	d := strings.TrimSpace(b.Run("cat /tmp/last"))
	if out := b.Run("sudo config apply-patch " + d + "/patch.json"); !strings.Contains(out, "Patch applied successfully") {
		t.Fatalf("apply-patch from the private directory: %q", out)
	}
	if !strings.Contains(dev.RunningConfig(), `"mtu": "9000"`) {
		t.Error("the patch did not apply")
	}
	if out := b.Run("printf x > /tmp/nodir/x; echo $?"); !strings.Contains(out, "No such file or directory") {
		t.Errorf("write into a missing directory: %q", out)
	}
	if out := b.Run("rm " + d + "; echo $?"); !strings.Contains(out, "Is a directory") {
		t.Errorf("rm of a directory without -r: %q", out)
	}
	b.Run("rm -rf " + d)
	if out := b.Run("ls " + d + "; cat " + d + "/patch.json; echo $?"); !strings.Contains(out, "No such file or directory") || !strings.HasSuffix(out, "1\n") {
		t.Errorf("directory still there after rm -rf: %q", out)
	}
	b.Run("sudo config delete-checkpoint fg-1")
	if out := b.Run("config list-checkpoints"); strings.TrimSpace(out) != "[]" {
		t.Errorf("after delete-checkpoint: %q", out)
	}
}
