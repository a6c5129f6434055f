# A small 400G Clos: 2 spines, 4 leaves, 32 NICs, one leaf per switch
# platform and both NIC platforms, so every template set renders the same
# lossless contract: DSCP 26 -> priority 3 -> queue 3 with PFC, ECN and a
# 50% ETS share; CNP on DSCP 48 -> priority 6, strict; everything else on
# priority 0 with the other 50%.

fabric "clos-400g" {
  description = "2 spines, 4 leaves, 32 x 400G NICs, mixed platforms"
  qos_policy  = qos_policy.fabric
}

# NVIDIA's 150 KB / 1500 KB curve; Junos drop profiles take fill levels in
# percent of the queue buffer instead (55-90 %, as Juniper's DCQCN configlet).
ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
  mode            = "ecn"
}

# Detect a storm after 200 ms (SONiC's default) and drop the stormed queue.
# No restoration time: every platform that takes one gets fabricgen's 200 ms.
# fabricgen:ignore WDG005 Cumulus (no restoration knob) restores a queue when its storm ends
pfc_watchdog "standard" {
  detection     = "200ms"
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
  ecn       = ecn_profile.roce
  scheduler = "dwrr" # ETS: a guaranteed share, lent out when idle
  weight    = 50     # half of every port for RoCE
}

traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  queue     = 6
  scheduler = "strict"
}

qos_policy "fabric" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_priorities   = [3]
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
  link_pause       = false
}

# Hosts: 4200 bytes carries RDMA path MTU 4096 (needs >= 4192).
qos_policy "host" {
  mtu = 4200
}

role "nic" {
  qos_policy = qos_policy.host
}
