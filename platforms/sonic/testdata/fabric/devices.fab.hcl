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
  port "Ethernet32" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.9.2.0/31"
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
  port "Ethernet32" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.9.2.1/31"
  }
}

# A long fabric cable between the two devices: the headroom of a 100m run.
link "long-run" {
  a            = "sonic1:Ethernet32"
  b            = "sonic2106:Ethernet32"
  cable_length = "100m"
  media        = "fiber"
}

# A release before 202012 (no buffer_model) on another ASIC.
device "sonic201911" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "marvell"
  os_version = "201911"

  port "Ethernet0" {
    speed = "100G"
    fec   = "rs"
    ip     = "10.9.3.0/31"
    acl_in = [acl.edge-v4]
  }
}

# A switch whose hardware SKU is known: CABLE_LENGTH names the SKU's own
# pg_profile_lookup.ini row and the lossless profile takes that row's
# values (Dell Z9332f, Broadcom TH3: xoff 178562, xon_offset 2540).
device "sonic3" {
  kind     = "leaf"
  platform = "sonic"
  asic     = "broadcom"
  hwsku    = "DellEMC-Z9332f-O32"

  port "Ethernet0" {
    speed  = "400G"
    fec    = "rs"
    acl_in = [acl.edge-v4]
  }
}
