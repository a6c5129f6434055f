package aristaeos

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// lldpCommand is EOS's LLDP neighbour table in eAPI's JSON (Arista EOS
// User Manual, "LLDP" chapter, `show lldp neighbors`; the eAPI reply as
// public eAPI examples print it, see templates.md): {"lldpNeighbors":
// [{"port": "Ethernet1", "neighborDevice": "spine1", "neighborPort":
// "Ethernet1", "ttl": 120}], "tablesLastChangeTime": ..., ...}.
const lldpCommand = "show lldp neighbors | json"

func lldpRead() platform.LLDP { return platform.LLDP{Command: lldpCommand, Parse: parseLLDP} }

// parseLLDP reads lldpCommand's output.
func parseLLDP(out string) ([]importer.Neighbor, error) {
	var top map[string]any
	if err := lldp.Decode(lldpCommand, out, &top); err != nil {
		return nil, err
	}
	raw, ok := top["lldpNeighbors"]
	if !ok {
		return nil, fmt.Errorf("%s: no \"lldpNeighbors\" list", lldpCommand)
	}
	rows, err := lldp.List(lldpCommand+": lldpNeighbors", raw)
	if err != nil {
		return nil, err
	}
	var ns []importer.Neighbor
	for _, r := range rows {
		n := importer.Neighbor{LocalPort: lldp.Str(r["port"]), RemoteSystem: lldp.Str(r["neighborDevice"]), RemotePort: lldp.Str(r["neighborPort"])}
		if ns, err = lldp.Add(lldpCommand, ns, n); err != nil {
			return nil, err
		}
	}
	lldp.Sort(ns)
	return ns, nil
}

// answerLLDP is the lab's `show lldp neighbors | json`: one row per
// linked port, naming the peer device and port from the intent's link.
func answerLLDP(v *dataplane.DeviceView) string {
	rows := []any{}
	for _, p := range v.Ports() {
		if sys, port, ok := p.Neighbor(); ok {
			rows = append(rows, map[string]any{"port": p.Name, "neighborDevice": sys, "neighborPort": port, "ttl": 120})
		}
	}
	return dataplane.JSONText(map[string]any{"tablesLastChangeTime": 0, "tablesAgeOuts": 0, "tablesInserts": len(rows),
		"tablesDeletes": 0, "tablesDrops": 0, "lldpNeighbors": rows})
}
