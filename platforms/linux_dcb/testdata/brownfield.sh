# gpu02: upstream kernel, iproute2 dcb
set -e
modprobe rdma_cm
ip link set dev enp65s0f0np0 mtu 4200
dcb app add dev enp65s0f0np0 dscp-prio 26:3 48:6
dcb pfc set dev enp65s0f0np0 prio-pfc all:off 3:on
dcb ets set dev enp65s0f0np0 prio-tc all:0 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 0:40 3:60
dcb maxrate set dev enp65s0f0np0 tc-maxrate 0:10Gbit
mkdir -p /sys/kernel/config/rdma_cm/mlx5_0
echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos
