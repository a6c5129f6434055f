# Seed case 2: GPU nodes in two subnets, routed through a core switch.
#
# Cross-subnet RDMA ran at half speed because the core switch had no QoS
# policy for RoCE: packets arrived with DSCP 0 and shared the best-effort
# queue with storage traffic. Here the classification is one contract, end
# to end: NICs mark DSCP 46 (EF, ToS 186 = 46 << 2 | ECT(0)), an ACL on every
# switch port matches UDP 4791 and (re)sets DSCP 46, and every hop trusts
# DSCP, maps 46 to lossless priority 5 with PFC and ECN, and guarantees the
# class 60% of the link.

fabric "ai-training" {
  description = "AI training cluster: two GPU subnets routed through a core switch (seed case 2)"
  qos_policy  = qos_policy.lossless
}

# NVIDIA's default marking curve for 100G RoCE queues.
ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
}

pfc_watchdog "standard" {
  detection     = "200ms"
  restoration   = "400ms"
  poll_interval = "100ms"
  action        = "drop"
}

traffic_class "best-effort" {
  role      = "default"
  dscp      = [0]
  priority  = 0
  queue     = 0
  scheduler = "dwrr"
  weight    = 40
}

# RDMA data: EF (46) as the seed's fix sets it; priority 5 = 46 >> 3, the
# priority a ConnectX NIC derives from the DSCP by default.
traffic_class "roce" {
  role      = "roce"
  dscp      = [46]
  priority  = 5
  queue     = 5
  lossless  = true
  ecn       = ecn_profile.roce
  scheduler = "dwrr"
  weight    = 60
}

# Congestion notifications: their own DSCP and a strict queue, never paused.
traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  queue     = 6
  scheduler = "strict"
}

qos_policy "lossless" {
  trust            = "dscp"
  classes          = [traffic_class.best-effort, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
  link_pause       = false
}

# Hosts: RDMA path MTU 4096 needs a netdev MTU of at least 4192.
qos_policy "host" {
  mtu = 4200
}

role "nic" {
  qos_policy = qos_policy.host
}
