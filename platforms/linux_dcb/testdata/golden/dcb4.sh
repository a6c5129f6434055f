#!/usr/bin/env bash
# fabricgen: fabric stanzas, device dcb4 (linux_dcb)
# intent digest 30234914de199bff3549ca1bf767b043ffb851b06eb6730d30d4cae41b21f974
# Generated from the fabric intent; edit the intent, not this file.
# NIC driver mlx5_core (fabricgen's default; set driver to the NIC's kernel driver)
# follows: iproute2 dcb(8), dcb-app(8), dcb-pfc(8), dcb-ets(8) man pages
# not applied on a host NIC: pfc_watchdog standard (detection 200ms, poll_interval 100ms, action drop): the NIC's PFC storm prevention takes only a timeout (pfc-prevention-tout = detection); restoration, poll_interval and action are switch-side
# not applied on a host NIC: queue 3 ecn_profile roce (min_threshold 150000B, max_threshold 1500000B, max_probability 100, min_fill_level 55, max_fill_level 90, mode ecn): an ECN marking curve is applied by switches; the NIC reacts to marks (rdma ecn)
set -eu
command -v ip >/dev/null || { echo "dcb4: ip not found (install iproute2)" >&2; exit 1; }
command -v ethtool >/dev/null || { echo "dcb4: ethtool not found (install ethtool)" >&2; exit 1; }
command -v dcb >/dev/null || { echo "dcb4: dcb not found (install iproute2 5.12 or later)" >&2; exit 1; }
command -v modprobe >/dev/null || { echo "dcb4: modprobe not found (install kmod)" >&2; exit 1; }
command -v mountpoint >/dev/null || { echo "dcb4: mountpoint not found (install util-linux)" >&2; exit 1; }
[ -d /sys/class/net/_a.b-c@d/device/infiniband ] || { echo "dcb4: _a.b-c@d has no RDMA device (/sys/class/net/_a.b-c@d/device/infiniband): load mlx5_ib, the RDMA driver of mlx5_core" >&2; exit 1; }
dcb pfc show dev _a.b-c@d >/dev/null 2>&1 || { echo "dcb4: _a.b-c@d does not answer DCB netlink (dcb pfc show): its driver mlx5_core is not loaded or has no dcbnl support" >&2; exit 1; }
ethtool --get-tunable _a.b-c@d pfc-prevention-tout >/dev/null 2>&1 || { echo "dcb4: _a.b-c@d has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)" >&2; exit 1; }
[ -d /sys/class/net/e.x-y@z_1/device/infiniband ] || { echo "dcb4: e.x-y@z_1 has no RDMA device (/sys/class/net/e.x-y@z_1/device/infiniband): load mlx5_ib, the RDMA driver of mlx5_core" >&2; exit 1; }
dcb pfc show dev e.x-y@z_1 >/dev/null 2>&1 || { echo "dcb4: e.x-y@z_1 does not answer DCB netlink (dcb pfc show): its driver mlx5_core is not loaded or has no dcbnl support" >&2; exit 1; }
ethtool --get-tunable e.x-y@z_1 pfc-prevention-tout >/dev/null 2>&1 || { echo "dcb4: e.x-y@z_1 has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it (PFC stall prevention)" >&2; exit 1; }
ibdev__a_b_c_d=$(find /sys/class/net/_a.b-c@d/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f')
ibdev_e_x_y_z_1=$(find /sys/class/net/e.x-y@z_1/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f')

# _a.b-c@d
ip link set dev _a.b-c@d mtu 4200
ethtool -A _a.b-c@d rx off tx off || [ $? -eq 78 ]
dcb app replace dev _a.b-c@d dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
[ "$(dcb -N app show dev _a.b-c@d dscp-prio)" = "dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0 " ] || { echo "_a.b-c@d: dcb app dscp-prio did not take" >&2; exit 1; }
dcb pfc set dev _a.b-c@d prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off
dcb ets set dev _a.b-c@d prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
modprobe rdma_cm
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mkdir -p "/sys/kernel/config/rdma_cm/$ibdev__a_b_c_d"
echo 106 > "/sys/kernel/config/rdma_cm/$ibdev__a_b_c_d/ports/1/default_roce_tos"
ethtool --set-tunable _a.b-c@d pfc-prevention-tout 200

# e.x-y@z_1
ip link set dev e.x-y@z_1 mtu 4200
ethtool -A e.x-y@z_1 rx off tx off || [ $? -eq 78 ]
dcb app replace dev e.x-y@z_1 dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
[ "$(dcb -N app show dev e.x-y@z_1 dscp-prio)" = "dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0 " ] || { echo "e.x-y@z_1: dcb app dscp-prio did not take" >&2; exit 1; }
dcb pfc set dev e.x-y@z_1 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off
dcb ets set dev e.x-y@z_1 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
mkdir -p "/sys/kernel/config/rdma_cm/$ibdev_e_x_y_z_1"
echo 106 > "/sys/kernel/config/rdma_cm/$ibdev_e_x_y_z_1/ports/1/default_roce_tos"
ethtool --set-tunable e.x-y@z_1 pfc-prevention-tout 200
