# The lossless contract of examples/clos-400g (DSCP 26 -> priority 3 ->
# queue 3 with PFC, ECN and a 50% ETS share; CNP on DSCP 48 -> priority 6,
# strict; everything else on priority 0 with the other 50%), attached per
# device, plus the policies "a device's QoS policy swapped" swaps to.

fabric "matrix" {
  description = "push change matrix: clos-400g with 2 NICs per leaf and ACLs"
  qos_policy  = qos_policy.fabric
}

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
  mode            = "ecn"
}

pfc_watchdog "standard" {
  detection     = "200ms"
  poll_interval = "100ms"
  action        = "drop"
}

traffic_class "default" {
  role      = "default"
  dscp      = [0, 10]
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

# Hosts (attached per NIC): 4200 bytes carries RDMA path MTU 4096 (needs
# >= 4192); everything else comes from the fabric's policy.
qos_policy "host" {
  mtu = 4200
}

# What "a device's QoS policy swapped" attaches instead: a deeper ECN curve
# and a 40/60 split on the RoCE queue, a smaller MTU.
ecn_profile "deep" {
  min_threshold   = "300KB"
  max_threshold   = "3000KB"
  max_probability = 50
  min_fill_level  = 40
  max_fill_level  = 80
  mode            = "ecn"
}

qos_policy "fabric-alt" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_priorities   = [3]
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9000
  link_pause       = false

  queue "0" {
    weight = 40
  }

  queue "3" {
    ecn    = ecn_profile.deep
    weight = 60
  }
}

qos_policy "host-alt" {
  mtu = 4400

  queue "0" {
    weight = 40
  }

  queue "3" {
    weight = 60
  }
}
