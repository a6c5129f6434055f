device "cl1" {
  kind     = "leaf"
  platform = "nvidia_cumulus"

  port "swp1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.nvue-v4]
    acl_out     = [acl.nvue-v4]
  }
  port "swp2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "swp3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.nvue-v4]
  }
  port "swp4s0" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
  port "swp5" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.9.2.0/31"
  }
}

device "cl515" {
  kind     = "leaf"
  platform = "nvidia_cumulus"
  os_version = "5.15"

  port "swp1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.nvue-v4]
    acl_out     = [acl.nvue-v4]
  }
  port "swp2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "swp3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.nvue-v4]
  }
  port "swp4s0" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
  port "swp5" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.9.2.1/31"
  }
}

# A long fabric cable between the two devices: the headroom of a 100m run.
link "long-run" {
  a            = "cl1:swp5"
  b            = "cl515:swp5"
  cable_length = "100m"
  media        = "fiber"
}
