# Switches: an addressed port with a hostile description and ACLs both
# ways, an IPv6 port, an unnumbered routed port, an L2 port at 25G.
device "eos1" {
  kind     = "leaf"
  platform = "arista_eos"

  port "Ethernet1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet3/1" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet4" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}
