#!/bin/sh
# nic02: upstream kernel and iproute2 dcb, configured by hand for a
# PCP-based storage VLAN: lossless priority 4, a 30/10/60 ETS split with
# TC7 strict, TC1 capped at 25 Gbit/s, link pause off.
set -e
modprobe rdma_cm
ip link set dev enp65s0f0np0 mtu 9000
dcb pfc set dev enp65s0f0np0 prio-pfc all:off 4:on
dcb ets set dev enp65s0f0np0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 \
    tc-tsa all:ets 7:strict tc-bw 0:30 1:10 2:0 3:0 4:60 5:0 6:0 7:0
dcb maxrate set dev enp65s0f0np0 tc-maxrate 1:25Gbit
ethtool -A enp65s0f0np0 rx off tx off
ethtool --set-tunable enp65s0f0np0 pfc-prevention-tout 500
