#!/bin/bash
# nic01: ConnectX set up by hand for the storage VLAN before fabricgen:
# PCP trust, lossless priority 4, a 20/10/10/60 ETS split with TC7 strict,
# TC1 capped at 25 Gbit/s, ECN off on priority 3, and CNPs marked EF on
# priority 5.
set -eu
ip link set dev ens1f0np0 mtu 9000
mlnx_qos -i ens1f0np0 --trust pcp
mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,1,0,0,0
mlnx_qos -i ens1f0np0 --prio_tc 0,1,2,3,4,5,6,7
mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,ets,ets,strict \
    --tcbw 20,10,10,0,60,0,0,0
mlnx_qos -i ens1f0np0 --ratelimit 0,25,0,0,0,0,0,0
mlnx_qos -i ens1f0np0 --cable_len 5
cma_roce_tos -d mlx5_0 -t 96
echo 0 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3
echo 0 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3
echo 46 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp
echo 5 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio
ethtool --set-tunable ens1f0np0 pfc-prevention-tout 500
