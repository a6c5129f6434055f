package osmconf

import (
	"fmt"
	"strings"
)

// OpenSM 3.3.23's built-in QoS defaults (include/opensm/osm_base.h
// OSM_DEFAULT_QOS_*), used when neither qos_<prefix>_* nor qos_* sets a key.
const (
	DefaultQoSMaxVLs    = 15
	DefaultQoSHighLimit = 0
	DefaultQoSVLArbHigh = "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0"
	DefaultQoSVLArbLow  = "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4"
	DefaultQoSSL2VL     = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
)

// maxVLArbEntries is how many VL arbitration entries OpenSM programs per
// table (two blocks of 32); more are dropped with a warning.
const maxVLArbEntries = 64

// VLArbEntry is one VL arbitration table entry.
type VLArbEntry struct{ VL, Weight int }

// QoSSet is one qos_<prefix>_* set (prefix "ca", "swe", "sw0", "rtr"), with OpenSM's defaults
// (the plain qos_* keys, then the built-in defaults) for keys the file leaves out.
type QoSSet struct {
	MaxVLs, HighLimit int
	High, Low         []VLArbEntry
	SL2VL             [16]int
}

// QoSPrefixes returns the option set prefixes QoS accepts besides "" (the
// plain qos_* set): "ca", "swe", "sw0", "rtr".
func QoSPrefixes() []string { return []string{"ca", "swe", "sw0", "rtr"} }

// QoS resolves the qos_<prefix>_* set as osm_qos.c's qos_build_config does:
// each of max_vls, high_limit, vlarb_high, vlarb_low and sl2vl comes from
// qos_<prefix>_KEY when that is set, else from qos_KEY, else from the
// built-in default. prefix "" resolves the plain qos_* set alone.
//
// "Not set" is what OpenSM itself treats as unset (and what `opensm -c`
// writes for it): max_vls 0, a negative high_limit, the string "(null)".
// Like osm_subn_verify_config, it treats a max_vls above 15 and a
// high_limit above 255 as errors, where OpenSM logs "Invalid Cached Option"
// and uses the default. It also refuses what OpenSM programs as something
// else than written: a non-numeric or partly numeric value, a VL outside
// 0-14 (OpenSM uses VL mod 15) or a weight above 255 in a VL arbitration
// entry, an empty entry (which shifts every later entry), more than 64
// entries, an SL2VL list without exactly 16 VLs of 0-15. The error names
// the key and its line.
func (o *Options) QoS(prefix string) (QoSSet, error) {
	switch prefix {
	case "", "ca", "swe", "sw0", "rtr":
	default:
		return QoSSet{}, fmt.Errorf("qos prefix %q: want one of ca, swe, sw0, rtr (or empty for the plain qos_* set)", prefix)
	}
	var set QoSSet
	var err error
	if set.MaxVLs, err = o.resolveInt(prefix, "max_vls", DefaultQoSMaxVLs, parseMaxVLs); err != nil {
		return QoSSet{}, err
	}
	if set.HighLimit, err = o.resolveInt(prefix, "high_limit", DefaultQoSHighLimit, parseHighLimit); err != nil {
		return QoSSet{}, err
	}
	if set.High, err = o.resolveVLArb(prefix, "vlarb_high", DefaultQoSVLArbHigh); err != nil {
		return QoSSet{}, err
	}
	if set.Low, err = o.resolveVLArb(prefix, "vlarb_low", DefaultQoSVLArbLow); err != nil {
		return QoSSet{}, err
	}
	text, opt, ok := o.resolveString(prefix, "sl2vl")
	if !ok {
		text = DefaultQoSSL2VL
	}
	if set.SL2VL, err = parseSL2VL(text); err != nil {
		return QoSSet{}, optErr(opt, err)
	}
	return set, nil
}

// qosKeys returns the keys consulted for suffix, most specific first.
func qosKeys(prefix, suffix string) []string {
	if prefix == "" {
		return []string{"qos_" + suffix}
	}
	return []string{"qos_" + prefix + "_" + suffix, "qos_" + suffix}
}

// optErr wraps err with the key and line of opt.
func optErr(opt Option, err error) error {
	if opt.Key == "" {
		return fmt.Errorf("built-in default: %w", err)
	}
	return fmt.Errorf("opensm.conf line %d: %s %q: %w", opt.Line, opt.Key, opt.Value, err)
}

