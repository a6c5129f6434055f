package lab

import (
	"strings"
	"testing"

	"github.com/scrapli/scrapligo/driver/opoptions"

	"github.com/fabricgen/fabricgen/schema"
)

func TestEOSScrapliSmoke(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: schema.AristaEOS})
	d := scrapli(t, l, "leaf1", schema.AristaEOS)
	r, err := d.SendCommand("show running-config")
	if err != nil || r.Failed != nil {
		t.Fatalf("show run: %v %v", err, r.Failed)
	}
	t.Log(r.Result)
	mr, err := d.SendConfigs([]string{"interface Ethernet1", "mtu 9214", "tx-queue 3", "bandwidth percent 50", "qos map dscp 26 to traffic-class 3", "bogus line"}, opoptions.WithStopOnFailed())
	if err != nil {
		t.Fatal(err)
	}
	if mr.Failed == nil {
		t.Fatalf("bogus accepted")
	}
	r, _ = d.SendCommand("show running-config")
	if !strings.Contains(r.Result, "   mtu 9214") {
		t.Fatalf("no mtu:\n%s", r.Result)
	}
	t.Log(r.Result)
}
