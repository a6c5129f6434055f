package schema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Version is the software release a device runs (its os_version), as
// written and as numbers for comparison.
type Version struct {
	// Raw is the release as written: "4.30.1F", "10.3(2)F", "23.4R1",
	// "5.15", "202311".
	Raw string
	// Parts are its numeric components in order: 4.30.1F is [4 30 1],
	// 10.3(2)F [10 3 2], 23.4R1 [23 4 1], 202311 [202311].
	Parts []int
}

// String returns the release as written.
func (v Version) String() string { return v.Raw }

// AtLeast reports whether v is the release parts or a later one; missing
// components count as 0, so 5.15 is at least 5.15.0.
func (v Version) AtLeast(parts ...int) bool {
	for i, want := range parts {
		got := 0
		if i < len(v.Parts) {
			got = v.Parts[i]
		}
		if got != want {
			return got > want
		}
	}
	return true
}

// releaseForm is one platform's os_version syntax.
type releaseForm struct {
	re *regexp.Regexp
	// groups are the submatch indexes holding numbers, in order.
	groups []int
	// form and example describe the syntax in an error message.
	form, example string
	// def is the release assumed when os_version is not set.
	def string
}

var releaseForms = map[Platform]releaseForm{
	AristaEOS: {regexp.MustCompile(`^(\d{1,2})\.(\d{1,3})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?([A-Z]{1,2})?$`), []int{1, 2, 3, 4},
		"MAJOR.MINOR[.PATCH][TRAIN]", `"4.30.1F"`, "4.30.0F"},
	CiscoNXOS: {regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})(?:\((\d{1,3})[a-z]?\))?([A-Z])?$`), []int{1, 2, 3},
		"MAJOR.MINOR[(MAINTENANCE)][TRAIN]", `"10.3(2)F"`, "10.3(2)F"},
	JuniperJunos: {regexp.MustCompile(`^(\d{2})\.(\d)(?:R(\d{1,2})(?:[-.][A-Za-z0-9]+){0,3})?(?:-EVO)?$`), []int{1, 2, 3},
		"YY.QRN[-SN]", `"23.4R1"`, "23.4R1"},
	NvidiaCumulus: {regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})(?:\.(\d{1,2}))?$`), []int{1, 2, 3},
		"MAJOR.MINOR[.PATCH]", `"5.15"`, "5.14"},
	SONiC: {regexp.MustCompile(`^(20\d{2}(?:0[1-9]|1[0-2]))(?:\.(\d{1,3}))?$`), []int{1, 2},
		"YYYYMM[.N] (the release branch)", `"202311"`, "202311"},
}

// ParseVersion parses an os_version for platform p. Host platforms have no
// release-dependent syntax and take no os_version.
func ParseVersion(p Platform, s string) (Version, error) {
	f, ok := releaseForms[p]
	if !ok {
		return Version{}, fmt.Errorf("%s renders the same for every release, so it takes no os_version; remove it", p)
	}
	m := f.re.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("%q is not a %s release: write %s, e.g. %s", s, p, f.form, f.example)
	}
	v := Version{Raw: s}
	for _, g := range f.groups {
		if g >= len(m) || m[g] == "" {
			continue
		}
		n, err := strconv.Atoi(m[g])
		if err != nil {
			return Version{}, fmt.Errorf("%q is not a %s release: %w", s, p, err)
		}
		v.Parts = append(v.Parts, n)
	}
	return v, nil
}

// DefaultVersion is the release fabricgen renders for when a device of
// platform p sets no os_version (the zero Version for host platforms).
func DefaultVersion(p Platform) Version {
	f, ok := releaseForms[p]
	if !ok {
		return Version{}
	}
	v, err := ParseVersion(p, f.def)
	if err != nil {
		panic("schema: bad default release for " + string(p) + ": " + err.Error())
	}
	return v
}

// DefaultRestoration is the PFC watchdog restoration time of a
// pfc_watchdog that sets none (or its poll_interval, when that is longer):
// the SONiC pfcwd and Junos default, rendered on every platform that has a
// restoration knob.
const DefaultRestoration = 200 * time.Millisecond

// ASICs are the SONiC ASIC families (the asic_type SONiC's own templates
// branch on), in the order the documentation lists them.
var ASICs = []string{"mellanox", "broadcom", "barefoot", "marvell", "cisco-8000"}

// JunosFamily is the hardware family a juniper_junos model belongs to; it
// selects the statements the family documents.
type JunosFamily string

// The Junos hardware families fabricgen renders for.
const (
	// JunosQFX5000 is QFX5100 … QFX5700 and EX4600 (the default).
	JunosQFX5000 JunosFamily = "qfx5000"
	// JunosQFX10000 is QFX10002, QFX10008 and QFX10016.
	JunosQFX10000 JunosFamily = "qfx10000"
	// JunosEX is the EX Series other than EX4600.
	JunosEX JunosFamily = "ex"
	// JunosMX is the MX Series routers.
	JunosMX JunosFamily = "mx"
)

// IsQFX reports whether the family is a QFX switch.
func (f JunosFamily) IsQFX() bool { return f == JunosQFX5000 || f == JunosQFX10000 }

// JunosFamilyOf returns the family of a juniper_junos model name ("" for
// the default family), matched on its prefix without letter case.
func JunosFamilyOf(model string) (JunosFamily, error) {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return JunosQFX5000, nil
	case strings.HasPrefix(m, "qfx10"):
		return JunosQFX10000, nil
	case strings.HasPrefix(m, "qfx5"), strings.HasPrefix(m, "ex46"):
		return JunosQFX5000, nil
	case strings.HasPrefix(m, "ex"):
		return JunosEX, nil
	case strings.HasPrefix(m, "mx"):
		return JunosMX, nil
	}
	return "", fmt.Errorf("%q is not a model fabricgen renders Junos for: use a QFX5000 (qfx5120-48y, qfx5240-64od, ex4650-48y), QFX10000 (qfx10002-36q), EX (ex4400-48mp) or MX (mx304) model name", model)
}

// NICDrivers are the kernel drivers a linux_dcb NIC may name with driver.
var NICDrivers = []string{"mlx5_core", "ice", "bnxt_en"}

// DefaultNICDriver is the driver a linux_dcb NIC is rendered for when it
// names none.
const DefaultNICDriver = "mlx5_core"
