#!/usr/bin/env bash
# fabricgen: test fixture in the form of templates/linux_dcb
set -eu
command -v ip >/dev/null || { echo "nic02: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "nic02: ethtool not found (install ethtool)" >&2; exit 1; }
command -v dcb >/dev/null || { echo "nic02: dcb not found (install iproute2 5.12 or later)" >&2; exit 1; }
command -v modprobe >/dev/null || { echo "nic02: modprobe not found (install kmod)" >&2; exit 1; }
command -v mountpoint >/dev/null || { echo "nic02: mountpoint not found (install util-linux)" >&2; exit 1; }
ibdev_enp65s0f0np0=$(find /sys/class/net/enp65s0f0np0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f')

# enp65s0f0np0
ip link set dev enp65s0f0np0 mtu 4200
ethtool -A enp65s0f0np0 rx off tx off || [ $? -eq 78 ]
dcb app replace dev enp65s0f0np0 dscp-prio 26:3 48:6
[ "$(dcb -N app show dev enp65s0f0np0 dscp-prio)" = "dscp-prio 26:3 48:6 " ] || { echo "enp65s0f0np0: dcb app dscp-prio did not take" >&2; exit 1; }
dcb pfc set dev enp65s0f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off
dcb ets set dev enp65s0f0np0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
modprobe rdma_cm
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mkdir -p "/sys/kernel/config/rdma_cm/$ibdev_enp65s0f0np0"
echo 106 > "/sys/kernel/config/rdma_cm/$ibdev_enp65s0f0np0/ports/1/default_roce_tos"
