package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// HostRestoreCommands returns the commands setting every fact of the
// script back to its value in the backup state, for the facts whose value
// now differs. Settings a tool only takes together are restored together,
// so no command is refused for a half-changed combination and no dropped
// connection leaves a hybrid: mlnx_qos --tsa with --tcbw, and a dcb map
// (tc-tsa, tc-bw, prio-pfc, prio-tc) with all its indices in one command
// (tc-tsa with tc-bw). A DSCP entry the backup did not have is deleted
// (and trust set back after the table); a configfs rdma_cm directory the
// backup did not have is removed, which puts default_roce_tos back to the
// kernel's default.
func HostRestoreCommands(script, backup, now string) ([]string, error) {
	return hostRestore(script, backup, now, nil)
}

// hostRestore is HostRestoreCommands leaving the settings in skip alone.
func hostRestore(script, backup, now string, skip map[string]bool) ([]string, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, backup)))
	if err != nil {
		return nil, err
	}
	old := HostFacts(actions, backup)
	cur := HostFacts(actions, now)
	r := &restorer{old: old, cur: cur, done: map[string]bool{}, trustAfter: map[string]bool{}}
	for id := range skip {
		r.done[id] = true
	}
	for _, a := range actions {
		for _, f := range a.Facts {
			if err := r.fact(f); err != nil {
				return nil, err
			}
		}
	}
	ifaces := make([]string, 0, len(r.trustAfter))
	for i := range r.trustAfter {
		ifaces = append(ifaces, i)
	}
	sort.Strings(ifaces)
	for _, i := range ifaces {
		if v := old[i+" trust"]; v != "" && v != unsetValue {
			r.out = append(r.out, quoteWords("mlnx_qos", "-i", i, "--trust", v))
		}
	}
	return append(append(r.first, r.out...), r.last...), nil
}

// restorer collects restore commands, grouping facts a tool sets together.
type restorer struct {
	old, cur map[string]string
	done     map[string]bool
	// first runs before the rest (a dscp2prio flush before trust); last
	// after it (private flags: on ice, fw-lldp-agent on hands DCB back to
	// the firmware, and the driver then refuses the host's own DCB
	// changes, so the dcb entries are restored first; kernel ice.rst,
	// "FW-LLDP").
	first, out, last []string
	// force builds commands even for facts that do not differ.
	force bool
	// trustAfter lists interfaces whose trust is set back after their
	// DSCP table.
	trustAfter map[string]bool
}

func (r *restorer) differs(id string) bool { return r.force || r.old[id] != r.cur[id] }

// fact adds the command restoring f (and the facts set with it).
func (r *restorer) fact(f Fact) error {
	id := f.ID()
	if r.done[id] || !r.differs(id) {
		return nil
	}
	r.done[id] = true
	old, cur := r.old[id], r.cur[id]
	unset := old == unsetValue
	q := quoteWords
	switch f.Kind {
	case "mlnx_dscp":
		r.dscp2prio(f, old, cur)
		return nil
	case "mlnx_qos":
		if f.Key == "tsa" || f.Key == "tcbw" {
			return r.ets(f.Target)
		}
		if !unset {
			r.out = append(r.out, q("mlnx_qos", "-i", f.Target, "--"+f.Key, old))
			return nil
		}
	case "sysfs":
		if !unset {
			r.out = append(r.out, "echo "+quoteWord(old)+" > "+quoteWord(f.Target))
			return nil
		}
		if dir, ok := rdmaCMGroup(f.Target); ok {
			// The directory did not exist before: removing it drops
			// the setting back to the kernel's default.
			r.out = append(r.out, q("rmdir", dir))
			return nil
		}
	case "mtu":
		if !unset {
			r.out = append(r.out, q("ip", "link", "set", "dev", f.Target, "mtu", old))
			return nil
		}
	case "roce_mode":
		if !unset {
			r.out = append(r.out, q("cma_roce_mode", "-d", f.Target, "-p", strings.Fields(f.Key)[1], "-m", old))
			return nil
		}
	case "tunable":
		if !unset {
			r.out = append(r.out, q("ethtool", "--set-tunable", f.Target, strings.TrimPrefix(f.Key, "tunable "), old))
			return nil
		}
	case "privflag":
		if !unset {
			r.last = append(r.last, q("ethtool", "--set-priv-flags", f.Target, strings.TrimPrefix(f.Key, "priv-flag "), old))
			return nil
		}
	case "roce_tos":
		if !unset {
			r.out = append(r.out, q("cma_roce_tos", "-d", f.Target, "-p", strings.Fields(f.Key)[1], "-t", old))
			return nil
		}
	case "pause":
		if !unset {
			r.out = append(r.out, q("ethtool", "-A", f.Target, strings.TrimPrefix(f.Key, "pause "), old))
			return nil
		}
	case "dcb":
		return r.dcb(f, old, cur)
	}
	return fmt.Errorf("cannot restore %s of %s: the backup does not show its old value", f.Key, quoteWord(f.Target))
}

// unsetValue is how HostFacts shows a fact the state does not have.
const unsetValue = "<unset>"

