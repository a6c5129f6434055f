package lab

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

// TestNXOSAccountingLog: every configuration command, from any login and
// from another administrator, is in `show accounting log` with its modes
// and session; last-index and start-seqnum page it.
func TestNXOSAccountingLog(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf2", Platform: schema.CiscoNXOS})
	dev := l.Device("leaf2")
	sh := openShell(t, l, "leaf2", `leaf2(\([a-z-]+\))?# $`)
	out := sh.run("show accounting log last-index")
	m := regexp.MustCompile(`last-index : (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("last-index: %q", out)
	}
	sh.run("checkpoint cp1")
	sh.run("configure terminal")
	sh.run("interface Ethernet1/1")
	sh.run("mtu 9216")
	sh.run("end")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet1/2", "  mtu 1500"}); err != nil {
		t.Fatal(err)
	}
	from, _ := strconv.Atoi(m[1])
	log := sh.run("show accounting log start-seqnum " + strconv.Itoa(from+1))
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

// TestBeforeRunsAtTheLine: an armed happening runs right before the line
// it names is handled, once, and a device change a Junos exclusive lock
// keeps out is its error.
func TestBeforeRunsAtTheLine(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "spine1", Platform: schema.JuniperJunos})
	dev := l.Device("spine1")
	sh := openShell(t, l, "spine1", `(?:admin@spine1[>#] )$`)
	armed, err := dev.Before(`^show system commit$`, Happening{OutOfBand: []string{"set system ntp server 192.0.2.200"}})
	if err != nil {
		t.Fatal(err)
	}
	if armed.Ran() {
		t.Fatal("ran before its line")
	}
	sh.run("show version")
	if armed.Ran() {
		t.Fatal("ran at another line")
	}
	sh.run("show system commit")
	if err := armed.Wait(time.Second); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dev.RunningConfig(), "192.0.2.200") {
		t.Error("the change did not happen")
	}
	sh.run("configure exclusive")
	locked, err := dev.Before(`^show$`, Happening{OutOfBand: []string{"set system ntp server 192.0.2.201"}})
	if err != nil {
		t.Fatal(err)
	}
	sh.run("show")
	if err := locked.Wait(time.Second); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("a change while configure exclusive is held: %v, want locked", err)
	}
	if _, err := dev.Before(`(`, Happening{}); err == nil {
		t.Error("a bad pattern was armed")
	}
}
