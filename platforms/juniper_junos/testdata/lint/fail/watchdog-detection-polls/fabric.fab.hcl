# A detection that is no whole number of polls is refused at the
# profile's detection line (poll_interval and the attachment related).

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

pfc_watchdog "odd" {
  detection     = "250ms" # want PLTxxx "cannot express pfc_watchdog odd detection 250 ms"
  restoration   = "200ms"
  poll_interval = "100ms"
  action        = "drop"
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
