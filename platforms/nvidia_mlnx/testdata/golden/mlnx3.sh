#!/usr/bin/env bash
# fabricgen: fabric stanzas, device mlnx3 (nvidia_mlnx)
# intent digest 376d64ed34ab51972ef5570a3b15d41a3bc36a8fa27f265daa026241935cbac5
# Generated from the fabric intent; edit the intent, not this file.
# follows: NVIDIA MLNX_OFED user manual (mlnx_qos, ECN sysfs), mlnx-tools cma_roce_tos
# not applied on a host NIC: pfc_watchdog standard (detection 200ms, poll_interval 100ms, action drop): the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side
# not applied on a host NIC: queue 3 ecn_profile roce (min_threshold 150000B, max_threshold 1500000B, max_probability 100, min_fill_level 55, max_fill_level 90, mode ecn): an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
set -eu
command -v ip >/dev/null || { echo "mlnx3: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "mlnx3: ethtool not found (install ethtool)" >&2; exit 1; }
command -v mlnx_qos >/dev/null || { echo "mlnx3: mlnx_qos not found (install MLNX_OFED or mlnx-tools)" >&2; exit 1; }
ethtool --get-tunable ens2f0 pfc-prevention-tout >/dev/null 2>&1 || { echo "mlnx3: ens2f0 has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)" >&2; exit 1; }

# ens2f0
ip link set dev ens2f0 mtu 4200
ethtool -A ens2f0 rx off tx off || [ $? -eq 78 ]
mlnx_qos -i ens2f0 --trust dscp
mlnx_qos -i ens2f0 --dscp2prio set,0,0
mlnx_qos -i ens2f0 --dscp2prio set,1,0
mlnx_qos -i ens2f0 --dscp2prio set,2,0
mlnx_qos -i ens2f0 --dscp2prio set,3,0
mlnx_qos -i ens2f0 --dscp2prio set,4,0
mlnx_qos -i ens2f0 --dscp2prio set,5,0
mlnx_qos -i ens2f0 --dscp2prio set,6,0
mlnx_qos -i ens2f0 --dscp2prio set,7,0
mlnx_qos -i ens2f0 --dscp2prio set,8,0
mlnx_qos -i ens2f0 --dscp2prio set,9,0
mlnx_qos -i ens2f0 --dscp2prio set,10,0
mlnx_qos -i ens2f0 --dscp2prio set,11,0
mlnx_qos -i ens2f0 --dscp2prio set,12,0
mlnx_qos -i ens2f0 --dscp2prio set,13,0
mlnx_qos -i ens2f0 --dscp2prio set,14,0
mlnx_qos -i ens2f0 --dscp2prio set,15,0
mlnx_qos -i ens2f0 --dscp2prio set,16,0
mlnx_qos -i ens2f0 --dscp2prio set,17,0
mlnx_qos -i ens2f0 --dscp2prio set,18,0
mlnx_qos -i ens2f0 --dscp2prio set,19,0
mlnx_qos -i ens2f0 --dscp2prio set,20,0
mlnx_qos -i ens2f0 --dscp2prio set,21,0
mlnx_qos -i ens2f0 --dscp2prio set,22,0
mlnx_qos -i ens2f0 --dscp2prio set,23,0
mlnx_qos -i ens2f0 --dscp2prio set,24,0
mlnx_qos -i ens2f0 --dscp2prio set,25,0
mlnx_qos -i ens2f0 --dscp2prio set,26,3
mlnx_qos -i ens2f0 --dscp2prio set,27,0
mlnx_qos -i ens2f0 --dscp2prio set,28,0
mlnx_qos -i ens2f0 --dscp2prio set,29,0
mlnx_qos -i ens2f0 --dscp2prio set,30,0
mlnx_qos -i ens2f0 --dscp2prio set,31,0
mlnx_qos -i ens2f0 --dscp2prio set,32,0
mlnx_qos -i ens2f0 --dscp2prio set,33,0
mlnx_qos -i ens2f0 --dscp2prio set,34,0
mlnx_qos -i ens2f0 --dscp2prio set,35,0
mlnx_qos -i ens2f0 --dscp2prio set,36,0
mlnx_qos -i ens2f0 --dscp2prio set,37,0
mlnx_qos -i ens2f0 --dscp2prio set,38,0
mlnx_qos -i ens2f0 --dscp2prio set,39,0
mlnx_qos -i ens2f0 --dscp2prio set,40,0
mlnx_qos -i ens2f0 --dscp2prio set,41,0
mlnx_qos -i ens2f0 --dscp2prio set,42,0
mlnx_qos -i ens2f0 --dscp2prio set,43,0
mlnx_qos -i ens2f0 --dscp2prio set,44,0
mlnx_qos -i ens2f0 --dscp2prio set,45,0
mlnx_qos -i ens2f0 --dscp2prio set,46,0
mlnx_qos -i ens2f0 --dscp2prio set,47,0
mlnx_qos -i ens2f0 --dscp2prio set,48,6
mlnx_qos -i ens2f0 --dscp2prio set,49,0
mlnx_qos -i ens2f0 --dscp2prio set,50,0
mlnx_qos -i ens2f0 --dscp2prio set,51,0
mlnx_qos -i ens2f0 --dscp2prio set,52,0
mlnx_qos -i ens2f0 --dscp2prio set,53,0
mlnx_qos -i ens2f0 --dscp2prio set,54,0
mlnx_qos -i ens2f0 --dscp2prio set,55,0
mlnx_qos -i ens2f0 --dscp2prio set,56,0
mlnx_qos -i ens2f0 --dscp2prio set,57,0
mlnx_qos -i ens2f0 --dscp2prio set,58,0
mlnx_qos -i ens2f0 --dscp2prio set,59,0
mlnx_qos -i ens2f0 --dscp2prio set,60,0
mlnx_qos -i ens2f0 --dscp2prio set,61,0
mlnx_qos -i ens2f0 --dscp2prio set,62,0
mlnx_qos -i ens2f0 --dscp2prio set,63,0
mlnx_qos -i ens2f0 --pfc 0,0,0,1,0,0,0,0
mlnx_qos -i ens2f0 --prio_tc 0,1,2,3,4,5,6,7
mlnx_qos -i ens2f0 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,50,0,0,0,0
mlnx_qos -i ens2f0 --ratelimit 0,0,0,0,0,0,25,0
ethtool --set-tunable ens2f0 pfc-prevention-tout 200
