package dataplane

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Kind is a data-plane fault: a physical or traffic problem, not
// configuration, so it survives apply.
type Kind string

// The data-plane faults. Those taking a PORT act on that port of the
// device (and, for the link, on its peer where the fault is the link's).
const (
	// DirtyOptic: receive power -18 dBm, pre-FEC BER 1e-5, CRC and FEC
	// errors rising, the link up at full speed (the seed's first case).
	DirtyOptic Kind = "dirty-optic"
	// BadCable: errors rising (BER 1e-6, CRC, uncorrectable FEC) with
	// normal optical power.
	BadCable Kind = "bad-cable"
	// WeakLaser: the port transmits -10.5 dBm; its peer receives -13 dBm.
	WeakLaser Kind = "weak-laser"
	// HotOptic: the module runs at 74 °C.
	HotOptic Kind = "hot-optic"
	// LowVoltage: the module's supply reads 3.05 V.
	LowVoltage Kind = "low-voltage"
	// SpeedDown: the link comes up at half the intent's speed on half
	// the lanes, both ends.
	SpeedDown Kind = "speed-down"
	// Flap: the link goes down and up every 5 s (both ends count it).
	Flap Kind = "flap"
	// PauseStorm: the port sends PFC pause frames continuously on every
	// priority its configuration enables PFC on.
	PauseStorm Kind = "pause-storm"
	// Remark: the device rewrites RoCE data's DSCP on egress to VALUE.
	Remark Kind = "remark"
	// Congest: the device's RoCE egress queues are congested; VALUE says
	// how they cope: marks (ECN, where configured), pauses (ECN above
	// XOFF: PFC, no marks) or drops.
	Congest Kind = "congest"
	// NPOff: the host NIC answers no ECN mark with a CNP.
	NPOff Kind = "np-off"
	// CNPUnmapped: the switch drops every CNP (its DSCP maps to no queue).
	CNPUnmapped Kind = "cnp-unmapped"
	// QPError: an RC queue pair of the host goes to SQE with completion
	// error syndrome VALUE (e.g. 0x12).
	QPError Kind = "qp-error"
)

// kindSpec says what value a kind takes.
type kindSpec struct {
	value string // "PORT", "DSCP", "marks|pauses|drops", "CODE", ""
	help  string
}

var kinds = map[Kind]kindSpec{
	DirtyOptic:  {"PORT", "receive power -18 dBm, BER 1e-5, CRC rising, link up at full speed"},
	BadCable:    {"PORT", "CRC and FEC errors rising with normal optical power"},
	WeakLaser:   {"PORT", "transmit power -10.5 dBm (the peer receives -13 dBm)"},
	HotOptic:    {"PORT", "module temperature 74 °C"},
	LowVoltage:  {"PORT", "module supply 3.05 V"},
	SpeedDown:   {"PORT", "the link runs at half speed on half the lanes"},
	Flap:        {"PORT", "the link flaps every 5 s"},
	PauseStorm:  {"PORT", "the port sends PFC pauses continuously"},
	Remark:      {"DSCP", "the device rewrites RoCE's DSCP on egress"},
	Congest:     {"marks|pauses|drops", "the device's RoCE queues are congested"},
	NPOff:       {"", "the host NIC sends no CNP for ECN marks"},
	CNPUnmapped: {"", "the switch drops CNPs"},
	QPError:     {"CODE", "a queue pair goes to SQE with this error syndrome"},
}

// Kinds lists the data-plane fault kinds, sorted.
func Kinds() []Kind {
	out := make([]Kind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Forms describes every kind for help: "dirty-optic=PORT (…), …".
func Forms() string {
	var parts []string
	for _, k := range Kinds() {
		s := kinds[k]
		form := string(k)
		if s.value != "" {
			form += "=" + s.value
		}
		parts = append(parts, form)
	}
	return strings.Join(parts, ", ")
}

// Fault is one data-plane fault on a device.
type Fault struct {
	Kind  Kind   `json:"kind"`
	Value string `json:"value,omitempty"`
}

// String is "KIND" or "KIND=VALUE".
func (f Fault) String() string {
	if f.Value == "" {
		return string(f.Kind)
	}
	return string(f.Kind) + "=" + f.Value
}

var (
	rePort = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_./:-]{0,63}$`)
	reCode = regexp.MustCompile(`^0[xX][0-9a-fA-F]{1,2}$`)
)

// IsKind reports whether the setting's key is a data-plane fault kind.
func IsKind(setting string) bool {
	k, _, _ := strings.Cut(setting, "=")
	_, ok := kinds[Kind(k)]
	return ok
}

// Parse reads one KIND[=VALUE] setting.
func Parse(setting string) (Fault, error) {
	k, v, hasValue := strings.Cut(setting, "=")
	spec, ok := kinds[Kind(k)]
	if !ok {
		return Fault{}, fmt.Errorf("%q: unknown data-plane fault: use %s", setting, Forms())
	}
	f := Fault{Kind: Kind(k), Value: v}
	switch spec.value {
	case "":
		if hasValue {
			return Fault{}, fmt.Errorf("%q: %s takes no value", setting, k)
		}
	case "PORT":
		if !rePort.MatchString(v) {
			return Fault{}, fmt.Errorf("%q: %s takes a port name: %s=PORT (%s)", setting, k, k, spec.help)
		}
	case "DSCP":
		n, ok := atoi(v)
		if !ok || n > 63 {
			return Fault{}, fmt.Errorf("%q: %s takes a DSCP 0–63: %s=0", setting, k, k)
		}
	case "CODE":
		if !reCode.MatchString(v) {
			return Fault{}, fmt.Errorf("%q: %s takes a hex error syndrome such as 0x12", setting, k)
		}
		f.Value = strings.ToLower(v)
	default:
		if !strings.Contains("|"+spec.value+"|", "|"+v+"|") || v == "" {
			return Fault{}, fmt.Errorf("%q: %s takes one of %s", setting, k, spec.value)
		}
	}
	return f, nil
}

// needsPort reports whether the kind names a port of the device.
func (k Kind) needsPort() bool { return kinds[k].value == "PORT" }

// optical reports whether the kind acts on a port's optics (a passive
// copper cable has none).
func (k Kind) optical() bool {
	return k == DirtyOptic || k == WeakLaser || k == HotOptic || k == LowVoltage
}

// hostOnly and switchOnly say where a kind applies.
func (k Kind) hostOnly() bool   { return k == NPOff || k == QPError }
func (k Kind) switchOnly() bool { return k == Remark || k == Congest || k == CNPUnmapped }

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
