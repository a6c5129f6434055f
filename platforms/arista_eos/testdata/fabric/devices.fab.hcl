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

# An EOS release before 4.22 (400G ports are "speed 400g") on a hop that
# trusts nothing ("no qos trust").
qos_policy "untrusted" {
  trust = "none"
}

device "eos421" {
  kind       = "core"
  platform   = "arista_eos"
  os_version = "4.21.3F"
  qos_policy = qos_policy.untrusted

  port "Ethernet1/1" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.9.1.0/31"
  }
}
