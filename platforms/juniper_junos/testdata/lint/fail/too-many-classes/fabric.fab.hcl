# Under trust both the 802.1p map reaches all eight priorities: eight
# forwarding classes beside QFX's five defaults (best-effort, fcoe,
# no-loss, network-control, mcast) are 13, and a QFX5000 switch takes 12.

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

qos_policy "both" {
  trust = "both" # want PLT003 "13 forwarding classes on a QFX5000 switch .family qfx5000, model qfx5120-48y.: the switch supports 12 forwarding classes"
}

device "x1" {
  kind       = "leaf"
  platform   = "juniper_junos"
  model      = "qfx5120-48y"
  qos_policy = qos_policy.both

  port "et-0/0/0" {
    speed = "100G"
  }
}
