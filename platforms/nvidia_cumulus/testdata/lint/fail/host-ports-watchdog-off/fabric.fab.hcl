# The watchdog removed from x1's host ports (a port policy turning it
# off) while its uplink keeps the device's: Cumulus runs one watchdog per
# switch, and the line that changed is the port policy's pfc_watchdog,
# though more ports hold it than the device's (an override is the change).

device "x1" {
  kind       = "leaf"
  platform   = "nvidia_cumulus"
  qos_policy = qos_policy.cumulus

  port "swp1" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.nowd
  }

  port "swp2" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.nowd
  }

  port "swp3" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.nowd
  }

  port "swp31" {
    speed = "100G"
    fec   = "rs"
  }
}

qos_policy "cumulus" {
  pfc_watchdog = pfc_watchdog.nv
}

qos_policy "nowd" {
  pfc_watchdog = "off" # want PLTxxx "cannot express pfc_watchdog off on swp1 but nv on swp31"
}

pfc_watchdog "nv" { # want WDG005 "default restoration of 200ms is not applied: the Cumulus PFC watchdog has no restoration time"
  detection = "200ms"
  action    = "drop"
}
