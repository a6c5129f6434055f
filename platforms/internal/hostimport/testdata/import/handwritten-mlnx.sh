#!/bin/bash
# roce-setup.sh: ConnectX-6 Dx on a GPU server, written by hand.
# Usage: run once after boot (systemd oneshot).
set -euo pipefail

hostnamectl set-hostname gpu17
IF=ens1f0np0
IBDEV=mlx5_0

sudo ifconfig ens1f0np0 mtu 9000 up
mlnx_qos -i ens1f0np0 --trust=dscp
mlnx_qos -i ens1f0np0 --dscp2prio set,26,3 \
         --dscp2prio set,48,6
mlnx_qos -i ens1f0np0 --pfc=0,0,0,1,0,0,0,0 --prio_tc 0,0,0,3,0,0,6,0
/usr/bin/mlnx_qos -i ens1f0np0 -s ets,ets,ets,ets,ets,ets,strict,ets -t 40,0,0,60,0,0,0,0
mlnx_qos -i ens1f0np0 --ratelimit 0,0,0,0,0,0,10,0
mlnx_qos -i ens1f0np0 --buffer_size 32768,229120,0,0,0,0,0,0
mlnx_qos -i ens1f0np0 --prio2buffer 0,0,0,1,0,0,0,0
mlnx_qos -i $IF --cable_len 5
cma_roce_mode -d $IBDEV -p 1 -m 2
cma_roce_tos -d "$IBDEV" -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
if [ -d /sys/class/net/ens1f0np0/ecn ]; then
  echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3
  echo 1 | tee /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3 >/dev/null
  echo 1 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/0
fi
echo 48 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp
echo 6 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio
echo 55 > /sys/class/net/ens1f0np0/ecn/roce_rp/rpg_time_reset
ethtool -A ens1f0np0 rx off tx off
ethtool -G ens1f0np0 rx 8192 tx 8192
ethtool --set-tunable ens1f0np0 pfc-prevention-tout 300
tc qdisc replace dev ens1f0np0 root mqprio num_tc 8 map 0 1 2 3 4 5 6 7 hw 1
tc qdisc show dev ens1f0np0
sysctl -w net.ipv4.tcp_ecn=1
cat > /etc/modprobe.d/mlx5.conf <<EOF2
options mlx5_core prof_sel=2
mlnx_qos -i ens1f0np0 --trust pcp
EOF2
ip link set dev ens1f1np1 mtu 4200
ip addr add 10.1.7.2/31 dev ens1f1np1
mlnx_qos -i ens1f1np1 --trust pcp --pfc 0,0,0,0,0,0,0,0
ethtool -A ens1f1np1 rx on tx on
for i in 0 1; do mlnx_qos -i "ens2f${i}" --trust dscp; done
mlnx_qos -i ens3f0 --tsa vendor,vendor,vendor,vendor,vendor,vendor,vendor,vendor
ethtool -A ens3f0 rx on tx off
