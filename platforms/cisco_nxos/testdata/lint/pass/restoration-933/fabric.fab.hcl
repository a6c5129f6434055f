# Near miss: NX-OS 9.3(3) takes the restoration (300 ms: fixed-restore
# multiplier 3 of the 100 ms watch-dog interval), so WDG005 has nothing to say.

pfc_watchdog "new-release" {
  detection     = "200ms"
  restoration   = "300ms"
  poll_interval = "100ms"
  action        = "drop"
}

qos_policy "new-release" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.new-release
  mtu              = 9100
}

device "x1" {
  kind       = "leaf"
  platform   = "cisco_nxos"
  os_version = "9.3(3)"
  qos_policy = qos_policy.new-release

  port "Ethernet1/1" {
    speed = "400G"
    fec   = "rs"
  }
}
