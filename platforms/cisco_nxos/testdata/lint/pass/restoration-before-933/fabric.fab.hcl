# NX-OS 9.3(2): the PFC watchdog's fixed-restore multiplier arrived in
# 9.3(3), so the render sets no restoration and lint says so (WDG005, info)
# at the restoration of the profile the switch uses.

pfc_watchdog "old-release" {
  detection     = "200ms"
  restoration   = "300ms" # want WDG005 "x1 \(cisco_nxos\) uses pfc_watchdog \"old-release\", but its restoration of 300ms is not applied: NX-OS before 9\.3\(3\) has no PFC watchdog fixed-restore multiplier"
  poll_interval = "100ms"
  action        = "drop"
}

qos_policy "old-release" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.old-release
  mtu              = 9100
}

device "x1" {
  kind       = "leaf"
  platform   = "cisco_nxos"
  os_version = "9.3(2)"
  qos_policy = qos_policy.old-release

  port "Ethernet1/1" {
    speed = "400G"
    fec   = "rs"
  }
}
