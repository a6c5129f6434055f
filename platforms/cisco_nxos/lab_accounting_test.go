package cisconxos_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestNXOSAccountingLog: every configuration command, from any login and
// from another administrator, is in `show accounting log` with its modes
// and session; last-index and start-seqnum page it.
func TestNXOSAccountingLog(t *testing.T) {
	l := labtest.Start(t, lab.DeviceSpec{Name: "leaf2", Platform: plat().Name})
	dev := l.Device("leaf2")
	sh := labtest.OpenShell(t, l, "leaf2", `leaf2(\([a-z-]+\))?# $`)
	out := sh.Run("show accounting log last-index")
	m := regexp.MustCompile(`last-index : (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("last-index: %q", out)
	}
	sh.Run("checkpoint cp1")
	sh.Run("configure terminal")
	sh.Run("interface Ethernet1/1")
	sh.Run("mtu 9216")
	sh.Run("end")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet1/2", "  mtu 1500"}); err != nil {
		t.Fatal(err)
	}
	from, _ := strconv.Atoi(m[1])
	log := sh.Run("show accounting log start-seqnum " + strconv.Itoa(from+1))
	for _, want := range []string{
		`:type=update:id=192\.0\.2\.10@pts/\d+:user=admin:cmd=checkpoint cp1 \(SUCCESS\)`,
		`:type=update:id=192\.0\.2\.10@pts/\d+:user=admin:cmd=configure terminal ; interface Ethernet1/1 ; mtu 9216 \(SUCCESS\)`,
		`:type=update:id=192\.0\.2\.99@pts/9:user=netadmin:cmd=configure terminal ; interface Ethernet1/2 ; mtu 1500 \(SUCCESS\)`,
	} {
		if !regexp.MustCompile(want).MatchString(log) {
			t.Errorf("the accounting log lacks %s:\n%s", want, log)
		}
	}
}
