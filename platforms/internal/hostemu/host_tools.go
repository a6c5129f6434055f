package hostemu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
)

// sysfsRef is a parsed path of the emulated sysfs/configfs.
type sysfsRef struct {
	n    *nic
	attr string // mtu, np-enable, rp-enable, cnp_dscp, cnp_802p_prio, tos
	prio int
}

func (h *host) resolve(path string) (*sysfsRef, string) {
	p := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(p) >= 4 && p[0] == "sys" && p[1] == "class" && p[2] == "net":
		n := h.lookup(p[3])
		if n == nil {
			return nil, "No such file or directory"
		}
		rest := p[4:]
		if len(rest) == 1 && rest[0] == "mtu" {
			return &sysfsRef{n: n, attr: "mtu"}, ""
		}
		if !h.ofed || len(rest) < 3 || rest[0] != "ecn" {
			return nil, "No such file or directory"
		}
		switch {
		case len(rest) == 4 && (rest[1] == "roce_np" || rest[1] == "roce_rp") && rest[2] == "enable":
			pr, err := strconv.Atoi(rest[3])
			if err != nil || pr < 0 || pr > 7 {
				return nil, "No such file or directory"
			}
			attr := "np-enable"
			if rest[1] == "roce_rp" {
				attr = "rp-enable"
			}
			return &sysfsRef{n: n, attr: attr, prio: pr}, ""
		case len(rest) == 3 && rest[1] == "roce_np" && (rest[2] == "cnp_dscp" || rest[2] == "cnp_802p_prio"):
			return &sysfsRef{n: n, attr: rest[2]}, ""
		}
	case len(p) == 8 && p[0] == "sys" && p[1] == "kernel" && p[2] == "config" && p[3] == "rdma_cm" && p[5] == "ports" && p[6] == "1" && p[7] == "default_roce_tos":
		if n := h.byRDMA(p[4]); n != nil && n.cmDir && h.rdmaCM && h.configfs {
			return &sysfsRef{n: n, attr: "tos"}, ""
		}
	}
	return nil, "No such file or directory"
}

func (h *host) cat(args []string, stdin string) (string, string, int) {
	if len(args) == 0 {
		return stdin, "", 0
	}
	var out, errs strings.Builder
	st := 0
	for _, a := range args {
		ref, msg := h.resolve(a)
		if ref == nil {
			errs.WriteString("cat: " + a + ": " + msg + "\n")
			st = 1
			continue
		}
		out.WriteString(strconv.Itoa(ref.get()) + "\n")
	}
	return out.String(), errs.String(), st
}

func (r *sysfsRef) get() int {
	n := r.n
	switch r.attr {
	case "mtu":
		return n.mtu
	case "np-enable":
		return b2i(n.ecnNP[r.prio])
	case "rp-enable":
		return b2i(n.ecnRP[r.prio])
	case "cnp_dscp":
		return n.cnpDSCP
	case "cnp_802p_prio":
		return n.cnpPrio
	default:
		return n.tos
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeFile is a shell redirect into the emulated sysfs.
func (h *host) writeFile(path, data string, appendTo bool) string {
	if strings.HasPrefix(path, runLock+"/") {
		return h.lock.Write(path, data, appendTo)
	}
	ref, msg := h.resolve(path)
	if ref == nil {
		if strings.HasPrefix(path, "/sys/") {
			return msg
		}
		return "Permission denied"
	}
	v, err := strconv.Atoi(strings.TrimSpace(data))
	if err != nil {
		return "Invalid argument"
	}
	n := ref.n
	switch ref.attr {
	case "mtu":
		if v < 68 || v > 9978 {
			return "Invalid argument"
		}
		n.mtu = v
	case "np-enable", "rp-enable":
		if v != 0 && v != 1 {
			return "Invalid argument"
		}
		if ref.attr == "np-enable" {
			n.ecnNP[ref.prio] = v == 1
		} else {
			n.ecnRP[ref.prio] = v == 1
		}
	case "cnp_dscp":
		if v < 0 || v > 63 {
			return "Invalid argument"
		}
		n.cnpDSCP = v
	case "cnp_802p_prio":
		if v < 0 || v > 7 {
			return "Invalid argument"
		}
		n.cnpPrio = v
	default:
		if v < 0 || v > 255 {
			return "Invalid argument"
		}
		n.tos = v
	}
	return ""
}

// ip handles `ip link set [dev] IF mtu N` and `ip link show [dev] IF`.
func (h *host) ip(args []string) (string, string, int) {
	if len(args) >= 1 && args[0] == "-br" {
		args = args[1:]
	}
	if len(args) < 2 || args[0] != "link" {
		return "", "Usage: ip link { set | show } [dev] IFNAME ...\n", 255
	}
	verb, rest := args[1], args[2:]
	if len(rest) > 0 && rest[0] == "dev" {
		rest = rest[1:]
	}
	switch verb {
	case "show", "list":
		names := h.order
		if len(rest) > 0 {
			if h.lookup(rest[0]) == nil {
				return "", fmt.Sprintf("Device \"%s\" does not exist.\n", rest[0]), 1
			}
			names = []string{rest[0]}
		}
		var b strings.Builder
		for _, name := range names {
			n := h.nics[name]
			fmt.Fprintf(&b, "%d: %s: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu %d qdisc mq state UP mode DEFAULT group default qlen 1000\n", n.index+2, n.name, n.mtu)
			fmt.Fprintf(&b, "    link/ether 0c:42:a1:%02x:%02x:%02x brd ff:ff:ff:ff:ff:ff\n", cli.MgmtOctet(h.env.Spec.Name), n.index, n.index*2)
		}
		return b.String(), "", 0
	case "set":
		if len(rest) == 0 {
			return "", "Not enough information: \"dev\" argument is required.\n", 255
		}
		n := h.lookup(rest[0])
		if n == nil {
			return "", fmt.Sprintf("Cannot find device \"%s\"\n", rest[0]), 1
		}
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case "mtu":
				if i+1 >= len(rest) {
					return "", "Command line is not complete. Try option \"help\"\n", 255
				}
				v, err := strconv.Atoi(rest[i+1])
				if err != nil || v < 68 || v > 9978 {
					return "", "Error: mtu greater than device maximum.\n", 2
				}
				n.mtu = v
				i++
			case "up", "down":
			default:
				return "", fmt.Sprintf("Error: either \"dev\" is duplicate, or \"%s\" is a garbage.\n", rest[i]), 255
			}
		}
		return "", "", 0
	}
	return "", fmt.Sprintf("Command \"%s\" is unknown, try \"ip link help\".\n", verb), 255
}