// resolveInt returns the first set value of the keys for suffix, or dflt.
// parse reports (value, set, error).
func (o *Options) resolveInt(prefix, suffix string, dflt int, parse func(string) (int, bool, error)) (int, error) {
	for _, key := range qosKeys(prefix, suffix) {
		opt, ok := o.lookup(key)
		if !ok {
			continue
		}
		v, set, err := parse(opt.Value)
		if err != nil {
			return 0, optErr(opt, err)
		}
		if set {
			return v, nil
		}
	}
	return dflt, nil
}

// resolveString returns the first set ("(null)" is unset) string value of
// the keys for suffix.
func (o *Options) resolveString(prefix, suffix string) (string, Option, bool) {
	for _, key := range qosKeys(prefix, suffix) {
		opt, ok := o.lookup(key)
		if ok && opt.Value != "(null)" {
			return opt.Value, opt, true
		}
	}
	return "", Option{}, false
}

// resolveVLArb resolves and parses one VL arbitration table.
func (o *Options) resolveVLArb(prefix, suffix, dflt string) ([]VLArbEntry, error) {
	text, opt, ok := o.resolveString(prefix, suffix)
	if !ok {
		text = dflt
	}
	entries, err := ParseVLArb(text)
	if err != nil {
		return nil, optErr(opt, err)
	}
	return entries, nil
}

// parseMaxVLs reads a max_vls value (opts_parse_uint32, then
// subn_verify_max_vls: 0 is unset, above 15 is invalid).
func parseMaxVLs(s string) (int, bool, error) {
	v, err := strictUint(s, 1<<32-1)
	if err != nil {
		return 0, false, err
	}
	if v > 15 {
		return 0, false, fmt.Errorf("max_vls %d above 15 (OpenSM: \"Invalid Cached Option\", uses the default 15)", v)
	}
	return int(v), v != 0, nil
}

// parseHighLimit reads a high_limit value (opts_parse_int32, then
// subn_verify_high_limit: negative is unset, above 255 is invalid).
func parseHighLimit(s string) (int, bool, error) {
	v, err := strictInt(s, -1<<31, 1<<31-1)
	if err != nil {
		return 0, false, err
	}
	if v > 255 {
		return 0, false, fmt.Errorf("high_limit %d above 255 (OpenSM: \"Invalid Cached Option\", uses the default 0)", v)
	}
	return int(v), v >= 0, nil
}

// ParseVLArb parses a VL arbitration list "VL:weight,VL:weight,..." as
// OpenSM's subn_verify_vlarb checks it, refusing what it warns about and
// what qos_build_config would misread: VL 0-14, weight 0-255, numbers in
// C notation (decimal, 0x hex, leading-0 octal), at most 64 entries, no
// empty entry. An empty text is an empty table.
func ParseVLArb(text string) ([]VLArbEntry, error) {
	entries := []VLArbEntry{}
	if text == "" {
		return entries, nil
	}
	for i, tok := range strings.Split(text, ",") {
		if strings.TrimLeft(tok, " \t\v\f\r") == "" {
			return nil, fmt.Errorf("entry %d is empty (OpenSM would read the following entries shifted)", i+1)
		}
		vlStr, wStr, ok := strings.Cut(tok, ":")
		if !ok {
			return nil, fmt.Errorf("entry %d %q: want VL:weight", i+1, tok)
		}
		vl, err := strictInt(vlStr, 0, 14)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: VL: %w (OpenSM uses VL mod 15)", i+1, tok, err)
		}
		w, err := strictInt(wStr, 0, 255)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: weight: %w (OpenSM keeps the low 8 bits)", i+1, tok, err)
		}
		entries = append(entries, VLArbEntry{VL: int(vl), Weight: int(w)})
		if len(entries) > maxVLArbEntries {
			return nil, fmt.Errorf("more than %d entries (OpenSM drops the excess)", maxVLArbEntries)
		}
	}
	return entries, nil
}

// ParseSL2VL parses an SL-to-VL list: exactly 16 comma-separated VLs 0-15
// (VL 15 drops the SL), as subn_verify_sl2vl checks it.
func ParseSL2VL(text string) ([16]int, error) {
	return parseSL2VL(text)
}

func parseSL2VL(text string) ([16]int, error) {
	var out [16]int
	toks := strings.Split(text, ",")
	if len(toks) != 16 {
		return out, fmt.Errorf("%d VLs listed, OpenSM needs exactly 16 (one per SL)", len(toks))
	}
	for i, tok := range toks {
		vl, err := strictInt(tok, 0, 15)
		if err != nil {
			return out, fmt.Errorf("SL %d %q: %w", i, tok, err)
		}
		out[i] = int(vl)
	}
	return out, nil
}
