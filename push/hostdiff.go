package push

import (
	"strings"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// SettingArrow separates a host setting's old and new values in plan and
// drift output. It is ASCII so that the lines can be grepped and pasted
// into a shell or a ticket unchanged.
const SettingArrow = " -> "

// SettingChange is one host setting a diff changes.
type SettingChange struct {
	// Setting is the fact's name, "eth0 dscp2prio 26".
	Setting string
	// Old and New are its values; "<unset>" when the host does not show it.
	Old, New string
}

// String is "setting: old -> new".
func (c SettingChange) String() string {
	return c.Setting + ": " + c.Old + SettingArrow + c.New
}

// IsHost reports whether platform is a host NIC platform, whose diffs are
// lists of "setting = value" facts rather than configuration text.
func IsHost(platform string) bool {
	d, err := platforms.Dialect(schema.Platform(platform))
	return err == nil && d.Host
}

// HostSettingChanges reads a host's unified diff of "setting = value"
// lines and returns one change per setting whose value differs, in the
// order the diff names them. A setting only on the old side goes to
// "<unset>" and one only on the new side comes from "<unset>"; settings
// the diff shows as context, or removes and adds with the same value, are
// left out. Lines that are not "setting = value" are ignored.
func HostSettingChanges(diffText string) []SettingChange {
	type pair struct {
		old, new       string
		hasOld, hasNew bool
	}
	var order []string
	m := map[string]*pair{}
	get := func(id string) *pair {
		p, ok := m[id]
		if !ok {
			p = &pair{}
			m[id] = p
			order = append(order, id)
		}
		return p
	}
	for _, l := range strings.Split(diffText, "\n") {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || l == "" {
			continue
		}
		sign := l[0]
		if sign != '-' && sign != '+' {
			continue
		}
		id, v, ok := strings.Cut(l[1:], " = ")
		if !ok {
			continue
		}
		p := get(id)
		if sign == '-' {
			p.old, p.hasOld = v, true
		} else {
			p.new, p.hasNew = v, true
		}
	}
	const unset = "<unset>"
	var out []SettingChange
	for _, id := range order {
		p := m[id]
		if !p.hasOld {
			p.old = unset
		}
		if !p.hasNew {
			p.new = unset
		}
		if p.old != p.new {
			out = append(out, SettingChange{Setting: id, Old: p.old, New: p.new})
		}
	}
	return out
}

// HostSettingText is HostSettingChanges as text, one "setting: old -> new"
// line per change; empty when nothing changes.
func HostSettingText(diffText string) string {
	var b strings.Builder
	for _, c := range HostSettingChanges(diffText) {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}
