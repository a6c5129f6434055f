package aristaeos_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
)

func parseEOS(t *testing.T, text []byte) *platformtest.ParsedDevice {
	p := platformtest.NewParsed()
	tcQueue := [8]int{}
	var port *platformtest.ParsedPort
	var queue *platformtest.ParsedQueue
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "qos map dscp "):
			tc := platformtest.Atoi(t, f[len(f)-1])
			for _, v := range f[3 : len(f)-3] {
				p.DSCP[platformtest.Atoi(t, v)] = tc
			}
		case strings.HasPrefix(line, "qos map traffic-class "):
			tcQueue[platformtest.Atoi(t, f[3])] = platformtest.Atoi(t, f[6])
		case strings.HasPrefix(line, "interface "):
			port = &platformtest.ParsedPort{}
			p.Ports[f[1]] = port
			queue = nil
		case port != nil && strings.HasPrefix(line, "   mtu "):
			port.MTU = platformtest.Atoi(t, f[1])
		case port != nil && strings.HasPrefix(line, "   qos trust "):
			port.Trust = map[string]string{"dscp": "dscp", "cos": "pcp"}[f[2]]
		case port != nil && line == "   no qos trust":
			port.Trust = "none"
		case port != nil && strings.HasPrefix(line, "   priority-flow-control priority "):
			if f[3] == "no-drop" {
				port.PFC = append(port.PFC, platformtest.Atoi(t, f[2]))
			}
		case port != nil && strings.HasPrefix(line, "   tx-queue "):
			queue = &port.Queues[platformtest.Atoi(t, f[1])]
		case queue != nil && line == "      priority strict":
			queue.Sched = "strict"
		case queue != nil && line == "      no priority":
			queue.Sched = "dwrr"
		case queue != nil && strings.HasPrefix(line, "      bandwidth percent "):
			queue.Weight = platformtest.Atoi(t, f[2])
		case queue != nil && strings.HasPrefix(line, "      random-detect "):
			platformtest.ParseECN(t, f, queue)
			queue.ECNMark = f[1] == "ecn"
		}
	}
	for d, pr := range p.DSCP {
		if pr >= 0 {
			p.DSCPQueue[d] = tcQueue[pr]
		}
	}
	return p
}

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of the golden render of every device of this folder's fixture and
// compares them with the effective QoS of each port (moved from
// templates/roundtrip_test.go).
func TestRoundTrip(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		platformtest.CompareRoundTrip(t, d, parseEOS(t, text), true, false)
	}
}

// TestRoundTripDetectsDrift proves the comparison fails when a render and
// the intent disagree.
func TestRoundTripDetectsDrift(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), aristaeos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	d := fx.Devices(f)[0]
	text, err := os.ReadFile(fx.Golden(d.Name))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(text, []byte("qos map dscp 26 to traffic-class 3"), []byte("qos map dscp 26 to traffic-class 1"), 1)
	if bytes.Equal(broken, text) {
		t.Fatal("render lacks the DSCP 26 map line this test edits")
	}
	ft := &testing.T{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		platformtest.CompareRoundTrip(ft, d, parseEOS(ft, broken), true, false)
	}()
	<-done
	if !ft.Failed() {
		t.Error("the round-trip comparison accepted a render that maps DSCP 26 to the wrong priority")
	}
}
