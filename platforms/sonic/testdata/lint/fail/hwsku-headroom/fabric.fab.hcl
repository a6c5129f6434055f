# The intent sizes the lossless profile itself, below the Dell Z9332f
# (Broadcom TH3) SKU's own pg_profile_lookup.ini row for 400G at 40 m
# (xoff 201,930 B): BUF001 measures it against the SKU's row, not a formula.

qos_policy "sized" {
  buffer {
    headroom          = "200KB"
    xoff              = "150KB" # want BUF001 "xoff 150 KB is below the 201930 B needed for 400G over 30m with MTU 9100 (the row of DellEMC-Z9332f-O32 pg_profile_lookup.ini, speed 400000 cable 40m)"
    xon               = "20KB"
    dynamic_threshold = -2
  }
}

device "x1" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "broadcom"
  hwsku      = "DellEMC-Z9332f-O32"
  qos_policy = qos_policy.sized

  port "Ethernet0" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.0.0.0/31"
  }
}

device "x2" {
  kind     = "spine"
  platform = "sonic"
  asic     = "broadcom"

  port "Ethernet0" {
    speed = "400G"
    fec   = "rs"
    ip    = "10.0.0.1/31"
  }
}

link "up" {
  a            = "x1:Ethernet0"
  b            = "x2:Ethernet0"
  cable_length = "30m"
}
