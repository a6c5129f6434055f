variable "storage_nodes" {
  description = "Storage hosts, each with one dual-port ConnectX NIC."
  type        = number
  default     = 4
}

locals {
  leaves = ["leaf1", "leaf2"]
  spines = ["spine1", "spine2"]
  nodes  = { for i in range(1, var.storage_nodes + 1) : format("stor%02d", i) => i }
}

device "leaf" {
  for_each     = toset(local.leaves)
  kind         = "leaf"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.1${index(local.leaves, each.key) + 1}"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = range(1, var.storage_nodes + 1)
    labels   = ["Ethernet${port.value}"]
    content {
      speed = "100G"
      fec   = "rs"
    }
  }

  dynamic "port" {
    for_each = range(length(local.spines))
    labels   = ["Ethernet${49 + port.value}"]
    content {
      speed = "100G"
      fec   = "rs"
      ip    = cidrsubnet("10.1.0.0/24", 7, index(local.leaves, each.key) * 8 + port.value)
    }
  }
}

device "spine" {
  for_each     = toset(local.spines)
  kind         = "spine"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.2${index(local.spines, each.key) + 1}"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = range(length(local.leaves))
    labels   = ["Ethernet${port.value + 1}"]
    content {
      speed = "100G"
      fec   = "rs"
      ip    = "${cidrhost(cidrsubnet("10.1.0.0/24", 7, port.value * 8 + index(local.spines, each.key)), 1)}/31"
    }
  }
}

device "nic" {
  for_each     = local.nodes
  name         = "${each.key}-cx6"
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = each.key
  mgmt_address = "192.0.2.${100 + each.value}"

  credentials {
    username = "root"
    key_file = "~/.ssh/fabricgen_ed25519"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = 56
    cnp_priority = 7
    ecn          = true
  }

  port "eth0" {
    speed = "100G"
    ip    = "10.0.0.${each.value * 2}/24"
  }

  port "eth1" {
    speed = "100G"
    ip    = "10.0.0.${each.value * 2 + 1}/24"
  }
}

subnet "storage" {
  prefix = "10.0.0.0/24"
}

link "host" {
  for_each     = { for pair in setproduct(keys(local.nodes), [0, 1]) : "${pair[0]}-eth${pair[1]}" => pair }
  a            = "${each.value[0]}-cx6:eth${each.value[1]}"
  b            = "${local.leaves[each.value[1]]}:Ethernet${local.nodes[each.value[0]]}"
  cable_length = "3m"
  media        = "dac"
}

link "fabric" {
  for_each     = { for pair in setproduct(local.leaves, local.spines) : "${pair[0]}-${pair[1]}" => pair }
  a            = "${each.value[0]}:Ethernet${49 + index(local.spines, each.value[1])}"
  b            = "${each.value[1]}:Ethernet${index(local.leaves, each.value[0]) + 1}"
  cable_length = "30m"
  media        = "aoc"
}
