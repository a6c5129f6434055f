# A detection that is no whole number of polls is refused at the
# profile's detection line (poll_interval and the attachment related).

# fabricgen:ignore WDG005 Cumulus (no restoration knob) restores a queue when its storm ends
pfc_watchdog "odd" {
  detection     = "250ms" # want PLTxxx "cannot express pfc_watchdog odd detection 250 ms"
  poll_interval = "100ms"
  action        = "drop"
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
