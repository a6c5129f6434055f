# Junos: the forwarding classes of a queue must all be lossless or all lossy;
# priority 4 (lossy, reached by DSCP 32) cannot share queue 3 with the
# lossless priority 3.

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

qos_policy "shared" {
  dscp_map  = { 32 = 4 }
  queue_map = { "4" = 3 } # want PLT003 "queue 3 with lossless priorities 3 and lossy priorities 4"
}

device "x1" {
  kind       = "leaf"
  platform   = "juniper_junos"
  qos_policy = qos_policy.shared

  port "et-0/0/0" {
    speed = "100G"
  }
}
