package aristaeos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func TestOutOfBandRewrite(t *testing.T) {
	text := `ip access-list roce
   10 permit udp any any eq 4791
class-map type qos match-any roce
   match ip access-group roce
policy-map type quality-of-service ZERO
   class roce
      set dscp 0
      set traffic-class 5
qos map dscp 46 to traffic-class 5
interface Ethernet1
   no switchport
   service-policy type qos input ZERO
`
	d, err := read(text)
	if err != nil {
		t.Fatal(err)
	}
	prio, out := d.Port("Ethernet1").Classify(46, true)
	if prio != 5 || out != 0 {
		t.Errorf("Classify(46, roce) = %d, %d; want priority 5, DSCP 0", prio, out)
	}
	if prio, out := d.Port("Ethernet1").Classify(46, false); prio != 5 || out != 46 {
		t.Errorf("non-RoCE DSCP 46 = %d, %d; want 5, 46", prio, out)
	}
	if d.Port("Ethernet9").Trust != "dscp" || strings.Contains("x", "y") {
		t.Errorf("an unnamed port: %+v", d.Port("Ethernet9"))
	}
}

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "interface Ethernet1\n   qos trust dscp\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 bytes\n")
}