// dscp2prio restores one explicit entry of an mlnx_qos DSCP table (the
// APP table, read with dcb): deleted when the backup did not have it,
// else set to its old priority. Trust is set back after the table: the
// mlx5 driver may change it with the last entry.
func (r *restorer) dscp2prio(f Fact, old, cur string) {
	d := strings.TrimPrefix(f.Key, "dscp2prio ")
	if old == unsetValue {
		r.out = append(r.out, quoteWords("mlnx_qos", "-i", f.Target, "--dscp2prio", "del,"+d+","+cur))
	} else {
		r.out = append(r.out, quoteWords("mlnx_qos", "-i", f.Target, "--dscp2prio", "set,"+d+","+old))
	}
	r.trustAfter[f.Target] = true
}

// ets restores mlnx_qos's TSA and bandwidth vectors in one command.
func (r *restorer) ets(target string) error {
	tsa, bw := target+" tsa", target+" tcbw"
	r.done[tsa], r.done[bw] = true, true
	args := []string{"mlnx_qos", "-i", target}
	for _, c := range []struct{ id, opt string }{{tsa, "--tsa"}, {bw, "--tcbw"}} {
		v := r.old[c.id]
		if v == unsetValue || v == "" {
			return fmt.Errorf("cannot restore %s of %s: the backup does not show its old value", strings.TrimPrefix(c.opt, "--"), quoteWord(target))
		}
		args = append(args, c.opt, v)
	}
	r.out = append(r.out, quoteWords(args...))
	return nil
}

// dcb restores iproute2 dcb facts: app entries one by one (deleted when
// the backup lacks them), a mapped key with every index in one command
// (tc-tsa together with tc-bw), a scalar key alone.
func (r *restorer) dcb(f Fact, old, cur string) error {
	k := strings.Fields(f.Key) // kind key [index]
	q := quoteWords
	switch {
	case len(k) == 3 && k[0] == "app":
		if old == unsetValue {
			r.out = append(r.out, q("dcb", "app", "del", "dev", f.Target, k[1], k[2]+":"+cur))
		} else {
			r.out = append(r.out, q("dcb", "app", "replace", "dev", f.Target, k[1], k[2]+":"+old))
		}
		return nil
	case len(k) == 3:
		keys := []string{k[1]}
		if k[0] == "ets" && (k[1] == "tc-tsa" || k[1] == "tc-bw") {
			keys = []string{"tc-tsa", "tc-bw"}
		}
		args := []string{"dcb", k[0], "set", "dev", f.Target}
		for _, key := range keys {
			vals, err := r.dcbVector(f.Target, k[0], key)
			if err != nil {
				return err
			}
			if len(vals) > 0 {
				args = append(append(args, key), vals...)
			}
		}
		r.out = append(r.out, q(args...))
		return nil
	case len(k) >= 2 && old != unsetValue:
		// A scalar value may be several words (apptrust order dscp pcp).
		r.out = append(r.out, q(append([]string{"dcb", k[0], "set", "dev", f.Target, k[1]}, strings.Fields(old)...)...))
		return nil
	}
	return fmt.Errorf("cannot restore %s of %s: the backup does not show its old value", f.Key, quoteWord(f.Target))
}

// dcbVector is every index of one dcb map in the backup ("0:ets" …),
// marking them restored.
func (r *restorer) dcbVector(target, kind, key string) ([]string, error) {
	prefix := target + " " + kind + " " + key + " "
	var idx []int
	for id := range r.old {
		if s, ok := strings.CutPrefix(id, prefix); ok {
			if n, err := strconv.Atoi(s); err == nil {
				idx = append(idx, n)
			}
		}
	}
	sort.Ints(idx)
	var out []string
	for _, i := range idx {
		id := prefix + strconv.Itoa(i)
		r.done[id] = true
		v := r.old[id]
		if v == unsetValue {
			return nil, fmt.Errorf("cannot restore %s %s of %s: the backup does not show index %d", kind, key, quoteWord(target), i)
		}
		out = append(out, strconv.Itoa(i)+":"+v)
	}
	return out, nil
}

// rdmaCMGroup returns the rdma_cm configfs device directory a
// default_roce_tos path belongs to
// (/sys/kernel/config/rdma_cm/DEV/ports/N/default_roce_tos).
func rdmaCMGroup(path string) (string, bool) {
	p := strings.Split(strings.Trim(path, "/"), "/")
	if len(p) == 8 && p[0] == "sys" && p[1] == "kernel" && p[2] == "config" && p[3] == "rdma_cm" && p[5] == "ports" && p[7] == "default_roce_tos" {
		return "/" + strings.Join(p[:5], "/"), true
	}
	return "", false
}

// restoreCommand is the command restoring one fact alone (the facts a
// tool sets together need HostRestoreCommands).
func restoreCommand(f Fact, old, cur string) (string, error) {
	r := &restorer{old: map[string]string{f.ID(): old}, cur: map[string]string{f.ID(): cur}, done: map[string]bool{}, force: true, trustAfter: map[string]bool{}}
	if err := r.fact(f); err != nil {
		return "", err
	}
	cmds := append(r.first, r.out...)
	if len(cmds) == 0 {
		return "", fmt.Errorf("%s of %s: nothing to restore", f.Key, quoteWord(f.Target))
	}
	return cmds[0], nil
}
