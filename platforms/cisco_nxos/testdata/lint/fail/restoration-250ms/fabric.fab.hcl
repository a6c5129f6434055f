# NX-OS 9.3(3) and later restore after fixed-restore multiplier × the 100 ms
# watch-dog interval: 250 ms is no multiple, so the render refuses it and
# lint says so at the restoration, naming the nearest values.

pfc_watchdog "odd" {
  detection     = "200ms"
  restoration   = "250ms" # want PLTxxx "restoration 250ms: .* the nearest is 200ms or 300ms"
  poll_interval = "100ms"
  action        = "drop"
}

qos_policy "odd" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.odd
  mtu              = 9100
}

device "x1" {
  kind       = "leaf"
  platform   = "cisco_nxos"
  os_version = "9.3(3)"
  qos_policy = qos_policy.odd

  port "Ethernet1/1" {
    speed = "400G"
    fec   = "rs"
  }
}
