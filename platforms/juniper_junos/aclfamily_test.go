package juniperjunos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/schema"
)

// aclFamily is this platform's words for the IP families of an ACL
// (moved from templates/aclfamily_test.go).
func aclFamily() platformtest.ACLFamily {
	return platformtest.ACLFamily{
		Port: "et-0/0/0",
		Prepare: func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{} // Junos takes fill levels
		},
		IPv6Want: []string{"set firewall family inet6 filter edge term 10 from next-header icmp6\n"},
		IPv6Not:  []string{"next-header icmp\n", "family inet filter edge"},
		BothWant: []string{"family inet filter edge term 10 from protocol icmp\n", "family inet6 filter edge term 10 from next-header icmp6\n",
			// bound under both families, each to its own filter
			"set interfaces et-0/0/0 unit 0 family inet filter input edge\nset interfaces et-0/0/0 unit 0 family inet6 filter input edge\n"},
	}
}

// TestIPv6ACLWords: a rule of family ipv6 with protocol ip or icmp is
// written in this platform's IPv6 words, never in the IPv4 ones.
func TestIPv6ACLWords(t *testing.T) { platformtest.CheckIPv6ACLWords(t, plat(), aclFamily()) }

// TestBothFamiliesICMP: a prefix-less icmp rule in an ACL that also has an
// IPv6 rule goes into both families in this platform's words, or is
// refused with the fix.
func TestBothFamiliesICMP(t *testing.T) { platformtest.CheckBothFamiliesICMP(t, plat(), aclFamily()) }
