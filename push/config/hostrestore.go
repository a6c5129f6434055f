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

func restoreCommand(f Fact, old, cur string) (string, error) {
	unset := old == "<unset>"
	switch f.Kind {
	case "mlnx_qos":
		if d, ok := strings.CutPrefix(f.Key, "dscp2prio "); ok {
			if unset {
				return fmt.Sprintf("mlnx_qos -i %s --dscp2prio del,%s,%s", f.Target, d, cur), nil
			}
			return fmt.Sprintf("mlnx_qos -i %s --dscp2prio set,%s,%s", f.Target, d, old), nil
		}
		if !unset {
			return fmt.Sprintf("mlnx_qos -i %s --%s %s", f.Target, f.Key, old), nil
		}
	case "sysfs":
		if !unset {
			return fmt.Sprintf("echo %s > %s", old, f.Target), nil
		}
	case "mtu":
		if !unset {
			return fmt.Sprintf("ip link set dev %s mtu %s", f.Target, old), nil
		}
	case "roce_mode":
		if !unset {
			return fmt.Sprintf("cma_roce_mode -d %s -p %s -m %s", f.Target, strings.Fields(f.Key)[1], old), nil
		}
	case "tunable":
		if !unset {
			return fmt.Sprintf("ethtool --set-tunable %s %s %s", f.Target, strings.TrimPrefix(f.Key, "tunable "), old), nil
		}
	case "roce_tos":
		port := strings.Fields(f.Key)[1]
		if !unset {
			return fmt.Sprintf("cma_roce_tos -d %s -p %s -t %s", f.Target, port, old), nil
		}
	case "pause":
		if !unset {
			return fmt.Sprintf("ethtool -A %s %s %s", f.Target, strings.TrimPrefix(f.Key, "pause "), old), nil
		}
	case "dcb":
		k := strings.Fields(f.Key) // kind key [index]
		if len(k) == 3 {
			if k[0] == "app" {
				if unset {
					return fmt.Sprintf("dcb app del dev %s %s %s:%s", f.Target, k[1], k[2], cur), nil
				}
				return fmt.Sprintf("dcb app replace dev %s %s %s:%s", f.Target, k[1], k[2], old), nil
			}
			if !unset {
				return fmt.Sprintf("dcb %s set dev %s %s %s:%s", k[0], f.Target, k[1], k[2], old), nil
			}
		} else if len(k) >= 2 && !unset {
			return fmt.Sprintf("dcb %s set dev %s %s %s", k[0], f.Target, k[1], old), nil
		}
	}
	return "", fmt.Errorf("cannot restore %s of %s: the backup does not show its old value", f.Key, f.Target)
}
