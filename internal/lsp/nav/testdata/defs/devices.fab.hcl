device "/*|leaf-label*/leaf" {
  for_each   = toset(local.leaves)
  kind       = "leaf"
  platform   = "sonic"
  qos_policy = /*|device-policy*/qos_policy.lossless
  port "/*|leaf-port-label*/Ethernet1" {
    speed = "400G"
  }
}

device "spine1" {
  kind     = "spine"
  platform = "arista_eos"
  port "Ethernet1" {
    speed = "400G"
    peer  = "leaf1:Ethernet1"
  }
  ports {
    names = ["Ethernet2", "Ethernet3"]
  }
}

link "l2" {
  a = "/*|link-device*/leaf2:Ethernet1"
  b = "spine1:/*|link-port*/Ethernet2"
}

subnet "gpu" {
  prefix  = "10.0.1.0/24"
  gateway = "leaf1"
}

/*|block-type*/mesh "m" {
  lower       = ["leaf1", "/*|mesh-lower*/leaf2"]
  lower_ports = ["Ethernet9"]
  upper       = ["spine1"]
  upper_ports = ["Ethernet3", "Ethernet4"]
}
