package osmconf

import (
	"fmt"
	"strings"
)

// Problems lists what makes OpenSM reject the whole policy during its sweep, each as OpenSM
// logs it with our explanation ("ERR AC10: ... no DEFAULT qos-level"), e.g. no qos-level named
// DEFAULT, a match rule naming an undefined port group or qos-level, an SL above 15.
//
// The checks are osm_qos_policy_validate's (names compare case-insensitively;
// the match rules qos-ulps generates come after the file's, always with a
// level). OpenSM stops at the first; all are listed here. The ERR AC1x ones
// make OpenSM log ERR AC04 and run without the policy; an SL above 15 is
// accepted silently, which is why it is listed.
func (p *Policy) Problems() []string {
	if p == nil {
		return nil
	}
	var out []string
	hasDefaultULP := false
	for _, u := range p.ULPs {
		if strings.EqualFold(u.Text, "default") {
			hasDefaultULP = true
		}
	}
	if p.level("default") == nil && !hasDefaultULP {
		out = append(out, "ERR AC10: Default qos-level (default) not defined. — no qos-level named DEFAULT and no \"default\" rule in qos-ulps: OpenSM rejects the whole policy (ERR AC04)")
	}
	for i, r := range p.Rules {
		if p.level(r.Level) == nil {
			out = append(out, fmt.Sprintf("ERR AC11: qos-match-rule num %d: qos-level '%s' not found — the rule at line %d names no defined qos-level: OpenSM rejects the whole policy (ERR AC04)", i+1, r.Level, r.Line))
		}
		for _, g := range r.Source {
			if p.group(g) == nil {
				out = append(out, fmt.Sprintf("ERR AC12: qos-match-rule num %d: source port-group '%s' not found — the rule at line %d names an undefined port-group: OpenSM rejects the whole policy (ERR AC04)", i+1, g, r.Line))
			}
		}
		for _, g := range r.Destination {
			if p.group(g) == nil {
				out = append(out, fmt.Sprintf("ERR AC13: qos-match-rule num %d: destination port-group '%s' not found — the rule at line %d names an undefined port-group: OpenSM rejects the whole policy (ERR AC04)", i+1, g, r.Line))
			}
		}
	}
	for _, l := range p.Levels {
		if l.SL > 15 {
			out = append(out, fmt.Sprintf("qos-level '%s' (line %d): sl %d above 15 — OpenSM accepts it without a message and hands out SL %d (the low 4 bits) in PathRecords", l.Name, l.Line, l.SL, uint8(l.SL)&0xf))
		}
	}
	return out
}

// level finds a qos-level by name as OpenSM does (strcasecmp, first wins).
func (p *Policy) level(name string) *Level {
	for i := range p.Levels {
		if strings.EqualFold(p.Levels[i].Name, name) {
			return &p.Levels[i]
		}
	}
	return nil
}

// group finds a port-group by name (strcasecmp, first wins).
func (p *Policy) group(name string) *PortGroup {
	for i := range p.Groups {
		if strings.EqualFold(p.Groups[i].Name, name) {
			return &p.Groups[i]
		}
	}
	return nil
}

// CheckPartitions lists the qos-ulps IPoIB rules OpenSM refuses given the
// partitions of partitions.conf: their P_Key must name a partition with at
// least two full members, or OpenSM fails the whole parse ("IPoIB
// partition, pkey 0x8001 - partition doesn't exist" / "- partition has less
// than two full members", ERR AC05 then AC03). OpenSM always has the
// default partition 0x7fff (the SM port a full member). Members are counted
// from the file: a full ALL, ALL_CAS, ALL_SWITCHES or ALL_ROUTERS counts as
// two, as the fabric decides; each full GUID or SELF counts once (a GUID
// that is not in the fabric counts in OpenSM as nothing).
func (p *Policy) CheckPartitions(parts []Partition) []string {
	if p == nil {
		return nil
	}
	full := map[uint16]int{0x7fff: 1}
	exists := map[uint16]bool{0x7fff: true}
	selfCounted := map[uint16]bool{0x7fff: true}
	for _, pt := range parts {
		k := pt.Key()
		exists[k] = true
		for _, m := range pt.Members {
			if !m.Full && !m.Both {
				continue
			}
			switch m.Name {
			case "ALL", "ALL_CAS", "ALL_SWITCHES", "ALL_ROUTERS":
				full[k] += 2
			case "SELF":
				if !selfCounted[k] {
					full[k]++
					selfCounted[k] = true
				}
			default:
				full[k]++
			}
		}
	}
	var out []string
	seen := map[uint16]bool{}
	for _, u := range p.ULPs {
		if !u.IPoIB {
			continue
		}
		for _, pk := range u.PKeys {
			k := pk & 0x7fff
			if seen[k] {
				continue
			}
			seen[k] = true
			switch {
			case !exists[k]:
				out = append(out, fmt.Sprintf("line %d: IPoIB partition, pkey 0x%04X - partition doesn't exist (OpenSM fails the policy parse: ERR AC05, ERR AC03)", u.Line, k))
			case full[k] < 2:
				out = append(out, fmt.Sprintf("line %d: IPoIB partition, pkey 0x%04X - partition has less than two full members (OpenSM fails the policy parse: ERR AC05, ERR AC03)", u.Line, k))
			}
		}
	}
	return out
}
