// Package lldp holds what the platform folders share to read LLDP
// neighbours for fabricgen import --inventory: the bounds and checks every
// parser applies, JSON decoding helpers, and lldpd's `lldpctl -f json`
// (the hosts, Cumulus Linux and SONiC run lldpd) with the lab's answer to
// it.
package lldp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// Bounds on one command's output and what it holds: a device's LLDP table
// is at most a few thousand rows; anything beyond is refused, not read.
const (
	// MaxOutput is the largest output a parser reads, in bytes.
	MaxOutput = 16 << 20
	// MaxNeighbors is the most neighbours one device may report.
	MaxNeighbors = 65536
	// MaxName is the longest system or port name taken (LLDP's own limit
	// for a TLV's string is 255 octets).
	MaxName = 255
)

// Decode unmarshals out (a command's JSON output) into v after checking
// its size; what refers to the command in errors.
func Decode(what, out string, v any) error {
	if len(out) > MaxOutput {
		return fmt.Errorf("%s: output of %d bytes is over the %d-byte limit", what, len(out), MaxOutput)
	}
	if strings.TrimSpace(out) == "" {
		return fmt.Errorf("%s: empty output, want JSON", what)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		return fmt.Errorf("%s: not the command's JSON: %w", what, err)
	}
	return nil
}

// Add appends a neighbour after checking it: every name present, no longer
// than MaxName, printable; at most MaxNeighbors in all. A neighbour without
// a system name or port is skipped (ok), as the device has nothing to
// link it with.
func Add(what string, out []importer.Neighbor, n importer.Neighbor) ([]importer.Neighbor, error) {
	n.LocalPort = strings.TrimSpace(n.LocalPort)
	n.RemoteSystem = strings.TrimSpace(n.RemoteSystem)
	n.RemotePort = strings.TrimSpace(n.RemotePort)
	if n.LocalPort == "" {
		return out, fmt.Errorf("%s: a neighbour without a local port", what)
	}
	for _, f := range []struct{ name, v string }{{"local port", n.LocalPort}, {"system name", n.RemoteSystem}, {"port", n.RemotePort}} {
		if err := checkName(f.v); err != nil {
			return out, fmt.Errorf("%s: neighbour on %s: %s %w", what, Quote(n.LocalPort), f.name, err)
		}
	}
	if n.RemoteSystem == "" || n.RemotePort == "" {
		return out, nil
	}
	if len(out) >= MaxNeighbors {
		return out, fmt.Errorf("%s: more than %d neighbours", what, MaxNeighbors)
	}
	return append(out, n), nil
}

// Sort orders neighbours by local port, then system and port, so the
// result does not depend on a JSON object's key order.
func Sort(ns []importer.Neighbor) {
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i], ns[j]
		if a.LocalPort != b.LocalPort {
			return a.LocalPort < b.LocalPort
		}
		if a.RemoteSystem != b.RemoteSystem {
			return a.RemoteSystem < b.RemoteSystem
		}
		return a.RemotePort < b.RemotePort
	})
}

func checkName(s string) error {
	if len(s) > MaxName {
		return fmt.Errorf("is %d bytes long, over LLDP's %d", len(s), MaxName)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not UTF-8", Quote(s))
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s has control characters", Quote(s))
		}
	}
	return nil
}

// Quote is s quoted for a message, cut to 64 bytes and with control
// characters escaped.
func Quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Str is a JSON string's value, "" for anything else (absent, null,
// number, object, list): every name these commands print is a string.
func Str(v any) string {
	s, _ := v.(string)
	return s
}

// List is a JSON value as a list of objects: a list's objects, an object
// alone as a list of one (NX-API's ROW_ and lldpd's interface collapse a
// single row into an object), nil for anything else. A list member that
// is not an object is an error.
func List(what string, v any) ([]map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return []map[string]any{x}, nil
	case []any:
		out := make([]map[string]any, 0, len(x))
		for i, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: member %d is %s, want an object", what, i, kind(e))
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s is %s, want an object or a list of them", what, kind(v))
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	}
	return "an object"
}

// Command is lldpd's read-only command for every neighbour in JSON
// (lldpcli(8): "When invoked as lldpctl, lldpcli will display detailed
// information about each neighbors on the specified interfaces or on all
// interfaces if none are specified"; -f json).
const Command = "lldpctl -f json"

