# Parametric Clos: 2,112 switches, 65,536 NICs by default (leaf-spine mesh, routed unnumbered uplinks).
variable "spines" { default = 64 }
variable "leaves" { default = 2048 }
variable "nics_per_leaf" { default = 32 }
fabric "scale" { qos_policy = qos_policy.fabric }
qos_policy "fabric" { # RoCE: DSCP 26 -> priority 3, lossless + ECN, ETS 50/50; CNP: 48 -> 6, strict
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
}
qos_policy "host" { mtu = 4200 }
role "nic" { qos_policy = qos_policy.host }
traffic_class "default" { # every DSCP no other class names (default_priority)
  role     = "default"
  priority = 0
  weight   = 50
}
traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  lossless = true
  ecn      = ecn_profile.roce
  weight   = 50
}
traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  scheduler = "strict"
}
ecn_profile "roce" {
  min_threshold = "150KB"
  max_threshold = "1500KB"
}
pfc_watchdog "standard" { detection = "200ms" } # restoration: each platform's default
locals {
  spines = [for i in range(var.spines) : format("spine%02d", i + 1)]
  leaves = [for i in range(var.leaves) : format("leaf%04d", i + 1)]
  # Per-NIC names, peers and platforms built once, so NIC blocks only index them.
  host_ids      = [for i in range(var.nics_per_leaf) : format("%02d", i + 1)]
  nics          = flatten([for l in local.leaves : [for h in local.host_ids : "${l}-nic${h}"]])
  nic_peers     = flatten([for l in local.leaves : [for p in local.host_ports : "${l}:${p}"]])
  host_plats    = [for i in range(var.nics_per_leaf) : ["nvidia_mlnx", "linux_dcb"][i % 2]]
  nic_platforms = flatten([for l in local.leaves : local.host_plats])
  host_ports    = [for i in range(var.nics_per_leaf) : "Ethernet${i + 1}"]
  up_ports      = [for i in range(var.spines) : "Ethernet${var.nics_per_leaf + i + 1}"]
  down_ports    = [for i in range(var.leaves) : "Ethernet${i + 1}"]
}
device "spine" {
  for_each = toset(local.spines)
  kind     = "spine"
  platform = "arista_eos"
  ports {
    names  = local.down_ports
    speed  = "400G"
    routed = true
  }
}
device "leaf" {
  count    = var.leaves
  name     = local.leaves[count.index]
  kind     = "leaf"
  platform = ["arista_eos", "sonic"][count.index % 2] # both name ports EthernetN
  asic     = count.index % 2 == 1 ? "mellanox" : null
  ports {
    names = local.host_ports
    speed = "400G"
  }
  ports {
    names  = local.up_ports
    speed  = "400G"
    routed = true
  }
}
device "nic" {
  count    = length(local.nics)
  name     = local.nics[count.index]
  kind     = "nic"
  platform = local.nic_platforms[count.index]
  rdma { # DSCP 26 + ECT(0); CNP marking and DCQCN stay at the NIC defaults (linux_dcb has no knob for them)
    tos      = 106
    path_mtu = 4096
  }
  port "eth0" {
    speed        = "400G"
    peer         = local.nic_peers[count.index]
    cable_length = "3m"
  }
}
mesh "fabric" {
  lower        = local.leaves
  lower_ports  = local.up_ports
  upper        = local.spines
  upper_ports  = local.down_ports
  cable_length = "50m"
}
