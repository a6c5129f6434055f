# A Dell Z9332f (Broadcom TH3) has pg_profile_lookup.ini rows at 100G and
# 400G only: buffermgrd creates no lossless priority group for a 25G port,
# so the lossless class would be lossy there. The refusal points at the
# port's speed (no link: the cable length is SONiC's default).

device "x1" {
  kind     = "leaf"
  platform = "sonic"
  asic     = "broadcom"
  hwsku    = "DellEMC-Z9332f-O32"

  port "Ethernet0" { # want PLTxxx "cannot express cable length 5m at speed 25000 on lossless port Ethernet0"
    speed = "25G"
  }
}
