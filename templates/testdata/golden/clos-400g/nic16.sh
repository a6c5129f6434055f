#!/usr/bin/env bash
# fabricgen: fabric clos-400g, device nic16 (linux_dcb)
# intent digest dbbedf9c2e7a54444ef6424c8856f141185deead13d0bda82fed9a6f7ebfaa5a
# Generated from the fabric intent; edit the intent, not this file.
# NIC driver mlx5_core (fabricgen's default; set driver to the NIC's kernel driver)
# follows: iproute2 dcb(8), dcb-app(8), dcb-pfc(8), dcb-ets(8) man pages
# not applied on a host NIC: pfc_watchdog standard (detection 200ms, poll_interval 100ms, action drop): the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side
# not applied on a host NIC: queue 3 ecn_profile roce (min_threshold 150000B, max_threshold 1500000B, max_probability 100, min_fill_level 55, max_fill_level 90, mode ecn): an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
# not applied on a host NIC: rdma path_mtu 4096: applications set it per QP; rdma_cm derives it from the interface MTU
set -eu
command -v ip >/dev/null || { echo "nic16: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "nic16: ethtool not found (install ethtool)" >&2; exit 1; }
command -v dcb >/dev/null || { echo "nic16: dcb not found (install iproute2 5.12 or later)" >&2; exit 1; }
command -v modprobe >/dev/null || { echo "nic16: modprobe not found (install kmod)" >&2; exit 1; }
command -v mountpoint >/dev/null || { echo "nic16: mountpoint not found (install util-linux)" >&2; exit 1; }
[ -d /sys/class/net/enp65s0f0np0/device/infiniband ] || { echo "nic16: enp65s0f0np0 has no RDMA device (/sys/class/net/enp65s0f0np0/device/infiniband): load mlx5_ib, the RDMA driver of mlx5_core" >&2; exit 1; }
dcb pfc show dev enp65s0f0np0 >/dev/null 2>&1 || { echo "nic16: enp65s0f0np0 does not answer DCB netlink (dcb pfc show): its driver mlx5_core is not loaded or has no dcbnl support" >&2; exit 1; }
ethtool --get-tunable enp65s0f0np0 pfc-prevention-tout >/dev/null 2>&1 || { echo "nic16: enp65s0f0np0 has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)" >&2; exit 1; }
ibdev_enp65s0f0np0=$(find /sys/class/net/enp65s0f0np0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f')

# enp65s0f0np0
ip link set dev enp65s0f0np0 mtu 4200
ethtool -A enp65s0f0np0 rx off tx off || [ $? -eq 78 ]
dcb app replace dev enp65s0f0np0 dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
[ "$(dcb -N app show dev enp65s0f0np0 dscp-prio)" = "dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0 " ] || { echo "enp65s0f0np0: dcb app dscp-prio did not take" >&2; exit 1; }
dcb pfc set dev enp65s0f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off
dcb ets set dev enp65s0f0np0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
modprobe rdma_cm
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mkdir -p "/sys/kernel/config/rdma_cm/$ibdev_enp65s0f0np0"
echo 106 > "/sys/kernel/config/rdma_cm/$ibdev_enp65s0f0np0/ports/1/default_roce_tos"
ethtool --set-tunable enp65s0f0np0 pfc-prevention-tout 200