// ethtool handles `ethtool -A IF rx on|off tx on|off` and `ethtool -a IF`.
func (h *host) ethtool(args []string) (string, string, int) {
	if len(args) < 2 {
		return "", "ethtool: bad command line argument(s)\n", 1
	}
	n := h.lookup(args[1])
	if n == nil {
		return "", "netlink error: no device matches name (offset 24)\nnetlink error: No such device\n", 1
	}
	switch args[0] {
	case "--set-tunable":
		if len(args) != 4 || args[2] != "pfc-prevention-tout" {
			return "", "ethtool: bad command line argument(s)\n", 1
		}
		if h.driver != hostspec.DefaultDriver {
			// Only mlx5 implements the PFC stall prevention tunable.
			return "", "Cannot set tunable pfc-prevention-tout: Operation not supported\n", 1
		}
		// mlx5e_set_pfc_prevention_tout: 0 (off), 65535 (auto) or 80..8000 ms.
		v, err := strconv.Atoi(args[3])
		if err != nil || v < 0 || v > 65535 {
			return "", "ethtool: bad pfc-prevention-tout value\n", 1
		}
		if v != 0 && v != 65535 && (v < 80 || v > 8000) {
			return "", "Cannot set tunable pfc-prevention-tout: Invalid argument\n", 1
		}
		n.pfcTout = v
		return "", "", 0
	case "--get-tunable":
		if len(args) != 3 || args[2] != "pfc-prevention-tout" {
			return "", "ethtool: bad command line argument(s)\n", 1
		}
		if h.driver != hostspec.DefaultDriver {
			return "", "Cannot get tunable pfc-prevention-tout: Operation not supported\n", 1
		}
		return fmt.Sprintf("PFC prevention: %d msecs\n", n.pfcTout), "", 0
	case "--show-priv-flags":
		var b strings.Builder
		fmt.Fprintf(&b, "Private flags for %s:\n", n.name)
		switch h.driver {
		case "mlx5_core":
			b.WriteString("rx_cqe_moder   : on\ntx_cqe_moder   : off\nrx_cqe_compress: off\nrx_striding_rq : on\n")
		case "ice":
			fmt.Fprintf(&b, "link-down-on-close     : off\nfw-lldp-agent          : %s\nvf-true-promisc-support: off\n", onOff(n.fwLLDP))
		}
		return b.String(), "", 0
	case "--set-priv-flags":
		if len(args) != 4 || (args[3] != "on" && args[3] != "off") {
			return "", "ethtool: bad command line argument(s)\n", 1
		}
		if h.driver != "ice" || args[2] != "fw-lldp-agent" {
			return "", "Cannot set private flags: Invalid argument\n", 1
		}
		n.fwLLDP = args[3] == "on"
		return "", "", 0
	case "-a", "--show-pause":
		return fmt.Sprintf("Pause parameters for %s:\nAutonegotiate:\toff\nRX:\t\t%s\nTX:\t\t%s\n", n.name, onOff(n.pauseRX), onOff(n.pauseTX)), "", 0
	case "-A", "--pause":
		kv := args[2:]
		if len(kv)%2 != 0 || len(kv) == 0 {
			return "", "ethtool: bad command line argument(s)\n", 1
		}
		for i := 0; i < len(kv); i += 2 {
			on := kv[i+1] == "on"
			if kv[i+1] != "on" && kv[i+1] != "off" {
				return "", "ethtool: bad command line argument(s)\n", 1
			}
			switch kv[i] {
			case "rx":
				n.pauseRX = on
			case "tx":
				n.pauseTX = on
			case "autoneg":
			default:
				return "", "ethtool: bad command line argument(s)\n", 1
			}
		}
		return "", "", 0
	}
	return "", "ethtool: bad command line argument(s)\n", 1
}

