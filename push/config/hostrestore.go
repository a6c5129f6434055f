package config

import (
	"fmt"
	"strings"
)

// HostRestoreCommands returns the commands setting every fact of the
// script back to its value in the backup state, for the facts whose value
// now differs. A fact the backup did not have ("<unset>") is deleted where
// the tool can delete it (dcb app, mlnx_qos dscp2prio).
func HostRestoreCommands(script, backup, now string) ([]string, error) {
	actions, err := ParseHostScript(ResolveHostScript(script, lookupValues(script, backup)))
	if err != nil {
		return nil, err
	}
	old := HostFacts(actions, backup)
	cur := HostFacts(actions, now)
	seen := map[string]bool{}
	var out []string
	for _, a := range actions {
		for _, f := range a.Facts {
			id := f.ID()
			if seen[id] || old[id] == cur[id] {
				continue
			}
			seen[id] = true
			cmd, err := restoreCommand(f, old[id], cur[id])
			if err != nil {
				return nil, err
			}
			out = append(out, cmd)
		}
	}
	return out, nil
}

// restoreCommand builds the setter of one fact. Targets and values are
// quoted: values come from what the host printed.
func restoreCommand(f Fact, old, cur string) (string, error) {
	unset := old == "<unset>"
	q := quoteWords
	switch f.Kind {
	case "mlnx_qos":
		if d, ok := strings.CutPrefix(f.Key, "dscp2prio "); ok {
			if unset {
				return q("mlnx_qos", "-i", f.Target, "--dscp2prio", "del,"+d+","+cur), nil
			}
			return q("mlnx_qos", "-i", f.Target, "--dscp2prio", "set,"+d+","+old), nil
		}
		if !unset {
			return q("mlnx_qos", "-i", f.Target, "--"+f.Key, old), nil
		}
	case "sysfs":
		if !unset {
			return "echo " + quoteWord(old) + " > " + quoteWord(f.Target), nil
		}
	case "mtu":
		if !unset {
			return q("ip", "link", "set", "dev", f.Target, "mtu", old), nil
		}
	case "roce_mode":
		if !unset {
			return q("cma_roce_mode", "-d", f.Target, "-p", strings.Fields(f.Key)[1], "-m", old), nil
		}
	case "tunable":
		if !unset {
			return q("ethtool", "--set-tunable", f.Target, strings.TrimPrefix(f.Key, "tunable "), old), nil
		}
	case "roce_tos":
		port := strings.Fields(f.Key)[1]
		if !unset {
			return q("cma_roce_tos", "-d", f.Target, "-p", port, "-t", old), nil
		}
	case "pause":
		if !unset {
			return q("ethtool", "-A", f.Target, strings.TrimPrefix(f.Key, "pause "), old), nil
		}
	case "dcb":
		k := strings.Fields(f.Key) // kind key [index]
		if len(k) == 3 {
			if k[0] == "app" {
				if unset {
					return q("dcb", "app", "del", "dev", f.Target, k[1], k[2]+":"+cur), nil
				}
				return q("dcb", "app", "replace", "dev", f.Target, k[1], k[2]+":"+old), nil
			}
			if !unset {
				return q("dcb", k[0], "set", "dev", f.Target, k[1], k[2]+":"+old), nil
			}
		} else if len(k) >= 2 && !unset {
			// A scalar value may be several words (apptrust order dscp pcp).
			return q(append([]string{"dcb", k[0], "set", "dev", f.Target, k[1]}, strings.Fields(old)...)...), nil
		}
	}
	return "", fmt.Errorf("cannot restore %s of %s: the backup does not show its old value", f.Key, quoteWord(f.Target))
}
