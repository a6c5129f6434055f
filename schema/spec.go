package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// PlatformSpec is everything the intent language needs of one platform:
// whether it configures a host NIC, the port names it accepts, what it
// refuses in free text, its release syntax, the platform-only device
// attributes it reads and the limits of the names it renders. Each
// platform folder gives its own (platforms/<name>/spec.go); the loader
// takes the catalog of them in Options.Platforms and knows no platform
// of its own.
type PlatformSpec struct {
	// Name is the platform's name in the intent (a device's platform).
	Name Platform
	// Host is true for a platform that configures a host NIC rather
	// than a switch.
	Host bool
	// LinkLayers are the link layers of the fabrics the platform's
	// devices may belong to; nil means Ethernet only (SpeaksLinkLayer).
	LinkLayers []LinkLayer
	// Kinds are the device kinds the platform's devices may have; nil
	// means nic for a Host platform and every switch kind otherwise. A
	// subnet_manager device needs a platform that lists it (opensm).
	Kinds []Kind
	// Managed is true for a switch the subnet manager configures
	// (InfiniBand's ib_switch): nothing is rendered, pushed or read from
	// it by fabricgen itself.
	Managed bool
	// Ports is the platform's port-name rule, following the vendor's
	// running configuration.
	Ports PortNaming
	// Text is what the platform refuses in a description beyond the
	// common rule, and why; a platform that refuses nothing more says
	// why not.
	Text TextRule
	// Release is the platform's os_version syntax; nil for a platform
	// that renders the same for every release (it takes no os_version).
	Release *ReleaseForm
	// Attrs are the platform-only device attributes the platform reads.
	Attrs DeviceAttrs
	// NameLimits are the limits on names the platform renders longer
	// than the intent wrote them, checked at load.
	NameLimits []NameLimit
}

// TextRule is what one platform refuses in free text beyond the common
// rule, and why.
type TextRule struct {
	// Refuse are the characters refused.
	Refuse string
	// Why says why (or why nothing more is refused).
	Why string
}

// ReleaseForm is one platform's os_version syntax.
type ReleaseForm struct {
	// Re matches a release as written.
	Re *regexp.Regexp
	// Groups are the submatch indexes holding numbers, in order.
	Groups []int
	// Form and Example describe the syntax in an error message.
	Form, Example string
	// Default is the release assumed when os_version is not set.
	Default string
}

// The platform-only device attributes: a platform reads one when its
// DeviceAttrs says so, and the loader refuses it on the others.
const (
	AttrASIC   = "asic"
	AttrModel  = "model"
	AttrDriver = "driver"
	AttrHWSKU  = "hwsku"
	// AttrBufferModel is SONiC's buffer model (DEVICE_METADATA
	// buffer_model): which buffermgrd the switch runs.
	AttrBufferModel = "buffer_model"
)

// DeviceAttrs says which platform-only device attributes a platform
// reads, with what each needs of the platform.
type DeviceAttrs struct {
	// ASICs, when not empty, makes asic required, one of these.
	ASICs []string
	// ASICWhy says why asic is required (it ends the error message).
	ASICWhy string
	// Family, when set, makes the platform read model: it returns the
	// hardware family of a model name ("" for the default family).
	Family func(model string) (HardwareFamily, error)
	// Drivers, when not empty, makes the platform read driver, one of
	// these; DefaultDriver is the driver of a device that names none.
	Drivers       []string
	DefaultDriver string
	// HWSKU, when set, makes the platform read hwsku (optional): it checks
	// a hardware SKU name against the device's asic, and returns an error
	// saying what is wrong for a SKU the platform does not know or one of
	// another ASIC.
	HWSKU func(hwsku, asic string) error
	// BufferModels, when not empty, makes the platform read
	// buffer_model, one of these; DefaultBufferModel gives the model of
	// a device that names none, from its asic and release (what the
	// vendor's image is built with).
	BufferModels       []string
	DefaultBufferModel func(asic string, release Version) string
	// SKUHeadroom, when set, gives the lossless headroom the vendor's
	// data for a hardware SKU (hwsku) requires of a port of the speed
	// (Mb/s) and cable length (m): SONiC's pg_profile_lookup.ini row.
	SKUHeadroom func(hwsku string, speedMbps int64, cableM float64) (SKUHeadroom, bool)
}