// cmaRoceTos handles `cma_roce_tos -d DEV [-p 1] [-t TOS]`.
func (h *host) cmaRoceTos(args []string) (string, string, int) {
	dev, tos, port := "", -1, "1"
	for i := 0; i < len(args); i++ {
		if i+1 >= len(args) {
			return "", "Usage: cma_roce_tos -d <dev> [-p <port>] [-t <tos>]\n", 1
		}
		switch args[i] {
		case "-d":
			dev = args[i+1]
		case "-p":
			port = args[i+1]
		case "-t":
			v, err := strconv.Atoi(args[i+1])
			if err != nil || v < 0 || v > 255 {
				return "", "Invalid ToS value: " + args[i+1] + "\n", 1
			}
			tos = v
		default:
			return "", "Usage: cma_roce_tos -d <dev> [-p <port>] [-t <tos>]\n", 1
		}
		i++
	}
	// cma_roce_tos mounts configfs when it is not, and needs rdma_cm.
	h.configfs = true
	if !h.rdmaCM {
		return "Module rdma_cm is not loaded or does not support configfs\n", "", 1
	}
	n := h.byRDMA(dev)
	if n == nil || port != "1" {
		return "", fmt.Sprintf("Device %s port %s not found\n", dev, port), 1
	}
	// cma_roce_tos creates the configfs directory, writes, and removes it.
	if tos < 0 {
		return fmt.Sprintf("%d\n", n.tos), "", 0
	}
	n.tos = tos
	return "", "", 0
}

// cmaRoceMode handles `cma_roce_mode -d DEV [-p 1] [-m 1|2]`.
func (h *host) cmaRoceMode(args []string) (string, string, int) {
	const usage = "Usage: cma_roce_mode -d <dev> [-p <port>] [-m <1|2>]\n"
	dev, port, mode := "", "1", 0
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "-d":
			dev = args[i+1]
		case "-p":
			port = args[i+1]
		case "-m":
			v, err := strconv.Atoi(args[i+1])
			if err != nil || (v != 1 && v != 2) {
				return "", usage, 1
			}
			mode = v
		default:
			return "", usage, 1
		}
	}
	if len(args)%2 != 0 {
		return "", usage, 1
	}
	n := h.byRDMA(dev)
	if n == nil || port != "1" {
		return "", fmt.Sprintf("Device %s port %s not found\n", dev, port), 1
	}
	if mode != 0 {
		n.roceMode = mode
	}
	names := map[int]string{1: "IB/RoCE v1", 2: "RoCE v2"}
	return names[n.roceMode] + "\n", "", 0
}

// Find handles `find /sys/class/net/IF/device/infiniband -mindepth 1
// -maxdepth 1 [-printf '%f']`, the lookup of a netdev's RDMA device.
func (h *host) Find(args []string) (string, string, int) {
	if len(args) == 0 {
		return "", "find: missing path\n", 1
	}
	path := strings.TrimRight(args[0], "/")
	printf := ""
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-mindepth", "-maxdepth", "-type", "-name":
			i++
		case "-printf":
			if i+1 < len(args) {
				printf = args[i+1]
				i++
			}
		}
	}
	p := strings.Split(strings.Trim(path, "/"), "/")
	if len(p) == 6 && p[0] == "sys" && p[1] == "class" && p[2] == "net" && p[4] == "device" && p[5] == "infiniband" {
		if n := h.lookup(p[3]); n != nil {
			if printf == "%f" {
				return n.rdma, "", 0
			}
			return path + "/" + n.rdma + "\n", "", 0
		}
	}
	return "", "find: '" + path + "': No such file or directory\n", 1
}

