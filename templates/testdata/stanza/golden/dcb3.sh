#!/usr/bin/env bash
# fabricgen: fabric stanzas, device dcb3 (linux_dcb)
# intent digest 6bf9c6a210cd761b889043e4b5221d1f00233da4f11236e0659104287a4d5da1
# Generated from the fabric intent; edit the intent, not this file.
# NIC driver mlx5_core (fabricgen's default; set driver to the NIC's kernel driver)
# follows: iproute2 dcb(8), dcb-app(8), dcb-pfc(8), dcb-ets(8) man pages
# not applied on a host NIC: queue 3 ecn_profile roce: an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
set -eu
command -v ip >/dev/null || { echo "dcb3: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "dcb3: ethtool not found (install ethtool)" >&2; exit 1; }
command -v dcb >/dev/null || { echo "dcb3: dcb not found (install iproute2 6.2 or later)" >&2; exit 1; }
dcb pfc show dev eth0 >/dev/null 2>&1 || { echo "dcb3: eth0 does not answer DCB netlink (dcb pfc show): its driver mlx5_core is not loaded or has no dcbnl support" >&2; exit 1; }

# eth0
ip link set dev eth0 mtu 4200
ethtool -A eth0 rx on tx on || [ $? -eq 78 ]
dcb apptrust set dev eth0 order pcp
dcb app replace dev eth0 pcp-prio 0nd:0 0de:0 1nd:1 1de:1 2nd:2 2de:2 3nd:3 3de:3 4nd:4 4de:4 5nd:5 5de:5 6nd:6 6de:6 7nd:7 7de:7
[ "$(dcb app show dev eth0 pcp-prio)" = "pcp-prio 0nd:0 1nd:1 2nd:2 3nd:3 4nd:4 5nd:5 6nd:6 7nd:7 0de:0 1de:1 2de:2 3de:3 4de:4 5de:5 6de:6 7de:7 " ] || { echo "eth0: dcb app pcp-prio did not take" >&2; exit 1; }
dcb pfc set dev eth0 prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off
dcb ets set dev eth0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