// SKUHeadroom is the lossless headroom a SKU's own data gives one port.
type SKUHeadroom struct {
	// XOFF and Size are the row's xoff and size, in bytes.
	XOFF, Size int64
	// Source names the data ("DellEMC-Z9332f-O32 pg_profile_lookup.ini,
	// 400000 5m").
	Source string
}

// Names returns the attributes a reads, in a stable order.
func (a DeviceAttrs) Names() []string {
	var out []string
	if len(a.ASICs) > 0 {
		out = append(out, AttrASIC)
	}
	if a.Family != nil {
		out = append(out, AttrModel)
	}
	if len(a.Drivers) > 0 {
		out = append(out, AttrDriver)
	}
	if a.HWSKU != nil {
		out = append(out, AttrHWSKU)
	}
	if len(a.BufferModels) > 0 {
		out = append(out, AttrBufferModel)
	}
	return out
}

// The objects whose names a NameLimit checks.
const (
	// NameOfClass is a traffic_class's name.
	NameOfClass = "traffic_class"
	// NameOfACL is an acl's name.
	NameOfACL = "acl"
)

// NameLimit is one name a platform renders from an intent name, and the
// longest the platform accepts: Prefix + name (+ "-SEQ" with SeqSuffix),
// at most Max characters.
type NameLimit struct {
	// Object is what names it: NameOfClass or NameOfACL.
	Object string
	// What is the rendered object ("class-map", "access-list").
	What string
	// Prefix is what the renderer puts before the name.
	Prefix string
	// SeqSuffix adds "-SEQ", the largest sequence number of the ACL's
	// re-marking rules.
	SeqSuffix bool
	// Remarking limits the check to an ACL that re-marks DSCP.
	Remarking bool
	// Max is the longest name the platform accepts.
	Max int
}

// ParseVersion parses an os_version for the platform. A platform
// without a release form takes no os_version.
func (s PlatformSpec) ParseVersion(raw string) (Version, error) {
	f := s.Release
	if f == nil {
		return Version{}, fmt.Errorf("%s renders the same for every release, so it takes no os_version; remove it", s.Name)
	}
	m := f.Re.FindStringSubmatch(raw)
	if m == nil {
		return Version{}, fmt.Errorf("%q is not a %s release: write %s, e.g. %s", raw, s.Name, f.Form, f.Example)
	}
	v := Version{Raw: raw}
	for _, g := range f.Groups {
		if g >= len(m) || m[g] == "" {
			continue
		}
		n, err := strconv.Atoi(m[g])
		if err != nil {
			return Version{}, fmt.Errorf("%q is not a %s release: %w", raw, s.Name, err)
		}
		v.Parts = append(v.Parts, n)
	}
	return v, nil
}

// DefaultVersion is the release fabricgen renders for when a device of
// the platform sets no os_version (the zero Version without a release
// form).
func (s PlatformSpec) DefaultVersion() Version {
	if s.Release == nil {
		return Version{}
	}
	v, err := s.ParseVersion(s.Release.Default)
	if err != nil {
		panic("schema: bad default release for " + string(s.Name) + ": " + err.Error())
	}
	return v
}

// Problems names what spec lacks for the loader (no name, port-name
// check or form, free-text reason; a release form without a default
// that parses; an attribute without what it needs), in a stable order.
// A spec without a release form is one whose devices take no os_version;
// that a switch has one is checked on the registry (platform part
// "release forms").
func (s PlatformSpec) Problems() []string {
	var out []string
	if s.Name == "" {
		out = append(out, "no name")
	}
	if s.Ports.Check == nil || s.Ports.Form == "" {
		out = append(out, "no port-name check or form")
	}
	if s.Text.Why == "" {
		out = append(out, "no free-text rule (say why when it refuses nothing more)")
	}
	if s.Release != nil {
		if s.Release.Re == nil || s.Release.Form == "" || s.Release.Example == "" {
			out = append(out, "a release form without its regexp, form or example")
		} else if _, err := s.ParseVersion(s.Release.Default); err != nil {
			out = append(out, "a default release that does not parse: "+err.Error())
		}
	}
	if len(s.Attrs.ASICs) > 0 && s.Attrs.ASICWhy == "" {
		out = append(out, "asic without the reason it is required")
	}
	if len(s.Attrs.Drivers) > 0 && !contains(s.Attrs.Drivers, s.Attrs.DefaultDriver) {
		out = append(out, "driver without a default among its drivers")
	}
	for _, l := range s.NameLimits {
		if (l.Object != NameOfClass && l.Object != NameOfACL) || l.What == "" || l.Max <= 0 {
			out = append(out, fmt.Sprintf("a name limit without its object, rendered object or maximum: %+v", l))
		}
	}
	return out
}

