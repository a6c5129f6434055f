# The base of this folder's lint cases (testdata/lint/fail and pass): the
# QoS each case is linted with, the case adding its device x1 (and what the
# case changes). Lint finds nothing here but what the want markers say.

fabric "fx" {
  qos_policy = qos_policy.lossless
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

qos_policy "lossless" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9100
}

qos_policy "host" {
  mtu = 4200
}

role "nic" {
  qos_policy = qos_policy.host
}
