#!/usr/bin/env bash
# fabricgen: fabric clos-400g, device nic07 (nvidia_mlnx)
# intent digest dbbedf9c2e7a54444ef6424c8856f141185deead13d0bda82fed9a6f7ebfaa5a
# Generated from the fabric intent; edit the intent, not this file.
# follows: NVIDIA MLNX_OFED user manual (mlnx_qos, ECN sysfs), mlnx-tools cma_roce_tos
# not applied on a host NIC: pfc_watchdog standard (detection 200ms, poll_interval 100ms, action drop): the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side
# not applied on a host NIC: queue 3 ecn_profile roce (min_threshold 150000B, max_threshold 1500000B, max_probability 100, min_fill_level 55, max_fill_level 90, mode ecn): an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
# not applied on a host NIC: rdma path_mtu 4096: applications set it per QP; rdma_cm derives it from the interface MTU
set -eu
command -v ip >/dev/null || { echo "nic07: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "nic07: ethtool not found (install ethtool)" >&2; exit 1; }
command -v mlnx_qos >/dev/null || { echo "nic07: mlnx_qos not found (install MLNX_OFED or mlnx-tools)" >&2; exit 1; }
command -v cma_roce_tos >/dev/null || { echo "nic07: cma_roce_tos not found (install MLNX_OFED or mlnx-tools)" >&2; exit 1; }
command -v cma_roce_mode >/dev/null || { echo "nic07: cma_roce_mode not found (install MLNX_OFED or mlnx-tools)" >&2; exit 1; }
[ -d /sys/class/net/ens1f0np0/device/infiniband ] || { echo "nic07: ens1f0np0 has no RDMA device (/sys/class/net/ens1f0np0/device/infiniband): load mlx5_ib, the RDMA driver of mlx5_core" >&2; exit 1; }
[ -e /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 ] || { echo "nic07: /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)" >&2; exit 1; }
[ -e /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3 ] || { echo "nic07: /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3 is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)" >&2; exit 1; }
[ -e /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp ] || { echo "nic07: /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)" >&2; exit 1; }
[ -e /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio ] || { echo "nic07: /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver, not the kernel's inbox mlx5 (install MLNX_OFED, or use platform linux_dcb)" >&2; exit 1; }
ethtool --get-tunable ens1f0np0 pfc-prevention-tout >/dev/null 2>&1 || { echo "nic07: ens1f0np0 has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)" >&2; exit 1; }
ibdev_ens1f0np0=$(find /sys/class/net/ens1f0np0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f')

# ens1f0np0
ip link set dev ens1f0np0 mtu 4200
ethtool -A ens1f0np0 rx off tx off || [ $? -eq 78 ]
mlnx_qos -i ens1f0np0 --trust dscp
mlnx_qos -i ens1f0np0 --dscp2prio set,0,0
mlnx_qos -i ens1f0np0 --dscp2prio set,1,0
mlnx_qos -i ens1f0np0 --dscp2prio set,2,0
mlnx_qos -i ens1f0np0 --dscp2prio set,3,0
mlnx_qos -i ens1f0np0 --dscp2prio set,4,0
mlnx_qos -i ens1f0np0 --dscp2prio set,5,0
mlnx_qos -i ens1f0np0 --dscp2prio set,6,0
mlnx_qos -i ens1f0np0 --dscp2prio set,7,0
mlnx_qos -i ens1f0np0 --dscp2prio set,8,0
mlnx_qos -i ens1f0np0 --dscp2prio set,9,0
mlnx_qos -i ens1f0np0 --dscp2prio set,10,0
mlnx_qos -i ens1f0np0 --dscp2prio set,11,0
mlnx_qos -i ens1f0np0 --dscp2prio set,12,0
mlnx_qos -i ens1f0np0 --dscp2prio set,13,0
mlnx_qos -i ens1f0np0 --dscp2prio set,14,0
mlnx_qos -i ens1f0np0 --dscp2prio set,15,0
mlnx_qos -i ens1f0np0 --dscp2prio set,16,0
mlnx_qos -i ens1f0np0 --dscp2prio set,17,0
mlnx_qos -i ens1f0np0 --dscp2prio set,18,0
mlnx_qos -i ens1f0np0 --dscp2prio set,19,0
mlnx_qos -i ens1f0np0 --dscp2prio set,20,0
mlnx_qos -i ens1f0np0 --dscp2prio set,21,0
mlnx_qos -i ens1f0np0 --dscp2prio set,22,0
mlnx_qos -i ens1f0np0 --dscp2prio set,23,0
mlnx_qos -i ens1f0np0 --dscp2prio set,24,0
mlnx_qos -i ens1f0np0 --dscp2prio set,25,0
mlnx_qos -i ens1f0np0 --dscp2prio set,26,3
mlnx_qos -i ens1f0np0 --dscp2prio set,27,0
mlnx_qos -i ens1f0np0 --dscp2prio set,28,0
mlnx_qos -i ens1f0np0 --dscp2prio set,29,0
mlnx_qos -i ens1f0np0 --dscp2prio set,30,0
mlnx_qos -i ens1f0np0 --dscp2prio set,31,0
mlnx_qos -i ens1f0np0 --dscp2prio set,32,0
mlnx_qos -i ens1f0np0 --dscp2prio set,33,0
mlnx_qos -i ens1f0np0 --dscp2prio set,34,0
mlnx_qos -i ens1f0np0 --dscp2prio set,35,0
mlnx_qos -i ens1f0np0 --dscp2prio set,36,0
mlnx_qos -i ens1f0np0 --dscp2prio set,37,0
mlnx_qos -i ens1f0np0 --dscp2prio set,38,0
mlnx_qos -i ens1f0np0 --dscp2prio set,39,0
mlnx_qos -i ens1f0np0 --dscp2prio set,40,0
mlnx_qos -i ens1f0np0 --dscp2prio set,41,0
mlnx_qos -i ens1f0np0 --dscp2prio set,42,0
mlnx_qos -i ens1f0np0 --dscp2prio set,43,0
mlnx_qos -i ens1f0np0 --dscp2prio set,44,0
mlnx_qos -i ens1f0np0 --dscp2prio set,45,0
mlnx_qos -i ens1f0np0 --dscp2prio set,46,0
mlnx_qos -i ens1f0np0 --dscp2prio set,47,0
mlnx_qos -i ens1f0np0 --dscp2prio set,48,6
mlnx_qos -i ens1f0np0 --dscp2prio set,49,0
mlnx_qos -i ens1f0np0 --dscp2prio set,50,0
mlnx_qos -i ens1f0np0 --dscp2prio set,51,0
mlnx_qos -i ens1f0np0 --dscp2prio set,52,0
mlnx_qos -i ens1f0np0 --dscp2prio set,53,0
mlnx_qos -i ens1f0np0 --dscp2prio set,54,0
mlnx_qos -i ens1f0np0 --dscp2prio set,55,0
mlnx_qos -i ens1f0np0 --dscp2prio set,56,0
mlnx_qos -i ens1f0np0 --dscp2prio set,57,0
mlnx_qos -i ens1f0np0 --dscp2prio set,58,0
mlnx_qos -i ens1f0np0 --dscp2prio set,59,0
mlnx_qos -i ens1f0np0 --dscp2prio set,60,0
mlnx_qos -i ens1f0np0 --dscp2prio set,61,0
mlnx_qos -i ens1f0np0 --dscp2prio set,62,0
mlnx_qos -i ens1f0np0 --dscp2prio set,63,0
mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0
mlnx_qos -i ens1f0np0 --prio_tc 0,1,2,3,4,5,6,7
mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,50,0,0,0,0
cma_roce_mode -d "$ibdev_ens1f0np0" -p 1 -m 2
cma_roce_tos -d "$ibdev_ens1f0np0" -t 106
echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3
echo 1 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3
echo 48 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp
echo 6 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio
ethtool --set-tunable ens1f0np0 pfc-prevention-tout 200
