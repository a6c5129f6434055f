package sonic_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

// aclFamily is this platform's words for the IP families of an ACL
// (moved from templates/aclfamily_test.go).
func aclFamily() platformtest.ACLFamily {
	return platformtest.ACLFamily{
		Port:        "Ethernet0",
		Prepare:     func(_ *schema.Fabric, d *schema.Device) { d.ASIC = rendertest.Set("broadcom") },
		IPv6Want:    []string{`"EDGE_IN|RULE_10": {` + "\n" + `            "PRIORITY": "9990",` + "\n" + `            "PACKET_ACTION": "FORWARD",` + "\n" + `            "IP_TYPE": "IPV6ANY",` + "\n" + `            "IP_PROTOCOL": "58"`},
		IPv6Not:     []string{`"IP_PROTOCOL": "1"`, `"type": "L3"`},
		BothRefused: `set family = "ipv4" or "ipv6" on the rule`,
	}
}

// TestIPv6ACLWords: a rule of family ipv6 with protocol ip or icmp is
// written in this platform's IPv6 words, never in the IPv4 ones.
func TestIPv6ACLWords(t *testing.T) { platformtest.CheckIPv6ACLWords(t, plat(), aclFamily()) }

// TestBothFamiliesICMP: a prefix-less icmp rule in an ACL that also has an
// IPv6 rule goes into both families in this platform's words, or is
// refused with the fix.
func TestBothFamiliesICMP(t *testing.T) { platformtest.CheckBothFamiliesICMP(t, plat(), aclFamily()) }
