package aristaeos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// aclFabric is the tiny fabric with one ACL of rules bound inbound on its
// routed port.
func aclFabric(rules ...*schema.ACLRule) (*schema.Fabric, *schema.Device) {
	f, d := rendertest.TinyFabric(Platform(), "Ethernet1")
	for _, r := range rules {
		r.Action = rendertest.Set(schema.ActionPermit)
	}
	a := &schema.ACL{Name: "edge", Rules: rules}
	f.ACLs = append(f.ACLs, a)
	d.Ports[0].ACLIn = []*schema.ACL{a}
	d.Ports[0].Routed = rendertest.Set(true)
	f.Reindex()
	return f, d
}

func v6Rule(seq int, proto string) *schema.ACLRule {
	return &schema.ACLRule{Seq: seq, Family: "ipv6", Protocol: rendertest.Set(proto)}
}

// TestIPv6ACLWords: a rule of family ipv6 with protocol ip or icmp is
// written in this platform's IPv6 words, never in the IPv4 ones (moved
// from templates/aclfamily_test.go).
func TestIPv6ACLWords(t *testing.T) {
	want := []string{"ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"}
	not := []string{"permit icmp any", "permit ip any"}
	f, d := aclFabric(v6Rule(10, "icmp"), v6Rule(20, "ip"))
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("render lacks %q:\n%s", w, text)
		}
	}
	for _, n := range not {
		if strings.Contains(text, n) {
			t.Errorf("render has %q:\n%s", n, text)
		}
	}
}

// TestBothFamiliesICMP: a prefix-less icmp rule in an ACL that also has an
// IPv6 rule goes into both families in this platform's words, or is
// refused with the fix (moved from templates/aclfamily_test.go).
func TestBothFamiliesICMP(t *testing.T) {
	c := struct {
		want    []string
		refused string
	}{want: []string{"ip access-list edge\n   10 permit icmp any any\n", "ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"}}
	f, d := aclFabric(&schema.ACLRule{Seq: 10, Family: "any", Protocol: rendertest.Set("icmp")}, v6Rule(20, "ip"))
	text, err := rendertest.Render(t, Platform(), f, d)
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
		if !strings.Contains(text, w) {
			t.Errorf("render lacks %q:\n%s", w, text)
		}
	}
}
