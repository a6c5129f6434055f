# Priority 4 shares queue 3 with the lossless priority 3, but no DSCP
# reaches it: it gets no forwarding class, so nothing lossy sits on the
# lossless queue (compare fail/mixed-queue).

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

qos_policy "shared" {
  queue_map = { "4" = 3 }
}

device "x1" {
  kind       = "leaf"
  platform   = "juniper_junos"
  qos_policy = qos_policy.shared

  port "et-0/0/0" {
    speed = "100G"
  }
}
