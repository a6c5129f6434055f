variable "gpus_per_subnet" {
  description = "GPU nodes in each subnet; each has one 100G ConnectX-6 port."
  type        = number
  default     = 4
}

locals {
  # Third octet of each leaf's GPU subnet; the leaf routes it.
  octet = { leaf1 = 1, leaf2 = 2 }
  # gpu01… on leaf1, then the next ones on leaf2; port is the leaf port index (1-based).
  gpus = merge([for leaf, o in local.octet : {
    for i in range(var.gpus_per_subnet) :
    format("gpu%02d", (o - 1) * var.gpus_per_subnet + i + 1) => { leaf = leaf, octet = o, port = i + 1 }
  }]...)
  # Each host port is a routed /31 out of its subnet: the leaf takes the
  # even address, the NIC the odd one. No flooding of lossless traffic.
  host_net = { for name, g in local.gpus : name => cidrsubnet("10.0.${g.octet}.0/24", 7, g.port - 1) }
  # Leaf uplinks: two 400G links per leaf to the core, /31 each.
  uplinks = {
    "leaf1-1" = { leaf = "leaf1", leaf_port = "Ethernet49/1", core_port = "Ethernet1/1", net = 0 }
    "leaf1-2" = { leaf = "leaf1", leaf_port = "Ethernet50/1", core_port = "Ethernet2/1", net = 1 }
    "leaf2-1" = { leaf = "leaf2", leaf_port = "Ethernet1/49", core_port = "Ethernet3/1", net = 2 }
    "leaf2-2" = { leaf = "leaf2", leaf_port = "Ethernet1/50", core_port = "Ethernet4/1", net = 3 }
  }
  uplink_ip = { for k, u in local.uplinks : k => {
    core = "${cidrhost(cidrsubnet("10.255.0.0/24", 7, u.net), 0)}/31"
    leaf = "${cidrhost(cidrsubnet("10.255.0.0/24", 7, u.net), 1)}/31"
  } }
}

device "core1" {
  kind         = "core"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.10"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = local.uplinks
    labels   = [port.value.core_port]
    content {
      speed       = "400G"
      fec         = "rs"
      ip          = local.uplink_ip[port.key].core
      acl_in      = [acl.roce-mark]
      description = "to ${port.value.leaf} ${port.value.leaf_port}"
    }
  }
}

# Leaf for 10.0.1.0/24 (Arista 7050X-style: 100G host ports, 400G uplinks).
device "leaf1" {
  kind         = "leaf"
  platform     = "arista_eos"
  mgmt_address = "192.0.2.11"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = { for n, g in local.gpus : n => g if g.leaf == "leaf1" }
    labels   = ["Ethernet${port.value.port}"]
    content {
      speed  = "100G"
      fec    = "rs"
      ip     = "${cidrhost(local.host_net[port.key], 0)}/31"
      acl_in = [acl.roce-mark]
    }
  }

  dynamic "port" {
    for_each = { for k, u in local.uplinks : k => u if u.leaf == "leaf1" }
    labels   = [port.value.leaf_port]
    content {
      speed  = "400G"
      fec    = "rs"
      ip     = local.uplink_ip[port.key].leaf
      acl_in = [acl.roce-mark]
    }
  }
}

# Leaf for 10.0.2.0/24 (Nexus 9300-style).
device "leaf2" {
  kind         = "leaf"
  platform     = "cisco_nxos"
  mgmt_address = "192.0.2.12"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = { for n, g in local.gpus : n => g if g.leaf == "leaf2" }
    labels   = ["Ethernet1/${port.value.port}"]
    content {
      speed  = "100G"
      fec    = "rs"
      ip     = "${cidrhost(local.host_net[port.key], 0)}/31"
      acl_in = [acl.roce-mark]
    }
  }

  dynamic "port" {
    for_each = { for k, u in local.uplinks : k => u if u.leaf == "leaf2" }
    labels   = [port.value.leaf_port]
    content {
      speed  = "400G"
      fec    = "rs"
      ip     = local.uplink_ip[port.key].leaf
      acl_in = [acl.roce-mark]
    }
  }
}

device "gpu" {
  for_each     = local.gpus
  name         = "${each.key}-cx6"
  kind         = "nic"
  platform     = "nvidia_mlnx"
  host         = each.key
  mgmt_address = "192.0.2.${100 + index(keys(local.gpus), each.key) + 1}"

  credentials {
    username     = "root"
    password_env = "FABRICGEN_PASSWORD"
  }

  # ToS 186 = DSCP 46 << 2 | ECT(0): RoCE data leaves the NIC already marked EF
  # and ECN-capable; CNPs go out as DSCP 48 on priority 6.
  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 186
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }

  port "ens1f0np0" {
    speed = "100G"
    fec   = "rs"
    ip    = "${cidrhost(local.host_net[each.key], 1)}/31"
  }
}

link "host" {
  for_each     = local.gpus
  a            = "${each.key}-cx6:ens1f0np0"
  b            = each.value.leaf == "leaf1" ? "leaf1:Ethernet${each.value.port}" : "leaf2:Ethernet1/${each.value.port}"
  cable_length = "3m"
  media        = "dac"
}

link "uplink" {
  for_each     = local.uplinks
  a            = "${each.value.leaf}:${each.value.leaf_port}"
  b            = "core1:${each.value.core_port}"
  cable_length = "40m"
  media        = "fiber"
}
