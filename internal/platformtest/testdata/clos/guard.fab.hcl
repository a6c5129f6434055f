# A second ACL on the leaf-spine links: "an ACL dropped from the intent"
# deletes this file and its bindings.
acl "guard" {
  rule {
    seq        = 10
    action     = "deny"
    protocol   = "udp"
    dst_port   = 5000
    src_prefix = "10.66.0.0/16"
  }

  rule {
    seq      = 20
    action   = "permit"
    protocol = "ip"
  }
}
