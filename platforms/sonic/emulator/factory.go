package emulator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// DefaultRelease is the release of a switch whose spec names none: the
// platform's default os_version (platforms/sonic/spec.go, ReleaseForm).
const DefaultRelease = "202311"

// DefaultBufferModel is the buffer model of a switch whose spec names
// none: skus.DefaultBufferModel for the asic's family (mellanox when the
// spec names no asic) and the release (DefaultRelease when it names none).
func DefaultBufferModel(asic, release string) string {
	return skus.DefaultBufferModel(family(asic), releaseNumber(release))
}

// releaseNumber is a SONiC release's branch, YYYYMM ("202311.2" is
// 202311); DefaultRelease's for an empty or unreadable one.
func releaseNumber(release string) int {
	if release == "" {
		release = DefaultRelease
	}
	head, _, _ := strings.Cut(release, ".")
	n, err := strconv.Atoi(head)
	if err != nil {
		n, _ = strconv.Atoi(DefaultRelease)
	}
	return n
}

// family is the asic family of a spec's asic; an empty one is mellanox,
// the lab's switch before specs carried an asic.
func family(asic string) string {
	switch {
	case asic == "":
		return "mellanox"
	case strings.HasPrefix(asic, "marvell"):
		return "marvell"
	case strings.HasPrefix(asic, "broadcom"):
		return "broadcom"
	}
	return asic
}

// identity is the switch an emulator is: what DEVICE_METADATA says of it,
// the SKU whose pg_profile_lookup.ini buffermgrd reads, and the release
// whose buffermgrd behaviour applies.
type identity struct {
	asic     string
	hwsku    string
	platform string
	release  int
	// model is the buffer model buffermgrd runs ("traditional" or
	// "dynamic"), fixed at start as on a switch.
	model string
	// sku is the SKU's lookup table; nil when lookup.tsv has none.
	sku *skus.SKU
	// tmpl is the family's factory buffer template; nil when the lab
	// has none (cisco-8000: its device files are not in sonic-buildimage).
	tmpl *bufferTemplate
}

// findSKU returns the SKU of lookup.tsv named hwsku, preferring one of the
// asic family and a platform of the given name.
func findSKU(t *skus.Table, hwsku, asic, platform string) *skus.SKU {
	var best *skus.SKU
	for _, s := range t.Find(hwsku) {
		s := s
		if platform != "" && s.Platform == platform {
			return &s
		}
		if best == nil && (s.ASIC == "" || family(s.ASIC) == family(asic)) {
			best = &s
		}
	}
	return best
}

// newIdentity is the identity of a switch from its spec: Spec.HWSKU, else
// the family's default SKU; Spec.BufferModel, else DefaultBufferModel.
func newIdentity(sp cli.Spec) (identity, error) {
	t, err := skus.Load()
	if err != nil {
		return identity{}, err
	}
	id := identity{asic: family(sp.ASIC), release: releaseNumber(sp.Release), model: sp.BufferModel}
	if id.model == "" {
		id.model = DefaultBufferModel(sp.ASIC, sp.Release)
	}
	id.tmpl = bufferTemplates[id.asic]
	id.hwsku = sp.HWSKU
	if id.hwsku == "" && id.tmpl != nil {
		id.hwsku = id.tmpl.hwsku
	}
	if id.hwsku != "" {
		pref := ""
		if id.tmpl != nil && id.hwsku == id.tmpl.hwsku {
			pref = id.tmpl.platform
		}
		if id.sku = findSKU(t, id.hwsku, id.asic, pref); id.sku != nil {
			id.platform = id.sku.Platform
		} else if id.tmpl != nil && id.hwsku == id.tmpl.hwsku {
			id.platform = id.tmpl.platform
		} else {
			return identity{}, fmt.Errorf("hwsku %q: platforms/sonic/skus/lookup.tsv has no SKU of that name for the lab to emulate", id.hwsku)
		}
	}
	return id, nil
}

