# fabricgen lab: NIC state of dcb1 (linux_dcb); replayed on a factory host it gives this state
modprobe rdma_cm
ip link set dev eth0 mtu 4200
dcb pfc set dev eth0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off
dcb ets set dev eth0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0
dcb app add dev eth0 dscp-prio 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
ethtool -A eth0 rx off tx off
ethtool --set-priv-flags eth0 fw-lldp-agent off
mkdir -p /sys/kernel/config/rdma_cm/irdma0
echo 106 > /sys/kernel/config/rdma_cm/irdma0/ports/1/default_roce_tos
ip link set dev eth1 mtu 1500
