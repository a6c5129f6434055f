#!/bin/sh
# intel E810 (ice) with upstream iproute2, hand-written
ethtool --set-priv-flags enp1s0f0 fw-lldp-agent off
ip link set enp1s0f0 mtu 9000
dcb app add dev enp1s0f0 dscp-prio AF31:3 CS6:6 EF:5
dcb app del dev enp1s0f0 dscp-prio EF:5
dcb app add dev enp1s0f0 default-prio 0
dcb app add dev enp1s0f0 pcp-prio 3:3
dcb app add dev enp1s0f0 dgram-port-prio 4791:3
dcb pfc set dev enp1s0f0 prio-pfc all:off 3:on delay 4096
dcb ets set dev enp1s0f0 prio-tc all:0 3:3 6:6 tc-tsa all:ets 6:strict tc-bw all:0 0:30 3:70 willing off
dcb maxrate set dev enp1s0f0 tc-maxrate 6:2.5Gbit
dcb buffer set dev enp1s0f0 prio-buffer all:0 3:1
dcb apptrust set dev enp1s0f0 order pcp dscp
echo 1 > /sys/class/net/enp1s0f0/ecn/roce_np/enable/3
echo 104 > /sys/kernel/config/rdma_cm/irdma0/ports/1/default_roce_tos
echo "RoCE v2" > /sys/kernel/config/rdma_cm/irdma0/ports/1/default_roce_mode
lldptool -T -i enp1s0f0 -V ETS-CFG willing=no
dcb -b /etc/dcb.batch
ethtool --set-priv-flags enp1s0f1 fw-lldp-agent on
mlnx_qos -i enp1s0f1 --trust pcp
