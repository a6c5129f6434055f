/*|root*/
fabric "c" {
  qos_policy = /*|ref-attr*/
  /*|fabric-attrs*/
}

traffic_class "roce" {
  role = "/*|enum-in-string*/"
  scheduler = /*|enum-bare*/
  lossless = /*|bool*/
  ecn = ecn_profile./*|after-dot*/
  priority = 3
  /*|class-attrs-minus-set*/
}

ecn_profile "roce" {
  mode = "e/*|enum-prefix*/"
}

qos_policy "p" {
  tr/*|partial-attr*/
  classes = [traffic_class./*|list-after-dot*/]
  queue "3" {
    /*|queue-attrs*/
  }
}

device "spine1" {
  kind     = "spine"
  platform = "/*|platform*/"
  port "Ethernet1" {
    peer = "/*|peer-device*/"
  }
  port "Ethernet2" {}
  dynamic "port" {
    for_each = ["Ethernet3"]
    labels   = [port.value]
    content {
      /*|dynamic-content*/
    }
  }
}

device "nic" {
  for_each = toset(["nic1", "nic2"])
  kind     = "nic"
  platform = "linux_dcb"
  port "eth0" {}
  rdma {
    transport = "roce_v2"
  }
  /*|device-no-second-rdma*/
}

link "x" {
  a = "spine1:/*|link-port*/"
  b = "nic1/*|link-device-prefix*/"
}

role "/*|role-label*/" {
}

variable "n" {}

locals {
  m = var./*|var-dot*/
  # a comment /*|in-comment*/
}
