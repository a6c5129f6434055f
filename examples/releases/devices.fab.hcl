# One spine, five leaves and ten NICs. Each switch names the release it runs
# (os_version) where the release changes the syntax, SONiC switches their
# ASIC family (asic), the Junos spine its model, and the linux_dcb NICs their
# kernel driver; the comments say what each changes in the render.

locals {
  # The leaves: platform, release, ASIC family, host and uplink port names.
  leaves = {
    # EOS before 4.22 writes a 400G port as "speed 400g" (4.22 on: 400g-8).
    leaf-eos421 = { platform = "arista_eos", os = "4.21.3F", asic = null, n = 1, hosts = ["Ethernet1/1", "Ethernet2/1"], up = "Ethernet32/1" }
    # Mellanox: SONiC's QoS template writes the PFC priority to
    # priority-group map (mellanox and barefoot only).
    leaf-mlnx = { platform = "sonic", os = "202405", asic = "mellanox", n = 2, hosts = ["Ethernet0", "Ethernet8"], up = "Ethernet248" }
    # Before 202111 SONiC references rows as "[TABLE|name]".
    leaf-202106 = { platform = "sonic", os = "202106", asic = "broadcom", n = 3, hosts = ["Ethernet0", "Ethernet8"], up = "Ethernet248" }
    # Before 202012 there is no buffer_model in DEVICE_METADATA.
    leaf-201911 = { platform = "sonic", os = "201911", asic = "marvell", n = 4, hosts = ["Ethernet0", "Ethernet8"], up = "Ethernet248" }
    # Cumulus Linux 5.15 renamed "ip address" to "ipv4 address".
    leaf-cl515 = { platform = "nvidia_cumulus", os = "5.15", asic = null, n = 5, hosts = ["swp1", "swp2"], up = "swp32" }
  }
  # Two NICs per leaf: a ConnectX with MLNX_OFED, and an upstream-dcb NIC
  # whose driver varies (mlx5_core, ice, bnxt_en).
  dcb_driver = { leaf-eos421 = "ice", leaf-mlnx = "bnxt_en", leaf-202106 = "mlx5_core", leaf-201911 = "ice", leaf-cl515 = "bnxt_en" }
  nics = merge([for l, v in local.leaves : {
    "${l}-cx7" = { leaf = l, port = v.hosts[0], platform = "nvidia_mlnx", ifname = "ens1f0np0", driver = null, host = 0, n = v.n }
    "${l}-dcb" = { leaf = l, port = v.hosts[1], platform = "linux_dcb", ifname = "ens2f0", driver = local.dcb_driver[l], host = 1, n = v.n }
  }]...)
}

# A QFX10000 caps its strict-high CNP queue with transmit-rate (QFX5000:
# shaping-rate); the uplinks to the SONiC leaves are unnumbered (routed, no
# address: BGP on IPv6 link-local), the others /31s.
device "spine1" {
  kind         = "spine"
  platform     = "juniper_junos"
  model        = "qfx10002-36q"
  os_version   = "22.4R3-S2"
  mgmt_address = "192.0.2.10"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  dynamic "port" {
    for_each = local.leaves
    labels   = ["et-0/0/${port.value.n - 1}"]
    content {
      speed       = "400G"
      fec         = "rs"
      ip          = port.value.platform == "sonic" ? null : "10.1.0.${2 * port.value.n - 2}/31"
      routed      = port.value.platform == "sonic" ? true : null
      description = "to ${port.key}"
    }
  }
}

device "leaf" {
  for_each     = local.leaves
  kind         = "leaf"
  platform     = each.value.platform
  os_version   = each.value.os
  asic         = each.value.asic
  mgmt_address = "192.0.2.${20 + each.value.n}"

  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }

  # Host ports: a /31 per NIC out of 10.0.<n>.0/24.
  dynamic "port" {
    for_each = each.value.hosts
    labels   = [port.value]
    content {
      speed = "400G"
      fec   = "rs"
      ip    = "10.0.${each.value.n}.${2 * port.key}/31"
    }
  }

  # The uplink: unnumbered on SONiC (an INTERFACE row with
  # ipv6_use_link_local_only), a /31 elsewhere.
  dynamic "port" {
    for_each = [each.value.up]
    labels   = [port.value]
    content {
      speed       = "400G"
      fec         = "rs"
      ip          = each.value.platform == "sonic" ? null : "10.1.0.${2 * each.value.n - 1}/31"
      routed      = each.value.platform == "sonic" ? true : null
      description = "to spine1"
    }
  }
}

device "nic" {
  for_each     = local.nics
  kind         = "nic"
  platform     = each.value.platform
  driver       = each.value.driver
  host         = "gpu-${each.key}"
  mgmt_address = "192.0.2.${100 + 2 * each.value.n + each.value.host}"

  credentials {
    username     = "root"
    password_env = "FABRICGEN_PASSWORD"
  }

  # DCQCN and CNP marking through the MLNX_OFED sysfs on the ConnectX;
  # linux_dcb has no vendor-neutral knob for them.
  rdma {
    roce_mode    = "v2"
    path_mtu     = 4096
    tos          = 106
    cnp_dscp     = each.value.platform == "nvidia_mlnx" ? 48 : null
    cnp_priority = each.value.platform == "nvidia_mlnx" ? 6 : null
    ecn          = each.value.platform == "nvidia_mlnx" ? true : null
  }

  dynamic "port" {
    for_each = [each.value.ifname]
    labels   = [port.value]
    content {
      speed = "400G"
      fec   = "rs"
      ip    = "10.0.${each.value.n}.${2 * each.value.host + 1}/31"
    }
  }
}

subnet "rack1" {
  prefix  = "10.0.1.0/24"
  gateway = "leaf-eos421"
}

subnet "rack2" {
  prefix  = "10.0.2.0/24"
  gateway = "leaf-mlnx"
}

subnet "rack3" {
  prefix  = "10.0.3.0/24"
  gateway = "leaf-202106"
}

subnet "rack4" {
  prefix  = "10.0.4.0/24"
  gateway = "leaf-201911"
}

subnet "rack5" {
  prefix  = "10.0.5.0/24"
  gateway = "leaf-cl515"
}

link "host" {
  for_each     = local.nics
  a            = "${each.key}:${each.value.ifname}"
  b            = "${each.value.leaf}:${each.value.port}"
  cable_length = "3m"
  media        = "dac"
}

# 30 m to 150 m: SONiC rounds each up to a pg_profile_lookup.ini row (40 m
# or 300 m) and names the profile after it.
link "fabric" {
  for_each     = local.leaves
  a            = "${each.key}:${each.value.up}"
  b            = "spine1:et-0/0/${each.value.n - 1}"
  cable_length = "${30 * each.value.n}m"
  media        = "fiber"
}
