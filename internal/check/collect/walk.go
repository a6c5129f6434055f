package collect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// The pieces every collector shares: running a command and naming it in
// a parse error, the command tables of the collectors that read the
// whole device with each command and of those that read each port with
// its own, and the walks over parsed show output (ports by name,
// priorities and queues by number, fields to metric families).

// deviceCommand is a read of the whole device: the command, the families
// it feeds and its parser, which files what it reads into the ports by
// name.
type deviceCommand struct {
	cmd   string
	fams  []string
	parse func(string, map[string]*check.Port) error
}

// portCommand is a read of one port into v (the port, or its QoS): the
// command, the families it feeds and its parser. The device's source is
// the command with IF in place of the port unless template is set.
type portCommand[T any] struct {
	cmd      string
	fams     []string
	parse    func(string, T) error
	template string
}

// domFamilies are the transceiver families: per-lane powers, module
// temperature and voltage, and their thresholds.
var domFamilies = []string{check.RxPower, check.TxPower, check.RxPowerLoAlarm, check.RxPowerLoWarn,
	check.TxPowerLoAlarm, check.TxPowerLoWarn, check.TxPowerHiWarn, check.TxPowerHiAlarm, check.Temperature, check.TempHiWarn, check.TempHiAlarm,
	check.Voltage, check.VoltLoWarn, check.VoltHiWarn}

// runParse runs cmd and parses its output; a parse error names the command.
func runParse(r Runner, cmd string, parse func(string) error) error {
	out, err := r.Run(cmd)
	if err != nil {
		return err
	}
	if err := parse(out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// commandList is the commands of a table, then the read-back's.
func commandList(cmds []deviceCommand, readbackCmd string) []string {
	out := make([]string, 0, len(cmds)+1)
	for _, c := range cmds {
		out = append(out, c.cmd)
	}
	return append(out, readbackCmd)
}

// collectDevice runs a table of whole-device reads, records the families
// the platform does not expose, and reads the QoS back with readbackCmd.
func collectDevice(r Runner, dev *schema.Device, cmds []deviceCommand, p schema.Platform, readbackCmd string, absent ...string) (*check.Device, error) {
	d := newDevice(dev)
	byName := portMap(d)
	for _, c := range cmds {
		if err := runParse(r, c.cmd, func(out string) error { return c.parse(out, byName) }); err != nil {
			return nil, err
		}
		source(d, c.cmd, c.fams...)
	}
	if len(absent) > 0 {
		missing(d, absent...)
	}
	return d, readback(r, d, p, readbackCmd)
}

// readPort runs per-port reads of port p into v, recording each command
// as the port's source and its template as the device's.
func readPort[T any](r Runner, d *check.Device, p *check.Port, v T, cmds ...portCommand[T]) error {
	for _, c := range cmds {
		if err := runParse(r, c.cmd, func(out string) error { return c.parse(out, v) }); err != nil {
			return err
		}
		tmpl := c.template
		if tmpl == "" {
			tmpl = portTemplate(c.cmd, p.Name)
		}
		portSource(d, p, c.cmd, tmpl, c.fams...)
	}
	return nil
}

// field maps a key of a device's output to a metric family.
type field struct{ key, fam string }

// fill files each field present in src that read accepts into dst under
// its family.
func fill[V, N any](dst map[string]N, src map[string]V, read func(V) (N, bool), fields ...field) {
	for _, f := range fields {
		if x, ok := src[f.key]; ok {
			if n, ok := read(x); ok {
				dst[f.fam] = n
			}
		}
	}
}

// fillAt is fill for the families of priority, queue or lane i.
func fillAt[V, N any](dst map[string]N, src map[string]V, read func(V) (N, bool), i int, fields ...field) {
	for _, f := range fields {
		if x, ok := src[f.key]; ok {
			if n, ok := read(x); ok {
				dst[check.Key(f.fam, i)] = n
			}
		}
	}
}

// index reads a number 0–highest from a key, after prefix.
func index(k, prefix string, highest int) (int, bool) {
	i, err := strconv.Atoi(strings.TrimPrefix(k, prefix))
	return i, err == nil && i >= 0 && i <= highest
}

// eachIndex calls fn for each entry of m keyed (after prefix) by a
// number 0–highest, in m's order.
func eachIndex(m map[string]any, prefix string, highest int, fn func(int, any)) {
	for k, x := range m {
		if i, ok := index(k, prefix, highest); ok {
			fn(i, x)
		}
	}
}

// numIndex reads v with read as a number 0–highest.
func numIndex(read func(any) (uint64, bool), v any, highest uint64) (int, bool) {
	n, ok := read(v)
	return int(n), ok && n <= highest
}

// objsByPort calls fn for each object of m whose key is a port in ports.
func objsByPort(m map[string]any, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) {
	for name, v := range m {
		if p, o := ports[name], obj(v); p != nil && o != nil {
			fn(p, o)
		}
	}
}

// rowsByPort calls fn for each row whose name (as name reads it) is a
// port in ports.
func rowsByPort(rows []map[string]any, name func(map[string]any) string, ports map[string]*check.Port, fn func(*check.Port, map[string]any)) {
	for _, row := range rows {
		if p := ports[name(row)]; p != nil {
			fn(p, row)
		}
	}
}

// upDown is a port's operational state.
func upDown(up bool) string {
	if up {
		return "up"
	}
	return "down"
}

// flag is a state gauge: 1 when set.
func flag(set bool) float64 {
	if set {
		return 1
	}
	return 0
}

// readback reads the running config with cmd and files each port's QoS.
func readback(r Runner, d *check.Device, p schema.Platform, cmd string) error {
	var q *qosread.Device
	if err := runParse(r, cmd, func(out string) (err error) {
		q, err = qosread.Read(p, out)
		return err
	}); err != nil {
		return err
	}
	for _, port := range d.Ports {
		qp := q.Port(port.Name)
		rb := &check.QoS{Trust: qp.Trust, DSCP: map[int]int{}, PFC: qp.Lossless(), ECN: qp.ECNQueues()}
		if rb.PFC == nil {
			rb.PFC = []int{}
		}
		for dscp := 0; dscp < 64; dscp++ {
			pr, _ := qp.Classify(dscp, false)
			rb.DSCP[dscp] = pr
			if _, out := qp.Classify(dscp, true); out != dscp {
				if rb.Remark == nil {
					rb.Remark = map[int]int{}
				}
				rb.Remark[dscp] = out
			}
		}
		port.QoS = rb
	}
	source(d, cmd, check.QoSReadback)
	return nil
}

// portMap is the device's ports by name.
func portMap(d *check.Device) map[string]*check.Port {
	m := map[string]*check.Port{}
	for _, p := range d.Ports {
		m[p.Name] = p
	}
	return m
}

// num reads a JSON number (or a numeric string) as uint64.
func num(v any) (uint64, bool) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x < 1.8e19 {
			return uint64(x), true
		}
	case string:
		return u64(x)
	}
	return 0, false
}

// flt reads a JSON number as float64.
func flt(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// obj is v as a JSON object (nil when it is not one).
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// decodeTop decodes a JSON object and returns its key's object.
func decodeTop(out, key string) (map[string]any, error) {
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

// decodeAny decodes show output that must be a JSON object.
func decodeAny(out string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return nil, err
	}
	if obj(v) == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return v, nil
}