// runningIdentity is the identity of a switch started from a
// config_db.json: its DEVICE_METADATA hwsku and platform (Spec.HWSKU when
// it names none) and its buffer_model (traditional when it has none, as
// buffermgrd starts in the traditional model without one).
func runningIdentity(sp cli.Spec, db map[string]any) identity {
	id := identity{asic: family(sp.ASIC), release: releaseNumber(sp.Release), model: "traditional"}
	meta := entry(db, "DEVICE_METADATA", "localhost")
	str := func(k string) string { v, _ := meta[k].(string); return v }
	if str("buffer_model") == "dynamic" {
		id.model = "dynamic"
	}
	id.hwsku, id.platform = str("hwsku"), str("platform")
	if id.hwsku == "" {
		id.hwsku = sp.HWSKU
	}
	if t, err := skus.Load(); err == nil && id.hwsku != "" {
		id.sku = findSKU(t, id.hwsku, id.asic, id.platform)
		if id.sku != nil && id.platform == "" {
			id.platform = id.sku.Platform
		}
	}
	return id
}

// entry returns db[table][key] as an object, nil when there is none.
func entry(db map[string]any, table, key string) map[string]any {
	t, _ := db[table].(map[string]any)
	e, _ := t[key].(map[string]any)
	return e
}

// bufferTemplate is what a SKU's buffer templates in sonic-buildimage
// write to CONFIG_DB on a LeafRouter (t1) with every port active (no
// DEVICE_NEIGHBOR, so buffers_config.j2 counts every PORT as active).
// A spec naming another SKU of the family gets the family's template
// with that SKU's identity and lookup rows.
type bufferTemplate struct {
	// hwsku and platform name the family's default SKU.
	hwsku, platform string
	// source is the template the tables follow, for the comments.
	source string
	// cable is the template's default_cable, every port's CABLE_LENGTH.
	cable string
	// tables returns BUFFER_POOL, BUFFER_PROFILE and any profile lists
	// (dynamic: the dynamic_mode branches).
	tables func(dynamic bool) map[string]map[string]any
	// pg and queue are the per-port BUFFER_PG and BUFFER_QUEUE entries:
	// index range to profile.
	pg    func(dynamic bool) map[string]string
	queue map[string]string
	// lists are the per-port BUFFER_PORT_INGRESS/EGRESS_PROFILE_LIST
	// profile_list values (empty: the template writes none).
	ingressList, egressList string
	// generic is true when the SKU's templates include
	// files/build_templates/buffers_config.j2, which adds the dynamic
	// model's DEFAULT_LOSSLESS_BUFFER_PARAMETER and
	// LOSSLESS_TRAFFIC_PATTERN.
	generic bool
}

// obj builds a CONFIG_DB entry of string fields from name, value pairs.
func obj(kv ...string) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// genericPG is buffers_config.j2's own BUFFER_PG: PG 0 lossy, and 3-4
// "NULL" in the dynamic model (buffermgrdyn then computes the profile).
func genericPG(dynamic bool) map[string]string {
	m := map[string]string{"0": "ingress_lossy_profile"}
	if dynamic {
		m["3-4"] = "NULL"
	}
	return m
}

