package sonic

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
	"github.com/fabricgen/fabricgen/schema"
)

// ASICs are the SONiC ASIC families (the asic_type SONiC's own templates
// branch on), in the order the documentation lists them.
var ASICs = []string{"mellanox", "broadcom", "barefoot", "marvell", "cisco-8000"}

// releaseRe is the SONiC release syntax: YYYYMM[.N], the release branch.
var releaseRe = regexp.MustCompile(`^(20\d{2}(?:0[1-9]|1[0-2]))(?:\.(\d{1,3}))?$`)

// spec is what the intent language needs of the platform. Port names are
// the CONFIG_DB PORT keys: "Ethernet0", "Ethernet8". No character is
// refused beyond the common rule: the text is a JSON string value in
// CONFIG_DB, which the renderer escapes.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name: name,
		Ports: schema.PortNaming{
			Check: func(s string) bool { return schema.SlashNumbers(s, "Ethernet", 1, 1) },
			Form:  `EthernetN, the CONFIG_DB PORT key (e.g. "Ethernet0", "Ethernet8")`,
		},
		Text: schema.TextRule{Why: "CONFIG_DB holds it as a JSON string, which the renderer escapes"},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2},
			Form: "YYYYMM[.N] (the release branch)", Example: `"202311"`, Default: "202311"},
		Attrs: schema.DeviceAttrs{ASICs: ASICs,
			ASICWhy:      "SONiC's own QoS templates differ by ASIC (the PFC priority to priority-group map exists only on mellanox and barefoot).",
			HWSKU:        checkHWSKU,
			BufferModels: BufferModels, DefaultBufferModel: DefaultBufferModel,
			SKUHeadroom: skuHeadroom},
	}
}

// BufferModels are SONiC's buffer models (DEVICE_METADATA buffer_model):
// "traditional", where buffermgrd looks the lossless headroom up in the
// SKU's pg_profile_lookup.ini, and "dynamic" (202012 on), where
// buffermgrd computes it.
var BufferModels = []string{"traditional", "dynamic"}

// DefaultBufferModel is the buffer model SONiC's image for the asic and
// release is built with (skus.DefaultBufferModel: dynamic on mellanox
// from 202012, traditional elsewhere).
func DefaultBufferModel(asic string, release schema.Version) string {
	branch := 0
	if len(release.Parts) > 0 {
		branch = release.Parts[0]
	}
	return skus.DefaultBufferModel(asic, branch)
}

// skuHeadroom is the lossless headroom a SKU's pg_profile_lookup.ini row
// gives a port of the speed and cable length (the row buffermgrd would
// take: the shortest cable at least that long); false when the SKU has no
// such row (the view refuses the port then).
func skuHeadroom(hwsku string, speedMbps int64, cableM float64) (schema.SKUHeadroom, bool) {
	t, err := skus.Load()
	if err != nil {
		return schema.SKUHeadroom{}, false
	}
	found := t.Find(hwsku)
	if len(found) == 0 {
		return schema.SKUHeadroom{}, false
	}
	s := found[0]
	speed := strconv.FormatInt(speedMbps, 10)
	cable, ok := s.CableFor(speed, cableM)
	if !ok {
		return schema.SKUHeadroom{}, false
	}
	r, ok := s.Row(speed, cable)
	if !ok {
		return schema.SKUHeadroom{}, false
	}
	xoff, err1 := strconv.ParseInt(r.Xoff, 10, 64)
	size, err2 := strconv.ParseInt(r.Size, 10, 64)
	if err1 != nil || err2 != nil {
		return schema.SKUHeadroom{}, false
	}
	return schema.SKUHeadroom{XOFF: xoff, Size: size, Source: fmt.Sprintf("%s pg_profile_lookup.ini, speed %s cable %s", hwsku, speed, cable)}, true
}

// checkHWSKU accepts a SKU of sonic-buildimage that has a
// pg_profile_lookup.ini (platforms/sonic/skus) whose platform_asic is of
// the device's ASIC family ("broadcom-dnx" is a broadcom).
func checkHWSKU(hwsku, asic string) error {
	t, err := skus.Load()
	if err != nil {
		return err
	}
	found := t.Find(hwsku)
	if len(found) == 0 {
		var near []string
		for _, s := range t.SKUs {
			if strings.EqualFold(s.HWSKU, hwsku) && !slices.Contains(near, s.HWSKU) {
				near = append(near, s.HWSKU)
			}
		}
		hint := ""
		if len(near) > 0 {
			hint = fmt.Sprintf(" (did you mean %q?)", near[0])
		}
		return fmt.Errorf("%q is not a SKU with a pg_profile_lookup.ini in sonic-buildimage%s: write the name DEVICE_METADATA|localhost|hwsku shows, or leave hwsku unset, and fabricgen does not check the lossless rows", hwsku, hint)
	}
	if asic == "" {
		return nil
	}
	var others []string
	for _, s := range found {
		if s.ASIC == "" || s.ASIC == asic || strings.HasPrefix(s.ASIC, asic+"-") {
			return nil
		}
		others = append(others, s.ASIC+" ("+s.Platform+")")
	}
	return fmt.Errorf("%q is a SKU of another ASIC family, %s, than asic = %q", hwsku, strings.Join(others, ", "), asic)
}