// ParseLLDPD reads `lldpctl -f json` (lldpd 0.9 and later; the shape of
// lldpd's src/client/json_writer.c): {"lldp": {"interface": X}}, X an
// object {"IF": {...}} for a single interface or a list of such objects.
// Each interface has "chassis": {"SYSNAME": {"id": {...}, ...}} (or the
// chassis fields directly when the neighbour sends no system name) and
// "port": {"id": {"type": "ifname", "value": "swp1"}, "descr": "..."}.
// The far port is the port ID when its type is ifname, else the port
// description when there is one, else the port ID. No "interface" key is
// no neighbour.
func ParseLLDPD(out string) ([]importer.Neighbor, error) {
	const what = "lldpctl -f json"
	var top map[string]any
	if err := Decode(what, out, &top); err != nil {
		return nil, err
	}
	raw, ok := top["lldp"]
	if !ok {
		return nil, fmt.Errorf("%s: no \"lldp\" object", what)
	}
	var ifs any
	switch l := raw.(type) {
	case map[string]any:
		ifs = l["interface"]
	case []any:
		// lldpd prints an empty object as [] in some releases.
		if len(l) != 0 {
			return nil, fmt.Errorf("%s: \"lldp\" is a non-empty list, want an object (is this -f json0?)", what)
		}
	default:
		return nil, fmt.Errorf("%s: \"lldp\" is %s, want an object", what, kind(raw))
	}
	rows, err := List(what+": lldp.interface", ifs)
	if err != nil {
		return nil, err
	}
	var ns []importer.Neighbor
	for _, row := range rows {
		names := make([]string, 0, len(row))
		for k := range row {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, local := range names {
			it, ok := row[local].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: interface %s is %s, want an object", what, Quote(local), kind(row[local]))
			}
			sys, err := chassisName(what, local, it["chassis"])
			if err != nil {
				return nil, err
			}
			port, _ := it["port"].(map[string]any)
			var pid, ptype string
			if id, ok := port["id"].(map[string]any); ok {
				pid, ptype = Str(id["value"]), Str(id["type"])
			}
			remote := pid
			if d := Str(port["descr"]); ptype != "ifname" && d != "" {
				remote = d
			}
			if ns, err = Add(what, ns, importer.Neighbor{LocalPort: local, RemoteSystem: sys, RemotePort: remote}); err != nil {
				return nil, err
			}
		}
	}
	Sort(ns)
	return ns, nil
}

// chassisName is the neighbour's system name: the chassis object's single
// key, or, with no name, its chassis ID's value.
func chassisName(what, local string, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	ch, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("%s: interface %s: chassis is %s, want an object", what, Quote(local), kind(v))
	}
	if id, ok := ch["id"].(map[string]any); ok {
		if _, typed := id["type"]; typed {
			return Str(id["value"]), nil
		}
	}
	if len(ch) != 1 {
		return "", fmt.Errorf("%s: interface %s: chassis has %d keys, want its system name alone", what, Quote(local), len(ch))
	}
	for k := range ch {
		return k, nil
	}
	return "", nil
}

// AnswerLLDPD is the lab's `lldpctl -f json`: one interface per linked
// port, naming the peer device (chassis) and peer port (port ID of type
// ifname, as lldpd sends for a Linux netdev), in lldpd's shape (a single
// interface as an object, several as a list).
func AnswerLLDPD(v *dataplane.DeviceView) string {
	var ifs []any
	for _, p := range v.Ports() {
		sys, port, ok := p.Neighbor()
		if !ok {
			continue
		}
		ifs = append(ifs, map[string]any{p.Name: map[string]any{
			"via": "LLDP", "rid": "1", "age": "0 day, 00:10:00",
			"chassis": map[string]any{sys: map[string]any{
				"id":    map[string]any{"type": "mac", "value": labMAC(sys)},
				"descr": "fabricgen lab device " + sys,
			}},
			"port": map[string]any{
				"id":    map[string]any{"type": "ifname", "value": port},
				"descr": port, "ttl": "120",
			},
		}})
	}
	lldp := map[string]any{}
	switch len(ifs) {
	case 0:
	case 1:
		lldp["interface"] = ifs[0]
	default:
		lldp["interface"] = ifs
	}
	return dataplane.JSONText(map[string]any{"lldp": lldp})
}

// ExecLLDPD answers `lldpctl -f json` in a lab shell (ok false for any
// other command).
func ExecLLDPD(v *dataplane.DeviceView, argv []string) (string, string, int, bool) {
	if strings.Join(argv, " ") != Command {
		return "", "", 0, false
	}
	return AnswerLLDPD(v), "", 0, true
}

// labMAC is a stable, locally administered MAC for a lab device name.
func labMAC(name string) string {
	var h uint32 = 2166136261
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return fmt.Sprintf("02:fa:b0:%02x:%02x:%02x", byte(h>>16), byte(h>>8), byte(h))
}
