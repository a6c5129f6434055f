# Seed case 1: a 100 Gb/s RoCEv2 storage cluster.
# PFC on priority 3 only, ETS 30/0/0/50/0/0/20/0, ECN on the RoCE queue,
# and the NICs' `mlnx_qos --pfc 0,0,0,1,0,0,0,0` derived from the same classes.

fabric "roce-storage" {
  description = "100G RoCEv2 storage cluster (seed case 1)"
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
  weight    = 30
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

traffic_class "storage-mgmt" {
  role      = "control"
  dscp      = [16]
  priority  = 6
  queue     = 6
  scheduler = "dwrr"
  weight    = 20
}

traffic_class "cnp" {
  role      = "cnp"
  dscp      = [56]
  priority  = 7
  queue     = 7
  scheduler = "strict"
}

qos_policy "lossless" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.storage-mgmt, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
}

# Hosts run a 4200-byte MTU: RDMA path MTU 4096 needs at least 4192.
qos_policy "host" {
  mtu = 4200
}

role "nic" {
  qos_policy = qos_policy.host
}
