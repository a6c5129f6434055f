# Hosts: two ports each (the first port sets up configfs on linux_dcb),
# every driver and trust variant, a shaper, link pause.
device "mlnx1" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma {
    roce_mode    = "v2"
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }
  port "eth0" {
    speed = "100G"
  }
  port "ens1f1np1" {
    speed = "100G"
    mtu   = 9000
  }
}

device "mlnx2" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  qos_policy = qos_policy.host-pause
  port "eth0" {
    speed = "100G"
  }
}

device "mlnx3" {
  kind       = "nic"
  platform   = "nvidia_mlnx"
  qos_policy = qos_policy.host-shaped
  port "ens2f0" {
    speed = "100G"
  }
}
