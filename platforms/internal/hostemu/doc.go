// Package hostemu emulates a Linux RoCE host for the lab (nvidia_mlnx and
// linux_dcb): NICs with their QoS state, driven by mlnx_qos, dcb, ethtool,
// ip, cma_roce_tos/mode and the sysfs and configfs files, in a bash login.
// New is its only entry point; it runs the scripts templates/nvidia_mlnx
// and templates/linux_dcb render.
package hostemu
