package nvidiacumulus

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

// TestCumulusACLSyntax pins the NVUE ACL lines of Cumulus Linux 5.7–5.14:
// L4 ports under the protocol, "match ip" for IPv6 ACLs too, and a
// re-marking permit rule with "action set dscp" alone.
func TestCumulusACLSyntax(t *testing.T) {
	mark := &schema.ACL{Name: "roce-mark", Rules: []*schema.ACLRule{
		{Seq: 10, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
			DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}), DSCP: rendertest.Set([]int{48}), SetDSCP: schema.Value[int]{V: -1}},
		{Seq: 20, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
			DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}), SetDSCP: rendertest.Set(26)},
		{Seq: 30, Family: "ipv4", Protocol: rendertest.Set("tcp"), Action: rendertest.Set(schema.ActionDeny),
			SrcPorts: rendertest.Set([]schema.PortRange{{From: 179, To: 179}}), SetDSCP: schema.Value[int]{V: -1}},
	}}
	v6 := &schema.ACL{Name: "v6-mark", Rules: []*schema.ACLRule{
		{Seq: 10, Family: "ipv6", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
			DstPrefix: rendertest.Set(netip.MustParsePrefix("2001:db8::/32")), DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}), SetDSCP: rendertest.Set(26)},
	}}
	f, d := rendertest.TinyFabric(Platform(), "swp1")
	f.ACLs = []*schema.ACL{mark, v6}
	d.Ports[0].ACLIn = []*schema.ACL{mark, v6}
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"nv set acl roce-mark type ipv4\n" +
			"nv set acl roce-mark rule 10 match ip protocol udp\n" +
			"nv set acl roce-mark rule 10 match ip udp dest-port 4791\n" +
			"nv set acl roce-mark rule 10 match ip dscp 48\n" +
			"nv set acl roce-mark rule 10 action permit\n" +
			"nv set acl roce-mark rule 20 match ip protocol udp\n" +
			"nv set acl roce-mark rule 20 match ip udp dest-port 4791\n" +
			"nv set acl roce-mark rule 20 action set dscp 26\n" +
			"nv set acl roce-mark rule 30 match ip protocol tcp\n" +
			"nv set acl roce-mark rule 30 match ip tcp source-port 179\n" +
			"nv set acl roce-mark rule 30 action deny\n",
		"nv set acl v6-mark type ipv6\n" +
			"nv set acl v6-mark rule 10 match ip protocol udp\n" +
			"nv set acl v6-mark rule 10 match ip dest-ip 2001:db8::/32\n" +
			"nv set acl v6-mark rule 10 match ip udp dest-port 4791\n" +
			"nv set acl v6-mark rule 10 action set dscp 26\n",
		"nv set qos traffic-pool default-lossless memory-percent 50\n" +
			"nv set qos traffic-pool default-lossy memory-percent 50\n" +
			"nv set qos pfc default-global switch-priority 3\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("render lacks\n%s\nin:\n%s", want, text)
		}
	}
	for _, bad := range []string{"match ipv6", "match ip dest-port", "match ip source-port"} {
		if strings.Contains(text, bad) {
			t.Errorf("render has %q:\n%s", bad, text)
		}
	}
}

// TestCumulusNoPoolsWithoutPFC: without PFC the buffer stays all lossy.
func TestCumulusNoPoolsWithoutPFC(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "swp1")
	d.Ports[0].QoS.Lossless = 0
	f.Reindex()
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "traffic-pool") {
		t.Errorf("traffic-pool without PFC:\n%s", text)
	}
}
