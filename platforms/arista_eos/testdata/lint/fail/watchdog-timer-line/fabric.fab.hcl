# EOS takes the watchdog timeout in steps of 10 ms: the refusal is at the
# detection line, the one timer EOS cannot take, not at the attachment.

pfc_watchdog "odd" {
  detection     = "205ms" # want PLTxxx "cannot express pfc_watchdog odd detection 205 ms: EOS takes the timeout"
  restoration   = "200ms"
  poll_interval = "100ms"
  action        = "drop"
}

qos_policy "odd" {
  pfc_watchdog = pfc_watchdog.odd
}

device "x1" {
  kind       = "leaf"
  platform   = "arista_eos"
  qos_policy = qos_policy.odd

  port "Ethernet1" {
    speed = "100G"
  }
}
