# The stanzas goldens: one device per platform (and host variant) with the
# port shapes and ACL entries the "interface", ACL and filter sub-templates
# render. Ports differ in address family, routing, speed, FEC, MTU and
# bindings; the ACLs hold ranges, prefixes of both families, DSCP matches,
# denies and (where the platform can) re-marking. Nothing here is linted:
# the goldens pin the render, byte for byte.

fabric "stanzas" {
  description = "every per-port and per-ACL-entry shape the templates print"
  qos_policy  = qos_policy.fabric
}

ecn_profile "roce" {
  min_threshold   = "150KB"
  max_threshold   = "1500KB"
  max_probability = 100
  min_fill_level  = 55
  max_fill_level  = 90
  mode            = "ecn"
}

pfc_watchdog "standard" {
  detection     = "200ms"
  poll_interval = "100ms"
  action        = "drop"
}

traffic_class "default" {
  role      = "default"
  dscp      = [0]
  priority  = 0
  queue     = 0
  scheduler = "dwrr"
  weight    = 50
}

traffic_class "roce" {
  role      = "roce"
  dscp      = [26]
  priority  = 3
  queue     = 3
  lossless  = true
  ecn       = ecn_profile.roce
  scheduler = "dwrr"
  weight    = 50
}

traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  queue     = 6
  scheduler = "strict"
}

qos_policy "fabric" {
  trust            = "dscp"
  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]
  default_priority = 0
  pfc_priorities   = [3]
  pfc_watchdog     = pfc_watchdog.standard
  mtu              = 9214
  link_pause       = false
}

qos_policy "host" {
  mtu = 4200
}

# A linux_dcb host shaping its CNP queue (linux_dcb classifies by DSCP only).
qos_policy "host-dcb-shaped" {
  mtu = 9000
  queue "6" {
    shaper = "10G"
  }
}

# A linux_dcb host on 802.3x pause instead of PFC.
qos_policy "host-dcb-pause" {
  pfc_priorities = []
  pfc_watchdog   = "off"
  link_pause     = true
}

# A host on 802.3x pause instead of PFC, classifying by PCP.
qos_policy "host-pause" {
  trust          = "pcp"
  pfc_priorities = []
  pfc_watchdog   = "off"
  link_pause     = true
}

# A ConnectX shaping its CNP queue (mlnx_qos --ratelimit).
qos_policy "host-shaped" {
  mtu = 4200
  queue "6" {
    shaper = "25G"
  }
}

role "nic" {
  qos_policy = qos_policy.host
}

# CNPs first, keeping DSCP 48; other RoCE re-marked 26 (the lossless class).
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
    set_dscp = 26
  }
  rule {
    seq      = 100
    action   = "permit"
    protocol = "ip"
  }
}

# A filter with prefixes, a range, a source port, a DSCP match and a deny.
acl "edge-v4" {
  rule {
    seq        = 10
    action     = "deny"
    protocol   = "tcp"
    src_prefix = "192.0.2.0/24"
    src_port   = 179
  }
  rule {
    seq        = 20
    action     = "permit"
    protocol   = "udp"
    dst_prefix = "10.9.0.0/16"
    dst_port   = "4791-4792"
    dscp       = 26
  }
  rule {
    seq      = 30
    action   = "permit"
    protocol = "icmp"
  }
  rule {
    seq      = 40
    action   = "permit"
    protocol = "ip"
  }
}

acl "edge-v6" {
  rule {
    seq        = 10
    action     = "permit"
    protocol   = "udp"
    src_prefix = "2001:db8:1::/48"
    dst_prefix = "2001:db8:2::/48"
    dst_port   = 4791
  }
  rule {
    seq        = 20
    action     = "deny"
    protocol   = "ip"
    dst_prefix = "2001:db8::/32"
  }
  # ICMPv6 and "any protocol" in an IPv6 list take each platform's own
  # words (EOS icmpv6/ipv6, NX-OS icmp/ipv6, Junos icmp6, NVUE icmpv6,
  # SONiC IP_PROTOCOL 58).
  rule {
    seq      = 30
    action   = "permit"
    protocol = "icmp"
    family   = "ipv6"
  }
  rule {
    seq      = 40
    action   = "permit"
    protocol = "ip"
    family   = "ipv6"
  }
}

