package push

import (
	"strings"
	"testing"
)

// guard6 is an IPv6 egress ACL for the matrix fixture's fabric links:
// addresses, ICMPv6 and "any protocol", the words that differ by family.
const guard6 = `acl "guard6" {
  rule {
    seq        = 10
    action     = "deny"
    protocol   = "udp"
    dst_prefix = "2001:db8:66::/48"
    dst_port   = 5000
  }
  rule {
    seq      = 20
    action   = "permit"
    protocol = "icmp"
    family   = "ipv6"
  }
  rule {
    seq      = 30
    action   = "permit"
    protocol = "ip"
    family   = "ipv6"
  }
}
`

// TestIPv6ACLApplied: an IPv6 ACL bound outbound on the fabric links
// reaches every switch in its platform's IPv6 words through plan and apply
// (before this test, EOS and NX-OS rendered it but push managed neither
// ipv6 access-list nor its binding, so apply silently left it out), the
// next plan is empty, and dropping it from the intent removes it.
func TestIPv6ACLApplied(t *testing.T) {
	for _, md := range matrixDevices(t) {
		if md.host {
			continue
		}
		t.Run(string(md.platform), func(t *testing.T) {
			base := loadMatrixIntent(t, md, nil)
			with := loadMatrixIntent(t, md, []fixtureEdit{
				{file: "guard6.fab.hcl", new: guard6},
				{file: "devices.fab.hcl", old: "      acl_in      = [acl.guard]\n", new: "      acl_in      = [acl.guard]\n      acl_out     = [acl.guard6]\n"},
			})
			// What the render and the device hold: the folder's matrix.json.
			want := md.data.IPv6ACL
			if err := with.renderErr[md.name]; err != nil {
				t.Fatalf("%s does not render the IPv6 ACL: %v", md.name, err)
			}
			for _, w := range want {
				if !strings.Contains(with.rendered[md.name], w) && !strings.Contains(with.rendered[md.name], strings.TrimPrefix(w, " ")) {
					t.Fatalf("the render lacks %q:\n%s", w, with.rendered[md.name])
				}
			}
			r := newMatrixRig(t, md, md.brownfield(t))
			r.converge(t, base, "base")
			r.converge(t, with, "IPv6 ACL added")
			got := r.state()
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("after apply the device lacks %q:\n%s", w, got)
				}
			}
			r.converge(t, base, "IPv6 ACL dropped")
			if got := r.state(); strings.Contains(got, "guard6") || strings.Contains(got, "GUARD6") {
				t.Errorf("after dropping it the device still has guard6:\n%s", got)
			}
		})
	}
}
