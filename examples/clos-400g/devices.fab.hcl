locals {
  # Interface naming per platform: port n (1-based) is format(fmt, n * step + base).
  naming = {
    arista_eos     = { fmt = "Ethernet%d/1", step = 1, base = 0 }
    cisco_nxos     = { fmt = "Ethernet1/%d", step = 1, base = 0 }
    sonic          = { fmt = "Ethernet%d", step = 8, base = -8 }
    nvidia_cumulus = { fmt = "swp%d", step = 1, base = 0 }
    juniper_junos  = { fmt = "et-0/0/%d", step = 1, base = -1 }
  }
  spines = {
    spine1 = { platform = "juniper_junos", n = 1 }
    spine2 = { platform = "arista_eos", n = 2 }
  }
  leaves = {
    leaf1 = { platform = "arista_eos", n = 1 }
    leaf2 = { platform = "cisco_nxos", n = 2 }
    leaf3 = { platform = "sonic", n = 3 }
    leaf4 = { platform = "nvidia_cumulus", n = 4 }
  }
  nics_per_leaf = 8
  # Host-facing ports are 1-8; uplinks are the last two ports (31, 32) of a 32 x 400G leaf.
  uplink_base = 30
  # nic01 … nic32; odd NICs are ConnectX-7 (mlnx_qos), even ones use iproute2 dcb.
  nics = { for i in range(length(keys(local.leaves)) * local.nics_per_leaf) : format("nic%02d", i + 1) => {
    leaf     = format("leaf%d", floor(i / local.nics_per_leaf) + 1)
    port     = i % local.nics_per_leaf + 1
    index    = i
    platform = i % 2 == 0 ? "nvidia_mlnx" : "linux_dcb"
    ifname   = i % 2 == 0 ? "ens1f0np0" : "enp65s0f0np0"
  } }
  # Leaf-spine cable runs: leaves sit in rows at increasing distance from the spines.
  fabric_cable = { leaf1 = "30m", leaf2 = "50m", leaf3 = "70m", leaf4 = "100m" }
  fabric_links = { for pair in setproduct(keys(local.leaves), keys(local.spines)) : "${pair[0]}-${pair[1]}" => {
    leaf  = pair[0]
    spine = pair[1]
    # /31 per link out of 10.1.0.0/24: spine takes the even address.
    net = cidrsubnet("10.1.0.0/24", 7, (local.leaves[pair[0]].n - 1) * 2 + local.spines[pair[1]].n - 1)
  } }
}

# Port name helper results, precomputed per (platform, n).
locals {
  mlnx       = { for n, v in local.nics : n => v.platform == "nvidia_mlnx" }
  leaf_port  = { for l, v in local.leaves : l => { for n in range(1, 33) : n => format(local.naming[v.platform].fmt, n * local.naming[v.platform].step + local.naming[v.platform].base) } }
  spine_port = { for s, v in local.spines : s => { for n in range(1, 33) : n => format(local.naming[v.platform].fmt, n * local.naming[v.platform].step + local.naming[v.platform].base) } }
}

device "spine" {
  for_each     = local.spines
  kind         = "spine"
  platform     = each.value.platform
  mgmt_address = "192.0.2.${10 + each.value.n}"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = { for k, l in local.fabric_links : k => l if l.spine == each.key }
    labels   = [local.spine_port[each.key][local.leaves[port.value.leaf].n]]
    content {
      speed       = "400G"
      fec         = "rs"
      ip          = "${cidrhost(port.value.net, 0)}/31"
      description = "to ${port.value.leaf}"
    }
  }
}

# asic: SONiC renders differ by ASIC family (the PFC priority-group map is
# for mellanox and barefoot only).
device "leaf" {
  for_each     = local.leaves
  kind         = "leaf"
  platform     = each.value.platform
  asic         = each.value.platform == "sonic" ? "broadcom" : null
  mgmt_address = "192.0.2.${20 + each.value.n}"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  # Host ports: a routed /31 per NIC out of the rack's 10.0.<n>.0/24.
  dynamic "port" {
    for_each = range(1, local.nics_per_leaf + 1)
    labels   = [local.leaf_port[each.key][port.value]]
    content {
      speed = "400G"
      fec   = "rs"
      ip    = "${cidrhost(cidrsubnet("10.0.${each.value.n}.0/24", 7, port.value - 1), 0)}/31"
    }
  }

  dynamic "port" {
    for_each = { for k, l in local.fabric_links : k => l if l.leaf == each.key }
    labels   = [local.leaf_port[each.key][local.uplink_base + local.spines[port.value.spine].n]]
    content {
      speed       = "400G"
      fec         = "rs"
      ip          = "${cidrhost(port.value.net, 1)}/31"
      description = "to ${port.value.spine}"
    }
  }
}

device "nic" {
  for_each     = local.nics
  kind         = "nic"
  platform     = each.value.platform
  host         = "gpu${substr(each.key, 3, 2)}"
  mgmt_address = "192.0.2.${101 + each.value.index}"

  # The demo lab authenticates hosts by password too; production hosts would
  # use key_file or agent = true instead.
  credentials {
    username     = "root"
    password_env = "FABRICGEN_PASSWORD"
  }

  # DCQCN and CNP marking are set through mlx5's sysfs; linux_dcb has no
  # vendor-neutral knob for them, so those NICs leave them to the driver.
  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = local.mlnx[each.key] ? 48 : null
    cnp_priority = local.mlnx[each.key] ? 6 : null
    ecn          = local.mlnx[each.key] ? true : null
  }

  # Block labels are literals, so the per-platform interface name comes in
  # through a one-element dynamic block.
  dynamic "port" {
    for_each = [each.value.ifname]
    labels   = [port.value]
    content {
      speed = "400G" # ConnectX-7 and the leaves' host ports run 400GbE
      fec   = "rs"   # RS(544,514), the FEC 400GBASE-R requires
      ip    = "${cidrhost(cidrsubnet("10.0.${local.leaves[each.value.leaf].n}.0/24", 7, each.value.port - 1), 1)}/31"
    }
  }
}

subnet "rack1" {
  prefix  = "10.0.1.0/24"
  gateway = "leaf1"
}

subnet "rack2" {
  prefix  = "10.0.2.0/24"
  gateway = "leaf2"
}

subnet "rack3" {
  prefix  = "10.0.3.0/24"
  gateway = "leaf3"
}

subnet "rack4" {
  prefix  = "10.0.4.0/24"
  gateway = "leaf4"
}

link "host" {
  for_each     = local.nics
  a            = "${each.key}:${each.value.ifname}"
  b            = "${each.value.leaf}:${local.leaf_port[each.value.leaf][each.value.port]}"
  cable_length = "3m"
  media        = "dac"
}

link "fabric" {
  for_each     = local.fabric_links
  a            = "${each.value.leaf}:${local.leaf_port[each.value.leaf][local.uplink_base + local.spines[each.value.spine].n]}"
  b            = "${each.value.spine}:${local.spine_port[each.value.spine][local.leaves[each.value.leaf].n]}"
  cable_length = local.fabric_cable[each.value.leaf]
  media        = "fiber"
}