// bufferTemplates are the lab's factory buffer templates by asic family.
var bufferTemplates = map[string]*bufferTemplate{
	// device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/buffers.json.j2
	// (buffers_dynamic.json.j2 for the dynamic model) includes
	// files/build_templates/buffers_config.j2 with
	// buffers_defaults_t1.j2 (pool sizes) and
	// x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_objects.j2.
	"mellanox": {
		hwsku: "ACS-MSN4700", platform: "x86_64-mlnx_msn4700-r0",
		source: "device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700/buffers_defaults_t1.j2", cable: "5m",
		tables: func(dynamic bool) map[string]map[string]any {
			sized := func(size string, kv ...string) map[string]any {
				if dynamic {
					return obj(kv...)
				}
				return obj(append([]string{"size", size}, kv...)...)
			}
			return map[string]map[string]any{
				"BUFFER_POOL": {
					"ingress_lossless_pool": sized("20627456", "type", "ingress", "mode", "dynamic"),
					"ingress_lossy_pool":    sized("20627456", "type", "ingress", "mode", "dynamic"),
					"egress_lossless_pool":  obj("size", "60817392", "type", "egress", "mode", "dynamic"),
					"egress_lossy_pool":     sized("20627456", "type", "egress", "mode", "dynamic"),
				},
				"BUFFER_PROFILE": {
					"ingress_lossless_profile": obj("pool", "ingress_lossless_pool", "size", "0", "dynamic_th", "7"),
					"ingress_lossy_profile":    obj("pool", "ingress_lossy_pool", "size", "0", "dynamic_th", "3"),
					"egress_lossless_profile":  obj("pool", "egress_lossless_pool", "size", "0", "dynamic_th", "7"),
					"egress_lossy_profile":     obj("pool", "egress_lossy_pool", "size", "9216", "dynamic_th", "7"),
					"q_lossy_profile":          obj("pool", "egress_lossy_pool", "size", "0", "dynamic_th", "3"),
				},
			}
		},
		pg:          genericPG,
		queue:       map[string]string{"0-2": "q_lossy_profile", "3-4": "egress_lossless_profile", "5-6": "q_lossy_profile"},
		ingressList: "ingress_lossless_profile,ingress_lossy_profile",
		egressList:  "egress_lossless_profile,egress_lossy_profile",
		generic:     true,
	},
	// device/dell/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/
	// buffers.json.j2 includes files/build_templates/buffers_config.j2
	// with buffers_defaults_t1.j2 (pools and profiles only).
	"broadcom": {
		hwsku: "DellEMC-Z9332f-O32", platform: "x86_64-dellemc_z9332f_d1508-r0",
		source: "device/dell/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/buffers_defaults_t1.j2", cable: "300m",
		tables: func(bool) map[string]map[string]any {
			return map[string]map[string]any{
				"BUFFER_POOL": {
					"ingress_lossless_pool": obj("size", "66394076", "type", "ingress", "mode", "dynamic", "xoff", "27200352"),
					"egress_lossless_pool":  obj("size", "38462204", "type", "egress", "mode", "static"),
				},
				"BUFFER_PROFILE": {
					"ingress_lossy_profile":   obj("pool", "ingress_lossless_pool", "size", "0", "static_th", "66394076"),
					"egress_lossless_profile": obj("pool", "egress_lossless_pool", "size", "0", "static_th", "67117468"),
					"egress_lossy_profile":    obj("pool", "egress_lossless_pool", "size", "1778", "dynamic_th", "1"),
				},
			}
		},
		pg:      genericPG,
		queue:   map[string]string{"0-2": "egress_lossy_profile", "3-4": "egress_lossless_profile", "5-6": "egress_lossy_profile"},
		generic: true,
	},
	// device/barefoot/x86_64-accton_as9516_32d-r0/newport/buffers.json.j2
	// includes files/build_templates/buffers_config.j2 with
	// buffers_defaults_t1.j2 (pools, profiles, generate_queue_buffers).
	"barefoot": {
		hwsku: "newport", platform: "x86_64-accton_as9516_32d-r0",
		source: "device/barefoot/x86_64-accton_as9516_32d-r0/newport/buffers_defaults_t1.j2", cable: "5m",
		tables: func(dynamic bool) map[string]map[string]any {
			lossless := obj("size", "43067728", "type", "ingress", "mode", "dynamic")
			if dynamic {
				lossless["xoff"] = "3153920"
			}
			return map[string]map[string]any{
				"BUFFER_POOL": {
					"ingress_lossless_pool": lossless,
					"ingress_lossy_pool":    obj("size", "3520000", "type", "ingress", "mode", "dynamic"),
					"egress_lossless_pool":  obj("size", "46749824", "type", "egress", "mode", "dynamic"),
					"egress_lossy_pool":     obj("size", "2463824", "type", "egress", "mode", "dynamic"),
				},
				"BUFFER_PROFILE": {
					"ingress_lossy_profile":   obj("pool", "ingress_lossy_pool", "size", "4096", "dynamic_th", "3"),
					"egress_lossless_profile": obj("pool", "egress_lossless_pool", "size", "0", "dynamic_th", "7"),
					"egress_lossy_profile":    obj("pool", "egress_lossy_pool", "size", "4096", "dynamic_th", "3"),
					"q_lossy_profile":         obj("pool", "egress_lossy_pool", "size", "4096", "dynamic_th", "3"),
				},
			}
		},
		pg:      genericPG,
		queue:   map[string]string{"0-2": "q_lossy_profile", "3-4": "egress_lossless_profile"},
		generic: true,
	},
	// device/wistron/x86_64-wistron_6512_32r-r0/wistron_6512_32r/
	// buffers.json.j2 (= buffers_defaults_t1.j2) writes the whole
	// document itself, without buffers_config.j2: lossless PGs 3-4 on a
	// static profile, and no dynamic-model variant.
	"marvell": {
		hwsku: "wistron_6512_32r", platform: "x86_64-wistron_6512_32r-r0",
		source: "device/wistron/x86_64-wistron_6512_32r-r0/wistron_6512_32r/buffers_defaults_t1.j2", cable: "40m",
		tables: func(bool) map[string]map[string]any {
			return map[string]map[string]any{
				"BUFFER_POOL": {
					"ingress_lossless_pool": obj("size", "51691264", "type", "ingress", "mode", "dynamic", "xoff", "17708800"),
					"lossy_pool":            obj("size", "18874368", "type", "egress", "mode", "dynamic", "xoff", "0"),
					"egress_lossless_pool":  obj("size", "70565632", "type", "egress", "mode", "static"),
				},
				"BUFFER_PROFILE": {
					"ingress_lossless_profile": obj("pool", "ingress_lossless_pool", "xoff", "135520", "size", "1518", "dynamic_th", "1", "xon_offset", "9408"),
					"egress_lossless_profile":  obj("pool", "ingress_lossless_pool", "size", "0", "static_th", "10243072"),
					"ingress_lossy_profile":    obj("pool", "lossy_pool", "size", "0", "static_th", "10243072"),
					"egress_lossy_profile":     obj("pool", "lossy_pool", "size", "1518", "dynamic_th", "2"),
				},
			}
		},
		pg: func(bool) map[string]string {
			return map[string]string{"0": "ingress_lossy_profile", "1-2": "ingress_lossy_profile", "3-4": "ingress_lossless_profile", "5-7": "ingress_lossy_profile"}
		},
		queue: map[string]string{"0-2": "egress_lossy_profile", "3-4": "egress_lossless_profile", "5-7": "egress_lossy_profile"},
	},
}

