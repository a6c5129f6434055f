package aristaeos_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
)

// aclFamily is this platform's words for the IP families of an ACL
// (moved from templates/aclfamily_test.go).
func aclFamily() platformtest.ACLFamily {
	return platformtest.ACLFamily{
		Port:     "Ethernet1",
		IPv6Want: []string{"ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"},
		IPv6Not:  []string{"permit icmp any", "permit ip any"},
		BothWant: []string{"ip access-list edge\n   10 permit icmp any any\n", "ipv6 access-list edge\n   10 permit icmpv6 any any\n   20 permit ipv6 any any\n"},
	}
}

// TestIPv6ACLWords: a rule of family ipv6 with protocol ip or icmp is
// written in this platform's IPv6 words, never in the IPv4 ones.
func TestIPv6ACLWords(t *testing.T) { platformtest.CheckIPv6ACLWords(t, plat(), aclFamily()) }

// TestBothFamiliesICMP: a prefix-less icmp rule in an ACL that also has an
// IPv6 rule goes into both families in this platform's words, or is
// refused with the fix.
func TestBothFamiliesICMP(t *testing.T) { platformtest.CheckBothFamiliesICMP(t, plat(), aclFamily()) }
