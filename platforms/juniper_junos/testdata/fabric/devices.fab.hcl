device "junos1" {
  kind     = "leaf"
  platform = "juniper_junos"
  model    = "mx304"

  port "et-0/0/0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "et-0/0/1" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "et-0/0/2" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "xe-0/0/3:1" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

# A QFX5000 leaf: QFX's default lossless class no-loss shares queue 4 with
# the lossy prio4 that DSCP 32 reaches (redeclared lossy), and the queues'
# shapers replace the strict-high default cap and shape a DWRR queue. The
# priorities no classifier reaches (1, 2, 5, 7) get no forwarding class.
device "junos2" {
  kind       = "leaf"
  platform   = "juniper_junos"
  model      = "qfx5120-48y"
  qos_policy = qos_policy.junos-shaped

  port "et-0/0/0" {
    speed  = "100G"
    ip     = "10.9.1.0/31"
    acl_in = [acl.edge-v4]
  }
}
