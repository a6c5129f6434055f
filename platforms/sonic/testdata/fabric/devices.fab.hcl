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
  kind       = "leaf"
  platform   = "sonic"
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
    speed  = "100G"
    fec    = "rs"
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

# The dynamic buffer model (the default of mellanox images from 202012):
# the extra lossless priority group is BUFFER_PG "NULL", sized by buffermgrd.
device "sonic5" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "mellanox"
  qos_policy = qos_policy.lossless5

  port "Ethernet0" {
    speed  = "400G"
    fec    = "rs"
    acl_in = [acl.edge-v4]
  }
}

# The traditional model before 202205, whose buffermgrd makes only PGs 3-4
# lossless: the extra PG names buffermgrd's profile, written with the
# SKU's row so the reference holds in the same change.
device "sonic2106sku" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "broadcom"
  hwsku      = "DellEMC-Z9332f-O32"
  os_version = "202106"
  qos_policy = qos_policy.lossless5

  port "Ethernet0" {
    speed  = "400G"
    fec    = "rs"
    acl_in = [acl.edge-v4]
  }
}

# Headroom the intent sizes, in the traditional model.
device "sonic6" {
  kind         = "leaf"
  platform     = "sonic"
  asic         = "broadcom"
  buffer_model = "traditional"
  qos_policy   = qos_policy.sized

  port "Ethernet0" {
    speed  = "400G"
    fec    = "rs"
    acl_in = [acl.edge-v4]
  }
}
