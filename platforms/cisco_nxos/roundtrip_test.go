package cisconxos_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
)

func parseNXOS(t *testing.T, text []byte) *platformtest.ParsedDevice {
	p := platformtest.NewParsed()
	classDSCP := map[string][]int{}
	var pfc []int
	queues := [8]platformtest.ParsedQueue{}
	var (
		class, policy string
		queue         *platformtest.ParsedQueue
		port          *platformtest.ParsedPort
	)
	ports := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 0 {
			policy, class, queue, port = "", "", nil, nil
		}
		switch {
		case strings.HasPrefix(line, "class-map type qos "):
			class = f[4]
		case class != "" && indent == 2 && strings.HasPrefix(strings.TrimSpace(line), "match dscp "):
			classDSCP[class] = platformtest.ParseRanges(t, f[2])
		case line == "policy-map type qos FABRICGEN-IN":
			policy = "in"
		case policy == "in" && indent == 2 && f[0] == "class":
			class = f[1]
		case policy == "in" && indent == 4 && f[0] == "set" && f[1] == "qos-group":
			for _, d := range classDSCP[class] {
				p.DSCPQueue[d] = platformtest.Atoi(t, f[2])
			}
		case strings.HasPrefix(line, "policy-map type queuing "):
			policy = "queuing"
		case policy == "queuing" && indent == 2:
			n := strings.TrimPrefix(f[3], "c-out-8q-q")
			if n == "-default" {
				n = "0"
			}
			queue = &queues[platformtest.Atoi(t, n)]
		case queue != nil && strings.TrimSpace(line) == "priority level 1":
			queue.Sched = "strict"
		case queue != nil && strings.HasPrefix(strings.TrimSpace(line), "bandwidth remaining percent "):
			queue.Sched, queue.Weight = "dwrr", platformtest.Atoi(t, f[3])
		case queue != nil && f[0] == "random-detect":
			platformtest.ParseECN(t, f, queue)
		case strings.HasPrefix(line, "policy-map type network-qos "):
			policy = "nq"
		case policy == "nq" && f[0] == "pause":
			for _, c := range f[2:] {
				pfc = append(pfc, platformtest.Atoi(t, c))
			}
		case strings.HasPrefix(line, "interface "):
			port = &platformtest.ParsedPort{Trust: "dscp"}
			p.Ports[f[1]] = port
			ports[f[1]] = false
		case port != nil && strings.HasPrefix(line, "  mtu "):
			port.MTU = platformtest.Atoi(t, f[1])
		case port != nil && line == "  priority-flow-control mode on":
			port.PFC = append([]int(nil), pfc...)
		}
	}
	for _, pp := range p.Ports {
		pp.Queues = queues
		if pp.PFC != nil {
			pp.PFC = append([]int(nil), pfc...)
		}
	}
	return p
}

// TestRoundTrip parses trust, DSCP map, PFC, ECN, schedulers and MTU back
// out of the golden render of every device of this folder's fixture and
// compares them with the effective QoS of each port (moved from
// templates/roundtrip_test.go).
func TestRoundTrip(t *testing.T) {
	fx := platformtest.Of(filepath.Join("..", ".."), cisconxos.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Fatal(err)
		}
		platformtest.CompareRoundTrip(t, d, parseNXOS(t, text), false, true)
	}
}
