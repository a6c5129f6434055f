device "sonic1" {
  kind     = "leaf"
  platform = "sonic"
  asic     = "mellanox"

  port "Ethernet0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.edge-v4]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet8" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet16" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet24" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "sonic2106" {
  kind     = "leaf"
  platform = "sonic"
  asic       = "broadcom"
  os_version = "202106"

  port "Ethernet0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.edge-v4]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet8" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet16" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet24" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}
