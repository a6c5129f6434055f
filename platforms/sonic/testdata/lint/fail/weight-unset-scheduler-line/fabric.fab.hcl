# A DWRR queue without a weight has weight 0, which SONiC cannot take: the
# refusal is at the scheduler line that made the queue weighted, not at the
# device block.

device "x1" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "broadcom"
  qos_policy = qos_policy.oddq

  port "Ethernet0" {
    speed = "100G"
  }
}

qos_policy "oddq" {
  queue "5" {
    scheduler = "dwrr" # want PLTxxx "cannot express queue 5 DWRR weight 0"
  }
}
