#!/bin/bash
# gpu01: NIC set up by hand before fabricgen
set -eu
ip link set dev ens1f0np0 mtu 9000
mlnx_qos -i ens1f0np0 --trust dscp
mlnx_qos -i ens1f0np0 --dscp2prio set,26,3
mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0
mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,ets,strict,ets \
    --tcbw 10,10,10,50,10,10,0,0
mlnx_qos -i ens1f0np0 --cable_len 3
cma_roce_tos -d mlx5_0 -t 106
echo 0 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/0
echo 24 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp
ethtool -A ens1f0np0 rx off tx off
ethtool --set-tunable ens1f0np0 pfc-prevention-tout 500
mlnx_qos -i ens1f1np1 --dscp2prio set,46,5
mlnx_qos -i ens1f1np1 --trust pcp
