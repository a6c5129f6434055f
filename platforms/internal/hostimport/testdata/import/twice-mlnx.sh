# Two admins, one script: the later lines win.
mlnx_qos -i eth0 --trust pcp
ip link set dev eth0 mtu 1500
mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0
mlnx_qos -i eth0 --trust dscp
ip link set eth0 mtu 9000
mlnx_qos -i eth0 --dscp2prio set,26,3
mlnx_qos -i eth0 --dscp2prio set,26,4
cma_roce_tos -d mlx5_0 -t 106
cma_roce_tos -d mlx5_1 -t 96
mlnx_qos -i eth0 --dscp2prio del,26,4
