fabric "t" {
  qos_policy = qos_policy./*|fabric-policy*/lossless
}

variable "mtu" {
  default = 9214
}

locals {
  leaves = ["leaf1", "leaf2"]
  /*|local-decl*/mtu = var./*|var-use*/mtu
}

ecn_profile "/*|ecn-label*/roce" {
  min_threshold = "150KB"
  max_threshold = "1500KB"
}

traffic_class "roce" {
  role     = "roce"
  priority = 3
  lossless = true
  ecn      = /*|ecn-use*/ecn_profile.roce
}

qos_policy "lossless" {
  /*|attr-name*/trust   = "dscp"
  classes = [traffic_class.roce]
  mtu     = local./*|local-use*/mtu
  queue "3" {
    ecn = ecn_profile.roce
  }
}
