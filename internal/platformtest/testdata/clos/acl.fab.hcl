# RoCE admission on the host-facing and spare switch ports, after
# examples/ai-training-2subnet's ACL but without re-marking (SONiC ACL rules
# cannot set a DSCP): CNPs (UDP 4791, DSCP 48) and RoCE data (DSCP 26) are
# let through, other UDP 4791 is dropped, everything else passes.
acl "roce-mark" {
  rule {
    seq      = 10
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    dscp     = 48
  }

  rule {
    seq      = 20
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    dscp     = 26
  }

  rule {
    seq      = 30
    action   = "deny"
    protocol = "udp"
    dst_port = 4791
  }

  rule {
    seq      = 100
    action   = "permit"
    protocol = "ip"
  }
}
