# Parametric two-tier Clos for benchmarks, every leaf wired to every spine, a routed /31 on every link.
# Defaults: 64 spines + 2,048 leaves = 2,112 switches, 65,536 NICs. Resize with -var leaves=512.
variable "spines" { default = 64 }
variable "leaves" { default = 2048 }
variable "nics_per_leaf" { default = 32 }
# QoS: RoCE on DSCP 26 -> priority 3, lossless + ECN, ETS 50/50; CNP on 48 -> 6, strict.
fabric "scale" { qos_policy = qos_policy.fabric }
qos_policy "fabric" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9216
}
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
pfc_watchdog "standard" {
  detection   = "200ms"
  restoration = "200ms"
}
device "spine" {
  for_each = { for i in range(var.spines) : format("spine%02d", i + 1) => i }
  kind     = "spine"
  platform = "arista_eos"
  dynamic "port" {
    for_each = range(var.leaves)
    labels   = ["Ethernet${port.value + 1}"]
    content {
      speed = "400G"
      ip    = "${cidrhost(cidrsubnet("100.64.0.0/10", 21, port.value * var.spines + each.value), 0)}/31"
    }
  }
}
device "leaf" {
  for_each = { for i in range(var.leaves) : format("leaf%04d", i + 1) => i }
  kind     = "leaf"
  platform = ["arista_eos", "cisco_nxos", "sonic", "nvidia_cumulus"][each.value % 4]
  dynamic "port" { # port P (0-based) faces NIC (leaf * nics_per_leaf + P), then spine (P - nics_per_leaf)
    for_each = range(var.nics_per_leaf + var.spines)
    labels   = ["port${port.value + 1}"]
    content {
      speed = "400G"
      ip = (port.value < var.nics_per_leaf
        ? "${cidrhost(cidrsubnet("10.0.0.0/8", 23, each.value * var.nics_per_leaf + port.value), 0)}/31"
      : "${cidrhost(cidrsubnet("100.64.0.0/10", 21, each.value * var.spines + port.value - var.nics_per_leaf), 1)}/31")
    }
  }
}
device "nic" {
  count    = var.leaves * var.nics_per_leaf
  name     = format("nic%05d", count.index + 1)
  kind     = "nic"
  platform = count.index % 2 == 0 ? "nvidia_mlnx" : "linux_dcb"
  rdma {
    tos          = 106
    path_mtu     = 4096
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }
  port "eth0" {
    speed = "400G"
    mtu   = 4200 # RDMA path MTU 4096 needs >= 4192
    ip    = "${cidrhost(cidrsubnet("10.0.0.0/8", 23, count.index), 1)}/31"
  }
}
link "host" {
  count        = var.leaves * var.nics_per_leaf
  a            = format("nic%05d:eth0", count.index + 1)
  b            = format("leaf%04d:port%d", floor(count.index / var.nics_per_leaf) + 1, count.index % var.nics_per_leaf + 1)
  cable_length = "3m"
}
link "fabric" {
  count        = var.leaves * var.spines
  a            = format("leaf%04d:port%d", floor(count.index / var.spines) + 1, var.nics_per_leaf + count.index % var.spines + 1)
  b            = format("spine%02d:Ethernet%d", count.index % var.spines + 1, floor(count.index / var.spines) + 1)
  cable_length = "50m"
}
