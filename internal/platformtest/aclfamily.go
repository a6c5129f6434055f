package platformtest

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// ACLFamily is one platform's words for the IP families of an ACL: what
// its folder's TestIPv6ACLWords and TestBothFamiliesICMP pass
// CheckIPv6ACLWords and CheckBothFamiliesICMP.
type ACLFamily struct {
	// Port is the name of the tiny fabric's one (routed) port.
	Port string
	// Prepare, when set, adjusts the tiny fabric before the ACL is bound
	// (what the platform needs beyond it, e.g. its asic).
	Prepare func(*schema.Fabric, *schema.Device)
	// IPv6Want are texts the render of an ipv6 icmp rule (seq 10) and an
	// ipv6 ip rule (seq 20) holds; IPv6Not are texts it must not hold
	// (the IPv4 words).
	IPv6Want, IPv6Not []string
	// BothWant are texts the render holds of a prefix-less icmp rule
	// (seq 10, family any) beside an ipv6 ip rule (seq 20); BothRefused,
	// when set, is the fix of the one refusal the platform answers it
	// with instead.
	BothWant    []string
	BothRefused string
}

// aclFabric is the tiny fabric of p with one ACL "edge" of rules bound
// inbound on its routed port.
func (c ACLFamily) aclFabric(p platform.Platform, rules ...*schema.ACLRule) (*schema.Fabric, *schema.Device) {
	f, d := rendertest.TinyFabric(p, c.Port)
	if c.Prepare != nil {
		c.Prepare(f, d)
	}
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

// CheckIPv6ACLWords checks that a rule of family ipv6 with protocol ip or
// icmp is written in p's IPv6 words (c.IPv6Want), never in the IPv4 ones
// (c.IPv6Not).
func CheckIPv6ACLWords(t *testing.T, p platform.Platform, c ACLFamily) {
	t.Helper()
	f, d := c.aclFabric(p, v6Rule(10, "icmp"), v6Rule(20, "ip"))
	text, err := rendertest.Render(t, p, f, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range c.IPv6Want {
		if !strings.Contains(text, w) {
			t.Errorf("render lacks %q:\n%s", w, text)
		}
	}
	for _, n := range c.IPv6Not {
		if strings.Contains(text, n) {
			t.Errorf("render has %q:\n%s", n, text)
		}
	}
}

// CheckBothFamiliesICMP checks that a prefix-less icmp rule in an ACL
// that also has an IPv6 rule goes into both families in p's words
// (c.BothWant), or is refused with the fix (c.BothRefused).
func CheckBothFamiliesICMP(t *testing.T, p platform.Platform, c ACLFamily) {
	t.Helper()
	f, d := c.aclFabric(p, &schema.ACLRule{Seq: 10, Family: "any", Protocol: rendertest.Set("icmp")}, v6Rule(20, "ip"))
	text, err := rendertest.Render(t, p, f, d)
	if c.BothRefused != "" {
		if err == nil || !strings.Contains(err.Error(), c.BothRefused) || len(view.AllUnsupported(err)) != 1 {
			t.Fatalf("render error %v, want one refusal saying %q", err, c.BothRefused)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range c.BothWant {
		if !strings.Contains(text, w) {
			t.Errorf("render lacks %q:\n%s", w, text)
		}
	}
}
