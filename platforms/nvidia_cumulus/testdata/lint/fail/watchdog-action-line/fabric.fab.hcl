# A watchdog action the platform cannot take is refused at the profile's
# action line, the value to change, not at the policy's pfc_watchdog
# attachment (named as related).

# fabricgen:ignore WDG005 Cumulus (no restoration knob) restores a queue when its storm ends
pfc_watchdog "odd" {
  detection     = "200ms"
  poll_interval = "100ms"
  action        = "forward" # want PLTxxx "cannot express pfc_watchdog odd action forward"
}

qos_policy "odd" {
  pfc_watchdog = pfc_watchdog.odd
}

device "x1" {
  kind       = "leaf"
  platform   = "nvidia_cumulus"
  qos_policy = qos_policy.odd

  port "swp1" {
    speed = "100G"
    fec   = "rs"
  }
}
