package templates

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// aclFabric is tinyFabric with one ACL of rules bound inbound on its port.
func aclFabric(p schema.Platform, rules ...*schema.ACLRule) (*schema.Fabric, *schema.Device) {
	f, d := tinyFabric(p, portName(p))
	if p == schema.JuniperJunos {
		d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{} // Junos takes fill levels
	}
	for _, r := range rules {
		r.Action = set(schema.ActionPermit)
	}
	a := &schema.ACL{Name: "edge", Rules: rules}
	f.ACLs = append(f.ACLs, a)
	d.Ports[0].ACLIn = []*schema.ACL{a}
	d.Ports[0].Routed = set(true)
	f.Reindex()
	return f, d
}

func v6Rule(seq int, proto string) *schema.ACLRule {
	return &schema.ACLRule{Seq: seq, Family: "ipv6", Protocol: set(proto)}
}

// TestIPv6ACLWords: a rule of family ipv6 with protocol ip or icmp is
// written in the platform's IPv6 words (ip is no IPv6 protocol on EOS or
// NX-OS, and icmp is ICMPv4 in Junos next-header, NVUE and SONiC's
// IP_PROTOCOL 1), and never in the IPv4 ones.
func TestIPv6ACLWords(t *testing.T) {
	r := newTestRenderer(t)
	for _, c := range []struct {
		plat      schema.Platform
		want, not []string
	}{
		{schema.AristaEOS, []string{"ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"},
			[]string{"permit icmp any", "permit ip any"}},
		{schema.CiscoNXOS, []string{"ipv6 access-list edge\n  10 permit icmp any any\n  20 permit ipv6 any any\n"},
			[]string{"permit ip any"}},
		{schema.JuniperJunos, []string{"set firewall family inet6 filter edge term 10 from next-header icmp6\n"},
			[]string{"next-header icmp\n", "family inet filter edge"}},
		{schema.NvidiaCumulus, []string{"nv set acl edge type ipv6\n", "nv set acl edge rule 10 match ip protocol icmpv6\n"},
			[]string{"protocol icmp\n", "rule 20 match ip protocol"}},
		{schema.SONiC, []string{`"EDGE_IN|RULE_10": {` + "\n" + `            "PRIORITY": "9990",` + "\n" + `            "PACKET_ACTION": "FORWARD",` + "\n" + `            "IP_TYPE": "IPV6ANY",` + "\n" + `            "IP_PROTOCOL": "58"`},
			[]string{`"IP_PROTOCOL": "1"`, `"type": "L3"`}},
	} {
		t.Run(string(c.plat), func(t *testing.T) {
			f, d := aclFabric(c.plat, v6Rule(10, "icmp"), v6Rule(20, "ip"))
			o, err := r.Render(f, d)
			if err != nil {
				t.Fatal(err)
			}
			text := string(o.Text)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("render lacks %q:\n%s", w, text)
				}
			}
			for _, n := range c.not {
				if strings.Contains(text, n) {
					t.Errorf("render has %q:\n%s", n, text)
				}
			}
		})
	}
}

// TestBothFamiliesICMP: a prefix-less icmp rule in an ACL that also has an
// IPv6 rule goes into both lists on EOS, NX-OS and Junos, each in its own
// words (Junos binds the filter under both families); SONiC, whose one
// ACL_RULE row holds one protocol number, refuses
// it and says how to fix it, and NVUE refuses the mixed ACL.
func TestBothFamiliesICMP(t *testing.T) {
	r := newTestRenderer(t)
	both := func() []*schema.ACLRule {
		return []*schema.ACLRule{{Seq: 10, Family: "any", Protocol: set("icmp")}, v6Rule(20, "ip")}
	}
	for _, c := range []struct {
		plat    schema.Platform
		want    []string
		refused string
	}{
		{plat: schema.AristaEOS, want: []string{"ip access-list edge\n   10 permit icmp any any\n", "ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"}},
		{plat: schema.CiscoNXOS, want: []string{"ip access-list edge\n  10 permit icmp any any\n", "ipv6 access-list edge\n  10 permit icmp any any\n  20 permit ipv6 any any\n"}},
		{plat: schema.JuniperJunos, want: []string{"family inet filter edge term 10 from protocol icmp\n", "family inet6 filter edge term 10 from next-header icmp6\n",
			// bound under both families, each to its own filter
			"set interfaces et-0/0/0 unit 0 family inet filter input edge\nset interfaces et-0/0/0 unit 0 family inet6 filter input edge\n"}},
		{plat: schema.SONiC, refused: `set family = "ipv4" or "ipv6" on the rule`},
		{plat: schema.NvidiaCumulus, refused: "mixing IPv4 and IPv6 rules"},
	} {
		t.Run(string(c.plat), func(t *testing.T) {
			f, d := aclFabric(c.plat, both()...)
			o, err := r.Render(f, d)
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) || len(view.AllUnsupported(err)) != 1 {
					t.Fatalf("render error %v, want one refusal saying %q", err, c.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(o.Text), w) {
					t.Errorf("render lacks %q:\n%s", w, o.Text)
				}
			}
		})
	}
}
