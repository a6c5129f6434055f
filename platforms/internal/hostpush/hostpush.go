// Package hostpush is the push dialect shared by the two host platforms
// (nvidia_mlnx, linux_dcb): a Linux host whose NIC state is set by a
// script of commands and read back as facts.
package hostpush

import (
	"regexp"
	"strconv"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/schema"
)

// Prompt is a Linux shell's prompt, user@host:~$ or root@host:/path# (the
// channel's default does not allow "~"): the hosts' and the subnet
// manager hosts'.
const Prompt = `(?m)^[\w.\-@:~/\[\]]{1,80}[#$]\s?$`

// Dialect is the push dialect of platform p, a Linux host configuring its
// NIC with mlnx_qos / sysfs (nvidia_mlnx) or iproute2 dcb (linux_dcb). There
// is no config file to diff: the rendered script's action lines each set one
// piece of NIC state, push reads that state back with the matching show
// command, and the "config" compared is the set of facts (see push/config
// HostFacts).
func Dialect(p schema.Platform) *dialect.Dialect {
	return &dialect.Dialect{
		Platform: p,
		Driver:   dialect.DriverGeneric,
		Prompt:   Prompt,
		FailedWhenContains: []string{
			"command not found",
			"No such file or directory",
			"Permission denied",
			"Operation not supported",
			"Invalid argument",
			"Error:",
			"error:",
		},
		Negate:      func(line string) string { return line },
		Transaction: dialect.TxnHost,
		Lines:       dialect.LinesHostScript,
		Host:        true,
		Factory:     factory(),
	}
}

// factory is the NIC state of a ConnectX port nobody configured, as
// push names its settings: the mlx5 driver's defaults (trust pcp, no PFC,
// every TC "vendor" with priority 0 on TC 1 and 1 on TC 0, as mlnx_qos and
// dcb ets show them; ECN on for every priority with CNPs on DSCP 48 and
// priority 6, MLNX_OFED "RoCE ECN"; PFC storm prevention 100 ms, ethtool
// pfc-prevention-tout), link pause on, MTU 1500 (Linux), and rdma_cm's
// default ToS 0.
func factory() []dialect.FactoryDefault {
	iface := `^[\w.@:-]+ `
	out := []dialect.FactoryDefault{
		{Key: regexp.MustCompile(iface + `mtu$`), Value: "1500"},
		{Key: regexp.MustCompile(iface + `pause (rx|tx)$`), Value: "on"},
		{Key: regexp.MustCompile(iface + `trust$`), Value: "pcp"},
		{Key: regexp.MustCompile(iface + `pfc$`), Value: "0,0,0,0,0,0,0,0"},
		{Key: regexp.MustCompile(iface + `prio_tc$`), Value: "1,0,2,3,4,5,6,7"},
		{Key: regexp.MustCompile(iface + `tsa$`), Value: "vendor,vendor,vendor,vendor,vendor,vendor,vendor,vendor"},
		{Key: regexp.MustCompile(iface + `tcbw$`), Value: "0,0,0,0,0,0,0,0"},
		{Key: regexp.MustCompile(iface + `tunable pfc-prevention-tout$`), Value: "100"},
		{Key: regexp.MustCompile(iface + `port \d+ roce_tos$`), Value: "0"},
		{Key: regexp.MustCompile(`^/sys/class/net/[^/]+/ecn/roce_(np|rp)/enable/[0-7] value$`), Value: "1"},
		{Key: regexp.MustCompile(`^/sys/class/net/[^/]+/ecn/roce_np/cnp_dscp value$`), Value: "48"},
		{Key: regexp.MustCompile(`^/sys/class/net/[^/]+/ecn/roce_np/cnp_802p_prio value$`), Value: "6"},
		{Key: regexp.MustCompile(iface + `ets tc-tsa [0-7]$`), Value: "vendor"},
		{Key: regexp.MustCompile(iface + `ets tc-bw [0-7]$`), Value: "0"},
		{Key: regexp.MustCompile(iface + `pfc prio-pfc [0-7]$`), Value: "off"},
		{Key: regexp.MustCompile(iface + `ets prio-tc 0$`), Value: "1"},
		{Key: regexp.MustCompile(iface + `ets prio-tc 1$`), Value: "0"},
	}
	for i := 2; i < 8; i++ {
		out = append(out, dialect.FactoryDefault{Key: regexp.MustCompile(iface + `ets prio-tc ` + strconv.Itoa(i) + `$`), Value: strconv.Itoa(i)})
	}
	return out
}
