package dialect

import (
	"github.com/fabricgen/fabricgen/schema"
)

// host is a Linux host configuring its NIC with mlnx_qos / sysfs
// (nvidia_mlnx) or iproute2 dcb (linux_dcb). There is no config file to
// diff: the rendered script's action lines each set one piece of NIC state,
// push reads that state back with the matching show command, and the
// "config" compared is the set of facts (see push/config HostFacts).
func host(p schema.Platform) *Dialect {
	return &Dialect{
		Platform: p,
		Driver:   DriverGeneric,
		// user@host:~$ or root@host:/path# ; the channel default does not allow "~".
		Prompt: `(?m)^[\w.\-@:~/\[\]]{1,80}[#$]\s?$`,
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
		Transaction: TxnHost,
		Host:        true,
	}
}
