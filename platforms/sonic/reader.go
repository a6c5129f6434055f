package sonic

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/fabricgen/fabricgen/internal/qosread"
)

// read reads CONFIG_DB as `sonic-cfggen -d --print-data` prints it:
// DSCP_TO_TC_MAP and TC_TO_QUEUE_MAP bound per port (or globally) in
// PORT_QOS_MAP, pfc_enable, tc_to_dscp_map (an egress rewrite),
// QUEUE wred_profile with ECN, and PFC_WD.
func read(text string) (*qosread.Device, error) {
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &db); err != nil {
		return nil, fmt.Errorf("qosread: CONFIG_DB is not JSON: %w", err)
	}
	d := qosread.NewDevice()
	str := func(v any) string {
		s, _ := v.(string)
		return s
	}
	dscpMaps := map[string][64]int{}
	for name, m := range db["DSCP_TO_TC_MAP"] {
		var dm [64]int
		for k, v := range m {
			dk, ok1 := qosread.Atoi(k)
			tc, ok2 := qosread.Atoi(str(v))
			if ok1 && ok2 && qosread.DSCPOK(dk) && qosread.Prio(tc) {
				dm[dk] = tc
			}
		}
		dscpMaps[name] = dm
	}
	queueMaps := map[string][8]int{}
	for name, m := range db["TC_TO_QUEUE_MAP"] {
		qm := qosread.NewPort().Queue
		for k, v := range m {
			tc, ok1 := qosread.Atoi(k)
			q, ok2 := qosread.Atoi(str(v))
			if ok1 && ok2 && qosread.Prio(tc) && qosread.Prio(q) {
				qm[tc] = q
			}
		}
		queueMaps[name] = qm
	}
	// TC_TO_DSCP_MAP bound as a port's tc_to_dscp_map rewrites a
	// traffic class's DSCP as it leaves (a hand edit: fabricgen renders
	// none).
	rewriteMaps := map[string]map[int]int{}
	for name, m := range db["TC_TO_DSCP_MAP"] {
		rm := map[int]int{}
		for k, v := range m {
			tc, ok1 := qosread.Atoi(k)
			dv, ok2 := qosread.Atoi(str(v))
			if ok1 && ok2 && qosread.Prio(tc) && qosread.DSCPOK(dv) {
				rm[tc] = dv
			}
		}
		rewriteMaps[name] = rm
	}
	apply := func(p *qosread.Port, m map[string]any) {
		if rm, ok := rewriteMaps[str(m["tc_to_dscp_map"])]; ok {
			p.RewritePrio = maps.Clone(rm)
		}
		if dm, ok := dscpMaps[str(m["dscp_to_tc_map"])]; ok {
			p.DSCP, p.Trust = dm, "dscp"
		}
		if qm, ok := queueMaps[str(m["tc_to_queue_map"])]; ok {
			p.Queue = qm
		}
		if v, ok := m["pfc_enable"]; ok {
			p.PFC = 0
			for _, c := range qosread.Ints(str(v)) {
				if qosread.Prio(c) {
					p.PFC = p.PFC.With(c)
				}
			}
		}
	}
	if g, ok := db["PORT_QOS_MAP"]["global"]; ok {
		apply(&d.Default, g)
	}
	for name := range db["PORT"] {
		d.Named(name)
	}
	for name, m := range db["PORT_QOS_MAP"] {
		if name != "global" {
			apply(d.Named(name), m)
		}
	}
	for key, m := range db["QUEUE"] {
		port, qs, ok := strings.Cut(key, "|")
		if !ok {
			continue
		}
		prof := db["WRED_PROFILE"][str(m["wred_profile"])]
		ecn := str(prof["ecn"])
		if prof == nil || ecn == "" || ecn == "ecn_none" {
			continue
		}
		for _, q := range qosread.Ints(qs) {
			if qosread.Prio(q) {
				d.Named(port).ECN[q] = true
			}
		}
	}
	for name := range db["PFC_WD"] {
		if name != "GLOBAL" {
			d.Named(name).Watchdog = true
		}
	}
	return d, nil
}
