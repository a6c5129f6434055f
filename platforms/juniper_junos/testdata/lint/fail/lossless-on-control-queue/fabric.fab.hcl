# On QFX, queue 7 carries the default lossy forwarding class network-control,
# and the classes of a queue must all be lossless or all lossy: the lossless
# priority 3 cannot move there.

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
}

qos_policy "swapped" {
  queue_map = { "3" = 7, "7" = 3 } # want PLT003 "lossless priorities 3 on queue 7: queue 7 carries the QFX default lossy forwarding class network-control"
}

device "x1" {
  kind       = "leaf"
  platform   = "juniper_junos"
  qos_policy = qos_policy.swapped

  port "et-0/0/0" {
    speed = "100G"
  }
}
