# A watchdog action the platform cannot take is refused at the profile's
# action line, the value to change, not at the policy's pfc_watchdog
# attachment (named as related).

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

pfc_watchdog "odd" {
  detection     = "200ms"
  restoration   = "200ms"
  poll_interval = "100ms"
  action        = "forward" # want PLTxxx "cannot express pfc_watchdog odd action forward"
}

qos_policy "odd" {
  pfc_watchdog = pfc_watchdog.odd
}

device "x1" {
  kind       = "leaf"
  platform   = "juniper_junos"
  qos_policy = qos_policy.odd

  port "et-0/0/0" {
    speed = "100G"
  }
}