# Single ports only, udp/tcp (what NVUE matches).
acl "nvue-v4" {
  rule {
    seq        = 10
    action     = "deny"
    protocol   = "tcp"
    src_prefix = "192.0.2.0/24"
    src_port   = 179
  }
  rule {
    seq        = 20
    action     = "permit"
    protocol   = "udp"
    dst_prefix = "10.9.0.0/16"
    dst_port   = [4791, 4792]
    dscp       = [26, 27]
  }
  rule {
    seq      = 30
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    set_dscp = 26
  }
  rule {
    seq      = 40
    action   = "permit"
    protocol = "ip"
  }
}

# Switches: an addressed port with a hostile description and ACLs both
# ways, an IPv6 port, an unnumbered routed port, an L2 port at 25G.
device "eos1" {
  kind     = "leaf"
  platform = "arista_eos"

  port "Ethernet1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet3/1" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet4" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "nxos1" {
  kind     = "leaf"
  platform = "cisco_nxos"

  port "Ethernet1/1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a, b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet1/2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet1/3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet1/4/1" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "junos1" {
  kind     = "leaf"
  platform = "juniper_junos"
  model    = "mx304"

  port "et-0/0/0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.roce-mark]
    acl_out     = [acl.edge-v4]
  }
  port "et-0/0/1" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "et-0/0/2" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "xe-0/0/3:1" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "cl1" {
  kind     = "leaf"
  platform = "nvidia_cumulus"

  port "swp1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.nvue-v4]
    acl_out     = [acl.nvue-v4]
  }
  port "swp2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "swp3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.nvue-v4]
  }
  port "swp4s0" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "cl515" {
  kind     = "leaf"
  platform = "nvidia_cumulus"
  os_version = "5.15"

  port "swp1" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.nvue-v4]
    acl_out     = [acl.nvue-v4]
  }
  port "swp2" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "swp3" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.nvue-v4]
  }
  port "swp4s0" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "sonic1" {
  kind     = "leaf"
  platform = "sonic"
  asic     = "mellanox"

  port "Ethernet0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.edge-v4]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet8" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet16" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet24" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

device "sonic2106" {
  kind     = "leaf"
  platform = "sonic"
  asic       = "broadcom"
  os_version = "202106"

  port "Ethernet0" {
    speed       = "400G"
    fec         = "rs"
    ip          = "10.9.0.0/31"
    description = "to a; b && c {f} ~i #j"
    acl_in      = [acl.edge-v4]
    acl_out     = [acl.edge-v4]
  }
  port "Ethernet8" {
    speed       = "100G"
    ip          = "2001:db8:9::/127"
    description = "v6 uplink"
    acl_in      = [acl.edge-v6]
  }
  port "Ethernet16" {
    speed  = "400G"
    fec    = "none"
    routed = true
    acl_in = [acl.edge-v4]
  }
  port "Ethernet24" {
    speed = "25G"
    fec   = "fc"
    mtu   = 1500
  }
}

# Hosts: two ports each (the first port sets up configfs on linux_dcb),
# every driver and trust variant, a shaper, link pause.
device "mlnx1" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma {
    roce_mode    = "v2"
    tos          = 106
    cnp_dscp     = 48
    cnp_priority = 6
    ecn          = true
  }
  port "eth0" {
    speed = "100G"
  }
  port "ens1f1np1" {
    speed = "100G"
    mtu   = 9000
  }
}

device "mlnx2" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  qos_policy = qos_policy.host-pause
  port "eth0" {
    speed = "100G"
  }
}

device "dcb1" {
  kind     = "nic"
  platform = "linux_dcb"
  driver   = "ice"
  rdma {
    tos = 106
  }
  port "eth0" {
    speed = "100G"
  }
  port "eth1" {
    speed = "100G"
  }
}

device "dcb2" {
  kind     = "nic"
  platform = "linux_dcb"
  driver     = "bnxt_en"
  qos_policy = qos_policy.host-dcb-shaped
  rdma {
    tos = 106
  }
  port "enp1s0f0" {
    speed = "100G"
  }
}

device "dcb3" {
  kind     = "nic"
  platform = "linux_dcb"
  qos_policy = qos_policy.host-dcb-pause
  port "eth0" {
    speed = "100G"
  }
}

device "dcb4" {
  kind     = "nic"
  platform = "linux_dcb"
  rdma {
    tos = 106
  }
  port "e.x-y@z_1" {
    speed = "100G"
  }
  port "_a.b-c@d" {
    speed = "100G"
  }
}

device "mlnx3" {
  kind       = "nic"
  platform   = "nvidia_mlnx"
  qos_policy = qos_policy.host-shaped
  port "ens2f0" {
    speed = "100G"
  }
}
