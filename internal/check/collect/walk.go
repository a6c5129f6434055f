package collect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check/readings"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// The pieces every collector shares: running a command and naming it in
// a parse error, the command tables of the collectors that read the
// whole device with each command and of those that read each port with
// its own, and the walks over parsed show output (ports by name,
// priorities and queues by number, fields to metric families).

// DeviceCommand is a read of the whole device: the command, the families
// it feeds and its parser, which files what it reads into the ports by
// name.
type DeviceCommand struct {
	// Cmd is the command.
	Cmd string
	// Fams are the metric families it feeds.
	Fams []string
	// Parse files its output into the ports by name.
	Parse func(string, map[string]*readings.Port) error
}

// PortCommand is a read of one port into v (the port, or its QoS): the
// command, the families it feeds and its parser. The device's source is
// the command with IF in place of the port unless template is set.
type PortCommand[T any] struct {
	// Cmd is the command.
	Cmd string
	// Fams are the metric families it feeds.
	Fams []string
	// Parse files its output into v.
	Parse func(string, T) error
	// Template, when set, is the device's source for the command.
	Template string
}

// DOMFamilies are the transceiver families: per-lane powers, module
// temperature and voltage, and their thresholds.
func DOMFamilies() []string {
	return []string{readings.RxPower, readings.TxPower, readings.RxPowerLoAlarm, readings.RxPowerLoWarn,
		readings.TxPowerLoAlarm, readings.TxPowerLoWarn, readings.TxPowerHiWarn, readings.TxPowerHiAlarm, readings.Temperature, readings.TempHiWarn, readings.TempHiAlarm,
		readings.Voltage, readings.VoltLoWarn, readings.VoltHiWarn}
}

