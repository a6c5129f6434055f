package juniperjunos

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
)

// lldpCommand is Junos's LLDP neighbour table as the JSON rendering of its
// XML RPC reply (Junos OS CLI Reference, `show lldp neighbors`; the
// <lldp-neighbors-information> elements as ONOS's Juniper driver reads
// them, opennetworkinglab/onos drivers/juniper/.../JuniperUtils.java): {"lldp-neighbors-information":
// [{"lldp-neighbor-information": [{"lldp-local-port-id" (or, in newer
// releases, "lldp-local-interface"): [{"data": "et-0/0/1"}],
// "lldp-remote-system-name": [...], "lldp-remote-port-id-subtype":
// [{"data": "Interface name"}], "lldp-remote-port-id": [...],
// "lldp-remote-port-description": [...]}]}]}, every leaf a list of
// {"data": value}.
const lldpCommand = "show lldp neighbors | display json"

func lldpRead() platform.LLDP { return platform.LLDP{Command: lldpCommand, Parse: parseLLDP} }

// junosData is a Junos JSON leaf's value: [{"data": "v"}] → "v".
func junosData(v any) string {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return ""
	}
	m, _ := l[0].(map[string]any)
	return lldp.Str(m["data"])
}

// parseLLDP reads lldpCommand's output. The far port is the port ID when
// its subtype is an interface name (or not given), else the port
// description when there is one (a Junos peer sends its SNMP ifIndex as a
// locally assigned port ID and its name as the description).
func parseLLDP(out string) ([]importer.Neighbor, error) {
	var top map[string]any
	if err := lldp.Decode(lldpCommand, out, &top); err != nil {
		return nil, err
	}
	raw, ok := top["lldp-neighbors-information"]
	if !ok {
		if top == nil {
			return nil, fmt.Errorf("%s: null, want an object", lldpCommand)
		}
		return nil, fmt.Errorf("%s: no \"lldp-neighbors-information\"", lldpCommand)
	}
	infos, err := lldp.List(lldpCommand+": lldp-neighbors-information", raw)
	if err != nil {
		return nil, err
	}
	var ns []importer.Neighbor
	for _, info := range infos {
		rows, err := lldp.List(lldpCommand+": lldp-neighbor-information", info["lldp-neighbor-information"])
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			local := junosData(r["lldp-local-port-id"])
			if local == "" {
				local = junosData(r["lldp-local-interface"])
			}
			remote := junosData(r["lldp-remote-port-id"])
			sub := junosData(r["lldp-remote-port-id-subtype"])
			if d := junosData(r["lldp-remote-port-description"]); sub != "" && !strings.Contains(strings.ToLower(sub), "interface name") && d != "" {
				remote = d
			}
			n := importer.Neighbor{LocalPort: local, RemoteSystem: junosData(r["lldp-remote-system-name"]), RemotePort: remote}
			if ns, err = lldp.Add(lldpCommand, ns, n); err != nil {
				return nil, err
			}
		}
	}
	lldp.Sort(ns)
	return ns, nil
}

// answerLLDP is the lab's `show lldp neighbors | display json`: one entry
// per linked port.
func answerLLDP(v *dataplane.DeviceView) string {
	d := func(x string) []any { return []any{map[string]any{"data": x}} }
	rows := []any{}
	for _, p := range v.Ports() {
		sys, port, ok := p.Neighbor()
		if !ok {
			continue
		}
		rows = append(rows, map[string]any{"lldp-local-port-id": d(p.Name), "lldp-local-parent-interface-name": d("-"),
			"lldp-remote-chassis-id-subtype": d("Mac address"), "lldp-remote-chassis-id": d("02:fa:b0:00:00:01"),
			"lldp-remote-port-id-subtype": d("Interface name"), "lldp-remote-port-id": d(port), "lldp-remote-system-name": d(sys)})
	}
	return dataplane.JSONText(map[string]any{"lldp-neighbors-information": []any{map[string]any{
		"attributes": map[string]any{"junos:style": "brief"}, "lldp-neighbor-information": rows}}})
}
