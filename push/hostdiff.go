package push

import (
	"fmt"
	"strconv"
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
	// Entries, when above 1, says the change stands for that many
	// numbered entries of one table (Setting "eth0 dscp2prio", First and
	// Last their numbers when they run without a gap, else -1) that go
	// from unset to New: see HostSettingSummary.
	Entries     int
	First, Last int
}

// Unset is the value of a setting the host does not show.
const Unset = "<unset>"

// String is "setting: old -> new", or for a run of unset entries
// "eth0 dscp2prio 0-63: 64 unset entries set to 0".
func (c SettingChange) String() string {
	if c.Entries > 1 {
		name := c.Setting
		if c.First >= 0 {
			name += fmt.Sprintf(" %d-%d", c.First, c.Last)
		}
		return fmt.Sprintf("%s: %d unset entries set to %s", name, c.Entries, c.New)
	}
	return c.Setting + ": " + c.Old + SettingArrow + c.New
}

// Settings is how many settings the change stands for (1, or Entries).
func (c SettingChange) Settings() int { return max(c.Entries, 1) }

// minEntries is the smallest run of unset table entries set to one value
// that HostSettingSummary shows as one line.
const minEntries = 4

// HostSettingSummary is HostSettingChanges with the numbered entries of a
// table ("eth0 dscp2prio 17") that go from unset to one value summed up
// in one change at the place of the first (a fresh host gets 64 DSCP
// entries set to 0: one line, not 64). Other changes are kept as they are.
func HostSettingSummary(diffText string) []SettingChange {
	changes := HostSettingChanges(diffText)
	type run struct {
		at          int
		n           int
		first, last int
		gap         bool
	}
	runs := map[[2]string]*run{}
	var out []SettingChange
	for _, c := range changes {
		table, num, ok := tableEntry(c.Setting)
		if !ok || c.Old != Unset {
			continue
		}
		k := [2]string{table, c.New}
		r, ok := runs[k]
		if !ok {
			runs[k] = &run{first: num, last: num}
			r = runs[k]
		} else if num != r.last+1 {
			r.gap = true
		}
		r.n++
		r.last = num
	}
	for _, c := range changes {
		table, _, ok := tableEntry(c.Setting)
		if !ok || c.Old != Unset {
			out = append(out, c)
			continue
		}
		r := runs[[2]string{table, c.New}]
		switch {
		case r.n < minEntries:
			out = append(out, c)
		case r.at == 0:
			r.at = len(out) + 1
			sc := SettingChange{Setting: table, Old: Unset, New: c.New, Entries: r.n, First: r.first, Last: r.last}
			if r.gap {
				sc.First, sc.Last = -1, -1
			}
			out = append(out, sc)
		}
	}
	return out
}

// tableEntry splits "eth0 dscp2prio 17" into the table "eth0 dscp2prio"
// and the entry 17.
func tableEntry(setting string) (string, int, bool) {
	i := strings.LastIndexByte(setting, ' ')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(setting[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return setting[:i], n, true
}

// HostSettingCount counts what a host's diff changes: the settings whose
// value changes, and of them the unset table entries that get a value
// (which HostSettingSummary shows in one line per table).
func HostSettingCount(diffText string) (changed, filled int) {
	for _, c := range HostSettingSummary(diffText) {
		changed += c.Settings()
		if c.Entries > 1 {
			filled += c.Entries
		}
	}
	return changed, filled
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
	const unset = Unset
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

// HostSettingText is HostSettingSummary as text, one "setting: old -> new"
// line per change (one line per table of unset entries set); empty when
// nothing changes.
func HostSettingText(diffText string) string {
	var b strings.Builder
	for _, c := range HostSettingSummary(diffText) {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}
