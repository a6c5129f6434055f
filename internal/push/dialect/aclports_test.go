package dialect

import "testing"

// TestCanonicalACLPorts: port names in tcp and udp ACL entries become
// numbers (every name of a list, both sides, ranges), nothing else changes:
// not an icmp entry, not a word that is no port, not a line that is no
// entry, and a line already in numbers is returned as it is.
func TestCanonicalACLPorts(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"20 permit tcp any any eq bgp", "20 permit tcp any any eq 179"},
		{"10 permit tcp 10.16.2.2/32 eq www any", "10 permit tcp 10.16.2.2/32 eq 80 any"},
		{"10 permit udp any host 100.64.21.2 eq isakmp non500-isakmp", "10 permit udp any host 100.64.21.2 eq 500 4500"},
		{"30 permit udp any any eq bfd ttl eq 255", "30 permit udp any any eq 3784 ttl eq 255"},
		{"40 deny tcp any range ftp-data ftp any eq ssh dscp 26", "40 deny tcp any range 20 21 any eq 22 dscp 26"},
		{"permit tcp any any eq telnet", "permit tcp any any eq 23"},
		{"50 permit udp any any gt 1023", "50 permit udp any any gt 1023"},
		{"20 permit tcp any any eq 179", "20 permit tcp any any eq 179"},
		{"10 permit icmp any any echo", "10 permit icmp any any echo"},
		{"10 permit ip any any", "10 permit ip any any"},
		{"20 remark eq www", "20 remark eq www"},
		{"description eq bgp", "description eq bgp"},
		{"10 permit tcp any any eq unknown-name", "10 permit tcp any any eq unknown-name"},
		{"", ""},
	} {
		if got := CanonicalACLPorts(c.in); got != c.want {
			t.Errorf("CanonicalACLPorts(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := CanonicalACLPorts(c.want); again != c.want {
			t.Errorf("not idempotent on %q: %q", c.want, again)
		}
	}
}
