package schema

import "slices"

// Level is how specific the attachment that set a port's QoS value is, in
// the order the attachment chain resolves it: a more specific level beats
// a less specific one. LevelNone marks a value that does not come from
// the QoS attachment chain (a NIC's rdma attribute, a link's speed).
type Level int

// The attachment levels, least specific first.
const (
	// LevelNone is a value outside the QoS attachment chain.
	LevelNone Level = iota
	// LevelClass is a traffic class's default (or a built-in default).
	LevelClass
	// LevelFabric is the fabric block's qos_policy.
	LevelFabric
	// LevelRole is a role block's qos_policy.
	LevelRole
	// LevelDevice is the device's qos_policy.
	LevelDevice
	// LevelPortPolicy is the port's qos_policy.
	LevelPortPolicy
	// LevelPortAttr is the port's own attribute (mtu).
	LevelPortAttr
)

// String names the level as an operator reads it.
func (l Level) String() string {
	switch l {
	case LevelClass:
		return "class default"
	case LevelFabric:
		return "fabric policy"
	case LevelRole:
		return "role policy"
	case LevelDevice:
		return "device policy"
	case LevelPortPolicy:
		return "port policy"
	case LevelPortAttr:
		return "port attribute"
	}
	return "not attached"
}

// SourceLevel is the attachment level of the port's QoS value set at src:
// the port's own mtu, else the most specific attached policy that sets a
// value at src, else the classes' defaults (LevelClass). The chain
// (PortQoS.Policies) holds the fabric, role, device and port policies that
// exist, in that order; the port's and its device's are known, and of the
// two broad ones left a lone policy counts as the fabric's (every port
// that has a fabric policy has it first, so ports compare consistently).
func (p *Port) SourceLevel(src Range) Level {
	if p == nil {
		return LevelNone
	}
	if p.MTU.Set && p.MTU.Src == src && !src.IsZero() {
		return LevelPortAttr
	}
	if p.QoS == nil {
		return LevelClass
	}
	chain := p.QoS.Policies
	levels := make([]Level, len(chain))
	i := len(chain) - 1
	if p.Policy != nil && i >= 0 && chain[i] == p.Policy {
		levels[i] = LevelPortPolicy
		i--
	}
	if p.Device != nil && p.Device.Policy != nil && i >= 0 && chain[i] == p.Device.Policy {
		levels[i] = LevelDevice
		i--
	}
	for j := 0; j <= i; j++ {
		levels[j] = LevelFabric + Level(min(j, 1))
	}
	if src.IsZero() {
		return LevelClass
	}
	for j := len(chain) - 1; j >= 0; j-- {
		if chain[j].Sets(src) {
			return levels[j]
		}
	}
	return LevelClass
}

// Sets reports whether the policy sets a value at src (any attribute or
// map entry, queue block settings included).
func (pol *QoSPolicy) Sets(src Range) bool {
	if pol == nil || src.IsZero() {
		return false
	}
	if pol.ClassesRange == src || pol.Trust.Src == src || pol.DefaultPriority.Src == src || pol.PFC.Src == src ||
		pol.Watchdog.Src == src || pol.WatchdogOff.Src == src || pol.MTU.Src == src || pol.LinkPause.Src == src {
		return true
	}
	b := pol.Buffer
	if b.Headroom.Src == src || b.XOFF.Src == src || b.XON.Src == src || b.IngressLosslessPool.Src == src ||
		b.EgressLossyPool.Src == src || b.DynamicThreshold.Src == src {
		return true
	}
	for _, m := range []map[int]Value[int]{pol.DSCPMap, pol.QueueMap, pol.PCPMap} {
		for _, v := range m {
			if v.Src == src {
				return true
			}
		}
	}
	for _, q := range pol.Queues {
		if q.Range == src || q.ECN.Src == src || q.ECNOff.Src == src || q.Sched.Src == src || q.Weight.Src == src || q.Shaper.Src == src {
			return true
		}
	}
	return false
}

// Side is one value of a consistency comparison: places (ports, devices,
// classes, links' ends) that should agree but hold different values.
type Side struct {
	// Key identifies the value; sides with equal keys hold the same value
	// (set at different lines, say) and are counted and ranked together.
	Key string
	// Src is where this side's value is set (zero when unknown).
	Src Range
	// Holders is how many places hold the value at Src (at least one is
	// assumed).
	Holders int
	// Level is the attachment level of Src for a value from the QoS
	// chain (Port.SourceLevel), LevelNone otherwise.
	Level Level
	// Intent marks the value the declared intent asks for (the traffic
	// classes' lossless priorities, say): it is never the outlier while
	// another value is not.
	Intent bool
	// Label names the place and its value for a related location, e.g.
	// "leaf1:Ethernet1/1 enables PFC on 3 (the other switch port)".
	Label string
}

// Rank orders the sides from the one most likely to be the change (the
// outlier, first) to the reference the others are measured against
// (last). A value holding the intent ranks after every value that does
// not; between values that all come from the attachment chain the more
// specific attachment (the highest Level of its sides) is the outlier, an
// override being the change; otherwise the value fewest places hold
// (Holders summed over its sides) is. Ties keep the order the values first
// appear in sides, so a caller breaks them by the order it lists sides
// in. Sides of one value are adjacent in the result, in input order.
func Rank(sides []Side) []int {
	type value struct {
		key    string
		first  int
		count  int
		level  Level
		intent bool
		sides  []int
	}
	var vals []*value
	byKey := map[string]*value{}
	chain := true
	for i, s := range sides {
		v := byKey[s.Key]
		if v == nil {
			v = &value{key: s.Key, first: i}
			byKey[s.Key] = v
			vals = append(vals, v)
		}
		v.count += max(s.Holders, 1)
		v.level = max(v.level, s.Level)
		v.intent = v.intent || s.Intent
		v.sides = append(v.sides, i)
		if s.Level == LevelNone {
			chain = false
		}
	}
	slices.SortStableFunc(vals, func(a, b *value) int {
		if a.intent != b.intent {
			if a.intent {
				return 1
			}
			return -1
		}
		if chain && a.level != b.level {
			return int(b.level) - int(a.level)
		}
		if a.count != b.count {
			return a.count - b.count
		}
		return a.first - b.first
	})
	out := make([]int, 0, len(sides))
	for _, v := range vals {
		out = append(out, v.sides...)
	}
	return out
}

// Outlier chooses the primary location of a consistency finding: the
// side Rank puts first, and the other sides as its related locations (in
// Rank order, the reference last). It returns -1 and nil for no sides.
func Outlier(sides []Side) (primary int, related []int) {
	if len(sides) == 0 {
		return -1, nil
	}
	r := Rank(sides)
	return r[0], r[1:]
}

// Deviants is every side whose value differs from the reference (the
// value Rank puts last), in Rank order: each is a place to change. With
// two values it is the outlier's sides; with none or one, nothing.
func Deviants(sides []Side) []int {
	if len(sides) == 0 {
		return nil
	}
	r := Rank(sides)
	ref := sides[r[len(r)-1]].Key
	var out []int
	for _, i := range r {
		if sides[i].Key != ref {
			out = append(out, i)
		}
	}
	return out
}

// Reference is the side the others are measured against (Rank's last),
// or -1 for no sides.
func Reference(sides []Side) int {
	if len(sides) == 0 {
		return -1
	}
	r := Rank(sides)
	return r[len(r)-1]
}
