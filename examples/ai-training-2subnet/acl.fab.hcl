# RoCE classification on every routed hop. CNPs are UDP 4791 too (BTH
# opcode 0x81), so the CNP rule comes first and keeps DSCP 48; every other
# RoCE packet is (re)marked EF, whatever the sender set.
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
    set_dscp = 46
  }

  rule {
    seq      = 100
    action   = "permit"
    protocol = "ip"
  }
}

subnet "gpu-a" {
  prefix           = "10.0.1.0/24"
  gateway          = "leaf1"
  require_roce_acl = true
}

subnet "gpu-b" {
  prefix           = "10.0.2.0/24"
  gateway          = "leaf2"
  require_roce_acl = true
}
