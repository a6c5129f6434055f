# The juniper_junos folder's fixture: the QoS of the stanza fixture, whose ports
# and ACL entries exercise every shape the folder's templates print. It is
# this folder's alone: tests of every layer load it through
# internal/platformtest, and growing it changes no other folder's goldens.
# Nothing here is linted (its ACLs re-mark on purpose).
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

# A Junos QFX leaf shaping its default queue and its strict-high CNP queue
# (the CNP shaper replaces fabricgen's 5 percent default cap); DSCP 32
# reaches priority 4, whose lossy class shares queue 4 with QFX's default
# no-loss class (redeclared lossy).
qos_policy "junos-shaped" {
  dscp_map = { 32 = 4 }
  queue "0" {
    shaper = "10G"
  }
  queue "6" {
    shaper = "10G"
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
