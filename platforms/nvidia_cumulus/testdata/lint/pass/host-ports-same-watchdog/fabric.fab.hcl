# Near miss of fail/host-ports-watchdog-off: x1's host ports have a port
# policy of their own, but it names the device's watchdog, so every port
# of the switch runs the same one.

device "x1" {
  kind       = "leaf"
  platform   = "nvidia_cumulus"
  qos_policy = qos_policy.cumulus

  port "swp1" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.same
  }

  port "swp2" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.same
  }

  port "swp3" {
    speed      = "100G"
    fec        = "rs"
    qos_policy = qos_policy.same
  }

  port "swp31" {
    speed = "100G"
    fec   = "rs"
  }
}

qos_policy "cumulus" {
  pfc_watchdog = pfc_watchdog.nv
}

qos_policy "same" {
  pfc_watchdog = pfc_watchdog.nv
}

pfc_watchdog "nv" { # want WDG005 "default restoration of 200ms is not applied: the Cumulus PFC watchdog has no restoration time"
  detection = "200ms"
  action    = "drop"
}
