# The reader round trip's per-port case: one Arista EOS leaf whose ports
# treat the RoCE traffic differently. Ethernet1 runs the fabric policy
# (priority 3 lossless, ECN on queue 3), Ethernet2 a lossy one (no PFC,
# no ECN on queue 3). Each port must read back as its own policy says,
# from the render and from the lab. (A port moving priority 3 to another
# queue is refused by the schema: EOS's qos map is switch-wide.)

fabric "perport" {
  description = "per-port queue treatment on one EOS device"
  qos_policy  = qos_policy.lossless
}

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  mode            = "ecn"
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
  scheduler = "dwrr"
  weight    = 50
}

traffic_class "roce-lossy" {
  role      = "roce"
  dscp      = [26]
  priority  = 3
  queue     = 3
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
  pfc_priorities   = [3]
  mtu              = 9214
  link_pause       = false
}

qos_policy "lossy" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce-lossy, traffic_class.cnp]
  default_priority = 0
  pfc_priorities   = []
  mtu              = 9214
  link_pause       = false
}

device "eos1" {
  kind     = "leaf"
  platform = "arista_eos"

  port "Ethernet1" {
    speed = "400G"
  }
  port "Ethernet2" {
    speed      = "400G"
    qos_policy = qos_policy.lossy
  }
}
