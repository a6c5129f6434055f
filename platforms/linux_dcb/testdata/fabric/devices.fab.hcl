device "dcb1" {
  kind     = "nic"
  platform = "linux_dcb"
  driver   = "ice"
  rdma {
    tos = 106
  }
  port "eth0" {
    speed = "100G"
  }
  port "eth1" {
    speed = "100G"
  }
}

device "dcb2" {
  kind     = "nic"
  platform = "linux_dcb"
  driver     = "bnxt_en"
  qos_policy = qos_policy.host-dcb-shaped
  rdma {
    tos = 106
  }
  port "enp1s0f0" {
    speed = "100G"
  }
}

device "dcb3" {
  kind     = "nic"
  platform = "linux_dcb"
  qos_policy = qos_policy.host-dcb-pause
  port "eth0" {
    speed = "100G"
  }
}

device "dcb4" {
  kind     = "nic"
  platform = "linux_dcb"
  rdma {
    tos = 106
  }
  port "e.x-y@z_1" {
    speed = "100G"
  }
  port "_a.b-c@d" {
    speed = "100G"
  }
}
