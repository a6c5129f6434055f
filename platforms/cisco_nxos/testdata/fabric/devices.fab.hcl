device "nxos1" {
  kind     = "leaf"
  platform = "cisco_nxos"

  port "Ethernet1/1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a, b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet1/2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet1/3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet1/5" {
    speed = "100G"
    fec   = "rs"
    ip    = "10.9.0.4/31"
  }
  port "Ethernet1/4/1" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
  # A lossy port on a lossless switch: "priority-flow-control mode off"
  # (mode auto, the default, may let DCBX turn the no-drop class on).
  port "Ethernet1/6" {
    speed      = "100G"
    qos_policy = qos_policy.lossy-port
  }
}

qos_policy "lossy-port" {
  pfc_priorities = []
  pfc_watchdog   = "off"
}