// factoryBuffers adds the SKU template's CABLE_LENGTH and buffer tables
// for ports to db.
func (id identity) factoryBuffers(db map[string]any, ports []string) {
	cable := map[string]any{}
	for _, p := range ports {
		cable[p] = "5m"
	}
	db["CABLE_LENGTH"] = map[string]any{"AZURE": cable}
	t := id.tmpl
	if t == nil {
		return
	}
	dynamic := id.model == "dynamic"
	for _, p := range ports {
		cable[p] = t.cable
	}
	for name, tab := range t.tables(dynamic) {
		db[name] = tab
	}
	pg, queue := map[string]any{}, map[string]any{}
	in, eg := map[string]any{}, map[string]any{}
	for _, p := range ports {
		for ids, prof := range t.pg(dynamic) {
			pg[p+"|"+ids] = obj("profile", prof)
		}
		for ids, prof := range t.queue {
			queue[p+"|"+ids] = obj("profile", prof)
		}
		if t.ingressList != "" {
			in[p] = obj("profile_list", t.ingressList)
			eg[p] = obj("profile_list", t.egressList)
		}
	}
	if len(ports) > 0 {
		db["BUFFER_PG"], db["BUFFER_QUEUE"] = pg, queue
		if len(in) > 0 {
			db["BUFFER_PORT_INGRESS_PROFILE_LIST"], db["BUFFER_PORT_EGRESS_PROFILE_LIST"] = in, eg
		}
	}
	// files/build_templates/buffers_config.j2, dynamic_mode branch (no
	// shared headroom pool: max_headroom_size is absent).
	if dynamic && t.generic {
		db["DEFAULT_LOSSLESS_BUFFER_PARAMETER"] = map[string]any{"AZURE": obj("default_dynamic_th", "0")}
		db["LOSSLESS_TRAFFIC_PATTERN"] = map[string]any{"AZURE": obj("mtu", "1024", "small_packet_percentage", "50")}
	}
}
