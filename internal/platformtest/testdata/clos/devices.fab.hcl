# The shared clos fabric (internal/platformtest, Fixture.Clos): examples/clos-400g
# cut down to 2 NICs per leaf, with ACLs on every switch, a spare port on every
# switch and a second port on every NIC (what the change matrix's "a port
# removed" removes), and device-level policy attachments (what "a device's
# QoS policy swapped" swaps). Every device is a seat: a platform folder names
# its seat in testdata/push/clos.json, and Fixture.Clos puts the folder's
# platform in that seat by rewriting the seat's one line in local.seat below,
# so a folder copied by scripts/newplatform sits where the folder it copied
# sat. The change matrix (push) edits these files textually, so the values a
# mutation changes are written once, in an obvious place.

locals {
  # The platform in each seat: one line per seat, "name = platform".
  seat = {
    spine1 = "juniper_junos"
    spine2 = "arista_eos"
    leaf1  = "arista_eos"
    leaf2  = "cisco_nxos"
    leaf3  = "sonic"
    leaf4  = "nvidia_cumulus"
    nic01  = "nvidia_mlnx"
    nic02  = "linux_dcb"
    nic03  = "nvidia_mlnx"
    nic04  = "linux_dcb"
    nic05  = "nvidia_mlnx"
    nic06  = "linux_dcb"
    nic07  = "nvidia_mlnx"
    nic08  = "linux_dcb"
  }
  # Each switch seat's interface naming: port n (1-based) is
  # format(fmt, n * step + base). asic: SONiC renders differ by ASIC family
  # (the PFC priority-group map is for mellanox and barefoot only).
  spines = {
    spine1 = { n = 1, fmt = "et-0/0/%d", step = 1, base = -1, asic = null }
    spine2 = { n = 2, fmt = "Ethernet%d/1", step = 1, base = 0, asic = null }
  }
  leaves = {
    leaf1 = { n = 1, fmt = "Ethernet%d/1", step = 1, base = 0, asic = null }
    leaf2 = { n = 2, fmt = "Ethernet1/%d", step = 1, base = 0, asic = null }
    leaf3 = { n = 3, fmt = "Ethernet%d", step = 8, base = -8, asic = "broadcom" }
    leaf4 = { n = 4, fmt = "swp%d", step = 1, base = 0, asic = null }
  }
  nics_per_leaf = 2
  # A spare port on every switch (leaf port 8, spine port 8), no link: the
  # matrix's "port removed" sets this to false.
  spare_port = true
  # Host-facing ports are 1-2; uplinks are the last two ports (31, 32) of a 32 x 400G leaf.
  uplink_base = 30
  # nic01 … nic08; odd NICs are ConnectX-7 seats (mlnx_qos names), even
  # ones iproute2 dcb seats.
  nics = { for i in range(length(keys(local.leaves)) * local.nics_per_leaf) : format("nic%02d", i + 1) => {
    leaf   = format("leaf%d", floor(i / local.nics_per_leaf) + 1)
    port   = i % local.nics_per_leaf + 1
    index  = i
    cx7    = i % 2 == 0
    ifname = i % 2 == 0 ? "ens1f0np0" : "enp65s0f0np0"
    spare  = i % 2 == 0 ? "ens1f1np1" : "enp65s0f1np1"
  } }
  fabric_cable = { leaf1 = "30m", leaf2 = "50m", leaf3 = "70m", leaf4 = "100m" }
  fabric_links = { for pair in setproduct(keys(local.leaves), keys(local.spines)) : "${pair[0]}-${pair[1]}" => {
    leaf  = pair[0]
    spine = pair[1]
    net   = cidrsubnet("10.1.0.0/24", 7, (local.leaves[pair[0]].n - 1) * 2 + local.spines[pair[1]].n - 1)
  } }
}

locals {
  mlnx       = { for n, v in local.nics : n => v.cx7 }
  leaf_port  = { for l, v in local.leaves : l => { for n in range(1, 33) : n => format(v.fmt, n * v.step + v.base) } }
  spine_port = { for s, v in local.spines : s => { for n in range(1, 33) : n => format(v.fmt, n * v.step + v.base) } }
}

device "spine" {
  for_each     = local.spines
  kind         = "spine"
  platform     = local.seat[each.key]
  asic         = each.value.asic
  mgmt_address = "192.0.2.${10 + each.value.n}"
  qos_policy   = qos_policy.fabric

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
      acl_in      = [acl.guard]
    }
  }

  dynamic "port" {
    for_each = local.spare_port ? [8] : []
    labels   = [local.spine_port[each.key][port.value]]
    content {
      speed  = "400G"
      ip     = "10.9.${each.value.n}.0/31"
      acl_in = [acl.roce-mark]
    }
  }
}

device "leaf" {
  for_each     = local.leaves
  kind         = "leaf"
  platform     = local.seat[each.key]
  asic         = each.value.asic
  mgmt_address = "192.0.2.${20 + each.value.n}"
  qos_policy   = qos_policy.fabric

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = range(1, local.nics_per_leaf + 1)
    labels   = [local.leaf_port[each.key][port.value]]
    content {
      speed  = "400G"
      fec    = "rs"
      ip     = "${cidrhost(cidrsubnet("10.0.${each.value.n}.0/24", 7, port.value - 1), 0)}/31"
      acl_in = [acl.roce-mark]
    }
  }

  dynamic "port" {
    for_each = local.spare_port ? [8] : []
    labels   = [local.leaf_port[each.key][port.value]]
    content {
      speed  = "400G"
      ip     = "10.9.${10 + each.value.n}.0/31"
      acl_in = [acl.roce-mark]
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
      acl_in      = [acl.guard]
    }
  }
}

device "nic" {
  for_each     = local.nics
  kind         = "nic"
  platform     = local.seat[each.key]
  host         = "gpu${substr(each.key, 3, 2)}"
  mgmt_address = "192.0.2.${101 + each.value.index}"
  qos_policy   = qos_policy.host

  credentials {
    username     = "root"
    password_env = "FABRICGEN_PASSWORD"
  }

  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = local.mlnx[each.key] ? 48 : null
    cnp_priority = local.mlnx[each.key] ? 6 : null
    ecn          = local.mlnx[each.key] ? true : null
  }

  dynamic "port" {
    for_each = [each.value.ifname]
    labels   = [port.value]
    content {
      speed = "400G"
      fec   = "rs"
      ip    = "${cidrhost(cidrsubnet("10.0.${local.leaves[each.value.leaf].n}.0/24", 7, each.value.port - 1), 1)}/31"
    }
  }

  # The second port of the dual-port NIC, not cabled: "port removed" drops it.
  dynamic "port" {
    for_each = local.spare_port ? [each.value.spare] : []
    labels   = [port.value]
    content {
      speed = "400G"
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