// mkdir handles `mkdir [-p] /sys/kernel/config/rdma_cm/DEV`, the configfs
// directory rdma_cm needs before default_roce_tos can be written.
func (h *host) mkdir(args []string) (string, string, int) {
	st := 0
	var errs strings.Builder
	for _, a := range args {
		if a == "-p" {
			continue
		}
		p := strings.Split(strings.Trim(a, "/"), "/")
		if len(p) == 5 && p[0] == "sys" && p[1] == "kernel" && p[2] == "config" && p[3] == "rdma_cm" {
			if !h.configfs || !h.rdmaCM {
				errs.WriteString("mkdir: cannot create directory '" + a + "': No such file or directory\n")
				st = 1
				continue
			}
			if n := h.byRDMA(p[4]); n != nil {
				n.cmDir = true
				continue
			}
		}
		errs.WriteString("mkdir: cannot create directory '" + a + "': Operation not permitted\n")
		st = 1
	}
	return "", errs.String(), st
}

// rmdir handles `rmdir /sys/kernel/config/rdma_cm/DEV`: the kernel drops
// the device's rdma_cm configfs group, and its default_roce_tos goes back
// to the default (0).
func (h *host) rmdir(args []string) (string, string, int) {
	st := 0
	var errs strings.Builder
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := strings.Split(strings.Trim(a, "/"), "/")
		if len(p) == 5 && p[0] == "sys" && p[1] == "kernel" && p[2] == "config" && p[3] == "rdma_cm" {
			if n := h.byRDMA(p[4]); n != nil && n.cmDir && h.configfs && h.rdmaCM {
				n.cmDir = false
				n.tos = 0
				continue
			}
			errs.WriteString("rmdir: failed to remove '" + a + "': No such file or directory\n")
			st = 1
			continue
		}
		errs.WriteString("rmdir: failed to remove '" + a + "': Operation not permitted\n")
		st = 1
	}
	return "", errs.String(), st
}

// kernelRelease is what uname -r would print (the greeting's kernel).
const kernelRelease = "5.15.0-105-generic"

// modprobe loads rdma_cm (which brings its configfs directory) and the
// modules it depends on; anything else is not in the lab's module tree.
func (h *host) modprobe(args []string) (string, string, int) {
	var mods []string
	all := false
	for _, a := range args {
		switch {
		case a == "-q" || a == "--quiet":
		case a == "-a" || a == "--all":
			all = true
		case strings.HasPrefix(a, "-"):
			return "", "modprobe: unrecognized option '" + a + "'\n", 1
		case all || len(mods) == 0:
			mods = append(mods, a)
		}
	}
	if len(mods) == 0 {
		return "", "modprobe: ERROR: missing parameters. See -h.\n", 1
	}
	for _, m := range mods {
		switch strings.ReplaceAll(m, "-", "_") {
		case "rdma_cm":
			h.rdmaCM = true
		case "configfs", "ib_core", "ib_cm", "iw_cm", "mlx5_core", "mlx5_ib":
		default:
			return "", "modprobe: FATAL: Module " + m + " not found in directory /lib/modules/" + kernelRelease + "\n", 1
		}
	}
	return "", "", 0
}

// mountpoint handles `mountpoint [-q] DIR` (util-linux): status 0 for a
// mount point, 32 for a directory that is not one.
func (h *host) mountpoint(args []string) (string, string, int) {
	quiet := false
	var dir string
	for _, a := range args {
		switch a {
		case "-q", "--quiet":
			quiet = true
		default:
			dir = a
		}
	}
	if dir == "" {
		return "", "mountpoint: bad usage\nTry 'mountpoint --help' for more information.\n", 1
	}
	dir = "/" + strings.Trim(dir, "/")
	is := false
	switch dir {
	case "/", "/sys", "/proc", "/dev", "/run":
		is = true
	case "/sys/kernel/config":
		is = h.configfs
	case "/sys/kernel", "/tmp", "/home", "/root":
	default:
		return "", "mountpoint: " + dir + ": No such file or directory\n", 1
	}
	if quiet {
		if is {
			return "", "", 0
		}
		return "", "", 32
	}
	if is {
		return dir + " is a mountpoint\n", "", 0
	}
	return dir + " is not a mountpoint\n", "", 32
}

// mount handles `mount -t configfs SOURCE /sys/kernel/config`, the one
// mount the NIC scripts make.
func (h *host) mount(args []string) (string, string, int) {
	if len(args) == 4 && args[0] == "-t" && args[1] == "configfs" && strings.TrimRight(args[3], "/") == "/sys/kernel/config" {
		if h.configfs {
			return "", "mount: /sys/kernel/config: " + args[2] + " already mounted on /sys/kernel/config.\n", 32
		}
		h.configfs = true
		return "", "", 0
	}
	return "", "mount: only the configfs mount on /sys/kernel/config is emulated by the lab\n", 1
}