// catalogProblems says what makes specs unusable as the loader's catalog
// (none at all, a spec with a field missing, a name twice), as a
// diagnostic's summary and detail, or "" and "".
func catalogProblems(specs []PlatformSpec) (summary, detail string) {
	if len(specs) == 0 {
		return "No platform catalog", "The loader was given no platforms (Options.Platforms is empty), so it cannot check any device's platform. Pass platforms.Catalog()."
	}
	var out []string
	seen := map[Platform]bool{}
	for i, s := range specs {
		for _, p := range s.Problems() {
			out = append(out, fmt.Sprintf("platform %q (entry %d): %s", s.Name, i+1, p))
		}
		if seen[s.Name] {
			out = append(out, fmt.Sprintf("platform %q (entry %d): listed twice", s.Name, i+1))
		}
		seen[s.Name] = true
	}
	if len(out) == 0 {
		return "", ""
	}
	return "Incomplete platform catalog", "The loader's platform catalog is incomplete (each platform folder's spec.go gives its entry): " + strings.Join(out, "; ") + "."
}

// catalog is the loader's view of Options.Platforms.
type catalog struct {
	specs  []PlatformSpec
	byName map[Platform]*PlatformSpec
	names  []string
}

func newCatalog(specs []PlatformSpec) catalog {
	c := catalog{specs: specs, byName: map[Platform]*PlatformSpec{}}
	for i := range specs {
		c.byName[specs[i].Name] = &specs[i]
		c.names = append(c.names, string(specs[i].Name))
	}
	return c
}

// spec returns platform p's spec. A platform the catalog does not hold
// (which the loader has reported) is a switch that accepts every port
// name and reads no platform-only attribute.
func (c catalog) spec(p Platform) *PlatformSpec {
	if s, ok := c.byName[p]; ok {
		return s
	}
	return &PlatformSpec{Name: p, Ports: PortNaming{func(string) bool { return true }, "any name"}}
}

// readers lists the platforms that read attr, "a, b".
func (c catalog) readers(attr string) string {
	var out []string
	for _, s := range c.specs {
		if contains(s.Attrs.Names(), attr) {
			out = append(out, string(s.Name))
		}
	}
	return strings.Join(out, ", ")
}

// SpeaksLinkLayer reports whether the platform's devices may belong to a
// fabric of link layer ll (nil LinkLayers: Ethernet only).
func (s PlatformSpec) SpeaksLinkLayer(ll LinkLayer) bool {
	if len(s.LinkLayers) == 0 {
		return ll == LinkEthernet || ll == ""
	}
	for _, l := range s.LinkLayers {
		if l == ll {
			return true
		}
	}
	return false
}

// FitsKind reports whether a device of kind k may use the platform
// (Kinds; nil: nic on a Host platform, the switch kinds otherwise).
func (s PlatformSpec) FitsKind(k Kind) bool {
	if len(s.Kinds) > 0 {
		for _, x := range s.Kinds {
			if x == k {
				return true
			}
		}
		return false
	}
	switch k {
	case KindSubnetManager:
		return false
	case KindNIC:
		return s.Host
	}
	return !s.Host
}

// kindNames lists the platforms a device of kind k may use, "a or b".
func (c catalog) kindNames(k Kind) string {
	var out []string
	for _, s := range c.specs {
		if s.FitsKind(k) {
			out = append(out, string(s.Name))
		}
	}
	return strings.Join(out, " or ")
}

// layerNames lists the platforms that speak link layer ll, "a, b".
func (c catalog) layerNames(ll LinkLayer) string {
	var out []string
	for _, s := range c.specs {
		if s.SpeaksLinkLayer(ll) {
			out = append(out, string(s.Name))
		}
	}
	if len(out) == 0 {
		return "none in this build"
	}
	return strings.Join(out, ", ")
}
