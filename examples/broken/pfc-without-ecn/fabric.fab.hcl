# examples/broken/pfc-without-ecn: PFC without ECN
# Seed case: §4.2 常见误区: enabling PFC alone is not enough; without ECN, incast spreads pause frames until throughput collapses.
# Two GPU subnets (10.0.1.0/24 on leaf1, 10.0.2.0/24 on leaf2) routed through core1.
# `fabricgen lint` must report ECN004; everything else matches a correct fabric.

fabric "broken-pfc-without-ecn" {
  description = "PFC without ECN"
  qos_policy  = qos_policy.lossless
}

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
}

pfc_watchdog "standard" {
  detection     = "200ms"
  restoration   = "200ms"
  poll_interval = "100ms"
  action        = "drop"
}

traffic_class "default" {
  role      = "default"
  dscp      = [0]
  priority  = 0
  queue     = 0
  scheduler = "dwrr"
  weight    = 50
}

traffic_class "roce" {
  role      = "roce"
  dscp      = [26]
  priority  = 3
  queue     = 3
  lossless  = true
  scheduler = "dwrr"
  weight    = 50
}

traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  queue     = 6
  scheduler = "strict"
}

qos_policy "lossless" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
}

# Hosts: RDMA path MTU 4096 needs a netdev MTU of at least 4192.
qos_policy "host" {
  mtu = 4200
}

role "nic" {
  qos_policy = qos_policy.host
}


# RoCE classification on routed hops. CNPs are UDP 4791 too, so they are
# matched first by DSCP and keep it.
acl "roce-mark" {
  rule {
    seq      = 10
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    dscp     = 48
  }

  rule {
    seq      = 20
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    set_dscp = 26
  }
}

subnet "gpu-a" {
  prefix           = "10.0.1.0/24"
  gateway          = "leaf1"
  require_roce_acl = true
}

subnet "gpu-b" {
  prefix           = "10.0.2.0/24"
  gateway          = "leaf2"
  require_roce_acl = true
}

device "core1" {
  kind         = "core"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.10"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  port "Ethernet1" {
    speed = "100G"
    fec   = "rs"
    ip    = "10.255.0.0/31"
    acl_in = [acl.roce-mark]
  }

  port "Ethernet2" {
    speed = "100G"
    fec   = "rs"
    ip    = "10.255.0.2/31"
    acl_in = [acl.roce-mark]
  }
}

device "leaf1" {
  kind         = "leaf"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.11"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  port "Ethernet1" {
    speed = "100G"
    fec   = "rs"
  }

  port "Ethernet2" {
    speed = "100G"
    fec   = "rs"
  }

  port "Ethernet49" {
    speed = "100G"
    fec   = "rs"
    ip    = "10.255.0.1/31"
    acl_in = [acl.roce-mark]
  }
}

device "leaf2" {
  kind         = "leaf"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.12"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  port "Ethernet1" {
    speed = "100G"
    fec   = "rs"
  }

  port "Ethernet2" {
    speed = "100G"
    fec   = "rs"
  }

  port "Ethernet49" {
    speed = "100G"
    fec   = "rs"
    ip    = "10.255.0.3/31"
    acl_in = [acl.roce-mark]
  }
}


device "gpu01-cx6" {
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = "gpu01"
  mgmt_address = "192.0.2.101"

  credentials {
    username = "root"
    key_file = "~/.ssh/fabricgen_ed25519"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }

  port "eth0" {
    speed = "100G"
    ip    = "10.0.1.11/24"
  }
}

device "gpu02-cx6" {
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = "gpu02"
  mgmt_address = "192.0.2.102"

  credentials {
    username = "root"
    key_file = "~/.ssh/fabricgen_ed25519"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }

  port "eth0" {
    speed = "100G"
    ip    = "10.0.1.12/24"
  }
}

device "gpu03-cx6" {
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = "gpu03"
  mgmt_address = "192.0.2.103"

  credentials {
    username = "root"
    key_file = "~/.ssh/fabricgen_ed25519"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }

  port "eth0" {
    speed = "100G"
    ip    = "10.0.2.11/24"
  }
}

device "gpu04-cx6" {
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = "gpu04"
  mgmt_address = "192.0.2.104"

  credentials {
    username = "root"
    key_file = "~/.ssh/fabricgen_ed25519"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }

  port "eth0" {
    speed = "100G"
    ip    = "10.0.2.12/24"
  }
}

link "uplink" {
  for_each     = { leaf1 = "Ethernet1", leaf2 = "Ethernet2" }
  a            = "${each.key}:Ethernet49"
  b            = "core1:${each.value}"
  cable_length = "30m"
  media        = "fiber"
}

link "host" {
  for_each     = { gpu01 = "leaf1:Ethernet1", gpu02 = "leaf1:Ethernet2", gpu03 = "leaf2:Ethernet1", gpu04 = "leaf2:Ethernet2" }
  a            = "${each.key}-cx6:eth0"
  b            = each.value
  cable_length = "3m"
  media        = "dac"
}
