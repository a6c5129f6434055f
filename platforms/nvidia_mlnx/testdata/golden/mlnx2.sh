#!/usr/bin/env bash
# fabricgen: fabric stanzas, device mlnx2 (nvidia_mlnx)
# intent digest 376d64ed34ab51972ef5570a3b15d41a3bc36a8fa27f265daa026241935cbac5
# Generated from the fabric intent; edit the intent, not this file.
# follows: NVIDIA MLNX_OFED user manual (mlnx_qos, ECN sysfs), mlnx-tools cma_roce_tos
# not applied on a host NIC: queue 3 ecn_profile roce (min_threshold 150000B, max_threshold 1500000B, max_probability 100, min_fill_level 55, max_fill_level 90, mode ecn): an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
set -eu
command -v ip >/dev/null || { echo "mlnx2: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "mlnx2: ethtool not found (install ethtool)" >&2; exit 1; }
command -v mlnx_qos >/dev/null || { echo "mlnx2: mlnx_qos not found (install MLNX_OFED or mlnx-tools)" >&2; exit 1; }

# eth0
ip link set dev eth0 mtu 4200
ethtool -A eth0 rx on tx on || [ $? -eq 78 ]
mlnx_qos -i eth0 --trust pcp
mlnx_qos -i eth0 --pfc 0,0,0,0,0,0,0,0
mlnx_qos -i eth0 --prio_tc 0,1,2,3,4,5,6,7
mlnx_qos -i eth0 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,50,0,0,0,0