// RunParse runs cmd and parses its output; a parse error names the command.
func RunParse(r Runner, cmd string, parse func(string) error) error {
	out, err := r.Run(cmd)
	if err != nil {
		return err
	}
	if err := parse(out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// CommandList is the commands of a table, then the read-back's.
func CommandList(cmds []DeviceCommand, readbackCmd string) []string {
	out := make([]string, 0, len(cmds)+1)
	for _, c := range cmds {
		out = append(out, c.Cmd)
	}
	return append(out, readbackCmd)
}

// CollectDevice runs a table of whole-device reads, records the families
// the platform does not expose, and reads the QoS back with readbackCmd.
func CollectDevice(r Runner, dev *schema.Device, cmds []DeviceCommand, read qosread.Reader, readbackCmd string, absent ...string) (*readings.Device, error) {
	d := NewDevice(dev)
	byName := PortMap(d)
	for _, c := range cmds {
		if err := RunParse(r, c.Cmd, func(out string) error { return c.Parse(out, byName) }); err != nil {
			return nil, err
		}
		Source(d, c.Cmd, c.Fams...)
	}
	if len(absent) > 0 {
		Missing(d, absent...)
	}
	return d, Readback(r, d, read, readbackCmd)
}

// ReadPort runs per-port reads of port p into v, recording each command
// as the port's source and its template as the device's.
func ReadPort[T any](r Runner, d *readings.Device, p *readings.Port, v T, cmds ...PortCommand[T]) error {
	for _, c := range cmds {
		if err := RunParse(r, c.Cmd, func(out string) error { return c.Parse(out, v) }); err != nil {
			return err
		}
		tmpl := c.Template
		if tmpl == "" {
			tmpl = PortTemplate(c.Cmd, p.Name)
		}
		PortSource(d, p, c.Cmd, tmpl, c.Fams...)
	}
	return nil
}

// Field maps a key of a device's output to a metric family.
type Field struct {
	// Key is the key in the device's output.
	Key string
	// Fam is the metric family.
	Fam string
}

// Fill files each field present in src that read accepts into dst under
// its family.
func Fill[V, N any](dst map[string]N, src map[string]V, read func(V) (N, bool), fields ...Field) {
	for _, f := range fields {
		if x, ok := src[f.Key]; ok {
			if n, ok := read(x); ok {
				dst[f.Fam] = n
			}
		}
	}
}

// FillAt is Fill for the families of priority, queue or lane i.
func FillAt[V, N any](dst map[string]N, src map[string]V, read func(V) (N, bool), i int, fields ...Field) {
	for _, f := range fields {
		if x, ok := src[f.Key]; ok {
			if n, ok := read(x); ok {
				dst[readings.Key(f.Fam, i)] = n
			}
		}
	}
}

// Index reads a number 0–highest from a key, after prefix.
func Index(k, prefix string, highest int) (int, bool) {
	i, err := strconv.Atoi(strings.TrimPrefix(k, prefix))
	return i, err == nil && i >= 0 && i <= highest
}

// EachIndex calls fn for each entry of m keyed (after prefix) by a
// number 0–highest, in m's order.
func EachIndex(m map[string]any, prefix string, highest int, fn func(int, any)) {
	for k, x := range m {
		if i, ok := Index(k, prefix, highest); ok {
			fn(i, x)
		}
	}
}

// NumIndex reads v with read as a number 0–highest.
func NumIndex(read func(any) (uint64, bool), v any, highest uint64) (int, bool) {
	n, ok := read(v)
	return int(n), ok && n <= highest
}

// ObjsByPort calls fn for each object of m whose key is a port in ports.
func ObjsByPort(m map[string]any, ports map[string]*readings.Port, fn func(*readings.Port, map[string]any)) {
	for name, v := range m {
		if p, o := ports[name], Obj(v); p != nil && o != nil {
			fn(p, o)
		}
	}
}

// RowsByPort calls fn for each row whose name (as name reads it) is a
// port in ports.
func RowsByPort(rows []map[string]any, name func(map[string]any) string, ports map[string]*readings.Port, fn func(*readings.Port, map[string]any)) {
	for _, row := range rows {
		if p := ports[name(row)]; p != nil {
			fn(p, row)
		}
	}
}

// UpDown is a port's operational state.
func UpDown(up bool) string {
	if up {
		return "up"
	}
	return "down"
}

// Flag is a state gauge: 1 when set.
func Flag(set bool) float64 {
	if set {
		return 1
	}
	return 0
}

// Readback reads the running config with cmd and files each port's QoS.
func Readback(r Runner, d *readings.Device, read qosread.Reader, cmd string) error {
	var q *qosread.Device
	if err := RunParse(r, cmd, func(out string) (err error) {
		q, err = read(out)
		return err
	}); err != nil {
		return err
	}
	for _, port := range d.Ports {
		qp := q.Port(port.Name)
		rb := &readings.QoS{Trust: qp.Trust, DSCP: map[int]int{}, PFC: qp.PFC.List(), ECN: qp.ECNQueues()}
		if rb.PFC == nil {
			rb.PFC = []int{}
		}
		for dscp := 0; dscp < 64; dscp++ {
			pr, _ := qp.Classify(dscp, false)
			rb.DSCP[dscp] = pr
			// RoCE's DSCP as it leaves this port: the ingress marking,
			// then an egress rewrite of its priority.
			rp, out := qp.Classify(dscp, true)
			if v, ok := qp.RewritePrio[rp]; ok {
				out = v
			}
			if out != dscp {
				if rb.Remark == nil {
					rb.Remark = map[int]int{}
				}
				rb.Remark[dscp] = out
			}
		}
		port.QoS = rb
	}
	Source(d, cmd, readings.QoSReadback)
	return nil
}

// PortMap is the device's ports by name.
func PortMap(d *readings.Device) map[string]*readings.Port {
	m := map[string]*readings.Port{}
	for _, p := range d.Ports {
		m[p.Name] = p
	}
	return m
}

// Num reads a JSON number (or a numeric string) as uint64.
func Num(v any) (uint64, bool) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x < 1.8e19 {
			return uint64(x), true
		}
	case string:
		return U64(x)
	}
	return 0, false
}

// Flt reads a JSON number as float64.
func Flt(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// Obj is v as a JSON object (nil when it is not one).
func Obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// DecodeTop decodes a JSON object and returns its key's object.
func DecodeTop(out, key string) (map[string]any, error) {
	var top map[string]any
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		return nil, err
	}
	m, ok := top[key].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no %q object", key)
	}
	return m, nil
}

// DecodeAny decodes show output that must be a JSON object.
func DecodeAny(out string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return nil, err
	}
	if Obj(v) == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return v, nil
}

// U64 reads a counter, commas allowed.
func U64(s string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 10, 64)
	return n, err == nil
}
