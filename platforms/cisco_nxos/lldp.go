package cisconxos

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// lldpCommand is NX-OS's LLDP neighbour detail in NX-API's JSON (Cisco
// Nexus 9000 NX-OS Interfaces/System Management Configuration Guide,
// "Configuring LLDP", `show lldp neighbors detail`; NX-API's TABLE_/ROW_
// form as ONOS's Cisco Nexus link discovery reads it,
// opennetworkinglab/onos drivers/cisco/rest/.../LinkDiscoveryCiscoImpl.java): {"TABLE_nbor_detail": {"ROW_nbor_detail": [{"l_port_id":
// "Eth1/49", "sys_name": "spine1", "port_id": "Ethernet1/1", "port_desc":
// ..., "chassis_id": ...}]}}, a single row as an object, not a list.
const lldpCommand = "show lldp neighbors detail | json"

func lldpRead() platform.LLDP { return platform.LLDP{Command: lldpCommand, Parse: parseLLDP} }

// nxosMAC is a port ID of the MAC subtype as NX-OS prints it.
var nxosMAC = regexp.MustCompile(`^[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}$`)

// parseLLDP reads lldpCommand's output. NX-OS abbreviates its own port
// ("Eth1/49"): it comes back as the platform writes it ("Ethernet1/49").
// A far port whose ID is a MAC (a host's lldpd sending its MAC) is taken
// from its description when there is one.
func parseLLDP(out string) ([]importer.Neighbor, error) {
	var top map[string]any
	if err := lldp.Decode(lldpCommand, out, &top); err != nil {
		return nil, err
	}
	raw, ok := top["TABLE_nbor_detail"]
	if !ok {
		if top == nil {
			return nil, fmt.Errorf("%s: null, want an object", lldpCommand)
		}
		// NX-API leaves the table out when there is no neighbour.
		return nil, nil
	}
	tbl, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: TABLE_nbor_detail is not an object", lldpCommand)
	}
	rows, err := lldp.List(lldpCommand+": ROW_nbor_detail", tbl["ROW_nbor_detail"])
	if err != nil {
		return nil, err
	}
	var ns []importer.Neighbor
	for _, r := range rows {
		remote := lldp.Str(r["port_id"])
		if d := lldp.Str(r["port_desc"]); nxosMAC.MatchString(remote) && d != "" {
			remote = d
		}
		n := importer.Neighbor{LocalPort: nxosPortName(lldp.Str(r["l_port_id"])), RemoteSystem: lldp.Str(r["sys_name"]), RemotePort: remote}
		if ns, err = lldp.Add(lldpCommand, ns, n); err != nil {
			return nil, err
		}
	}
	lldp.Sort(ns)
	return ns, nil
}

// nxosPortName expands NX-OS's short form of its own port name.
func nxosPortName(s string) string {
	if rest, ok := strings.CutPrefix(s, "Eth"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		return "Ethernet" + rest
	}
	return s
}

// answerLLDP is the lab's `show lldp neighbors detail | json`: one row per
// linked port (the local port in NX-OS's short form, as the device prints
// it), a single row as an object.
func answerLLDP(v *dataplane.DeviceView) string {
	var rows []any
	for _, p := range v.Ports() {
		sys, port, ok := p.Neighbor()
		if !ok {
			continue
		}
		local := p.Name
		if rest, ok := strings.CutPrefix(local, "Ethernet"); ok {
			local = "Eth" + rest
		}
		rows = append(rows, map[string]any{"chassis_type": "Mac Address", "chassis_id": "02fa.b000.0001", "l_port_id": local,
			"port_type": "Interface Name", "port_id": port, "port_desc": port, "sys_name": sys, "sys_desc": "fabricgen lab device",
			"ttl": "120", "system_capability": "BR", "enabled_capability": "BR", "mgmt_addr_type": "IPV4", "mgmt_addr": "not advertised"})
	}
	if len(rows) == 0 {
		return dataplane.JSONText(map[string]any{})
	}
	var row any = rows
	if len(rows) == 1 {
		row = rows[0]
	}
	return dataplane.JSONText(map[string]any{"TABLE_nbor_detail": map[string]any{"ROW_nbor_detail": row}})
}
