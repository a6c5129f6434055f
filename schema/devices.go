package schema

import (
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// MaxInstances bounds count and for_each per block: four times the
// 65,536 NICs of examples/scale, and far below what exhausts memory.
const MaxInstances = 1 << 18

var metaSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "count"}}}

// instance is one expansion of a block with for_each or count.
type instance struct {
	// key is "" for a plain block, else the for_each key or count index.
	key string
	// each is true when the key came from for_each (name defaults to it).
	each bool
	// expanded is true for every for_each or count instance.
	expanded bool
	ctx      *hcl.EvalContext
	// parent and index make a count instance's ctx on demand (materialize),
	// so the 65,536 child contexts of a large count are built in parallel.
	parent *hcl.EvalContext
	index  int
}

// materialize builds a count instance's child EvalContext.
func (in *instance) materialize() {
	if in.ctx != nil || in.parent == nil {
		return
	}
	in.ctx = in.parent.NewChild()
	in.ctx.Variables = map[string]cty.Value{"count": cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(int64(in.index))})}
}

// expand peels for_each/count off a block and returns the remaining body
// and one instance per element, each with its own child EvalContext (for
// count, built by materialize).
func (r *resolver) expand(b *hcl.Block, ctx *hcl.EvalContext) (hcl.Body, []instance) {
	meta, rest, ds := b.Body.PartialContent(metaSchema)
	r.d.addHCL(ds)
	fe, hasFE := meta.Attributes["for_each"]
	cnt, hasCount := meta.Attributes["count"]
	switch {
	case hasFE && hasCount:
		r.d.errorf(cnt.NameRange, "Both for_each and count", "A block may use for_each or count, not both. Remove one.")
		return rest, nil
	case hasCount:
		v, ok := r.d.eval(cnt, ctx)
		if !ok {
			return rest, nil
		}
		n, ok := r.d.number(v, cnt.Expr.Range(), `"count"`, 0, MaxInstances)
		if !ok {
			return rest, nil
		}
		out := make([]instance, n)
		for i := range n {
			out[i] = instance{key: itoa(i), expanded: true, parent: ctx, index: i}
		}
		return rest, out
	case hasFE:
		v, ok := r.d.eval(fe, ctx)
		if !ok {
			return rest, nil
		}
		t := v.Type()
		if !t.IsMapType() && !t.IsObjectType() && !t.IsSetType() && !t.IsListType() && !t.IsTupleType() {
			r.d.errorf(fe.Expr.Range(), "Invalid for_each", "for_each must be a map, an object, a set of strings or a list, not %s.", t.FriendlyName())
			return rest, nil
		}
		if n := v.LengthInt(); n > MaxInstances {
			r.d.errorf(fe.Expr.Range(), "Too many instances", "for_each has %d elements; a block may expand to at most %d instances.", n, MaxInstances)
			return rest, nil
		}
		var out []instance
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if t.IsSetType() {
				sk, err := convert.Convert(ev, cty.String)
				if err != nil || sk.IsNull() {
					r.d.errorf(fe.Expr.Range(), "Invalid for_each", "A set used in for_each must hold strings; convert it with toset([...]) of strings.")
					return rest, nil
				}
				k = sk
			}
			ks, err := convert.Convert(k, cty.String)
			if err != nil {
				r.d.errorf(fe.Expr.Range(), "Invalid for_each", "for_each keys must be strings or numbers.")
				return rest, nil
			}
			child := ctx.NewChild()
			child.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"key": k, "value": ev})}
			out = append(out, instance{key: ks.AsString(), each: true, expanded: true, ctx: child})
		}
		return rest, out
	}
	return rest, []instance{{ctx: ctx}}
}

// parallelEach runs fn(i) for each i in [0, n) on at most GOMAXPROCS
// goroutines, handing out one index at a time: for independent jobs of
// uneven size (the locals of one evaluation round). A round can hold
// thousands of locals; a goroutine each would cost memory for nothing.
func parallelEach(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

// parallel runs fn(i) for i in [0, n) on all cores.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	const chunk = 64
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				start := next
				next += chunk
				mu.Unlock()
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
}

var deviceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "name"}, {Name: "kind", Required: true}, {Name: "platform", Required: true},
		{Name: "mgmt_address"}, {Name: "qos_policy"}, {Name: "host"}, {Name: "description"},
		{Name: "os_version"}, {Name: "asic"}, {Name: "model"}, {Name: "driver"}, {Name: "hwsku"}, {Name: "buffer_model"},
		{Name: "guid"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "credentials"}, {Type: "rdma"}, {Type: "port", LabelNames: []string{"name"}}, {Type: "ports"}, {Type: "sm"},
	},
}

var credentialsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "username"}, {Name: "password_env"}, {Name: "key_file"}, {Name: "passphrase_env"}, {Name: "agent"},
	// Accepted only to refuse them with a clear message: secrets never live in the intent.
	{Name: "password"}, {Name: "passphrase"}, {Name: "secret"},
}}

var rdmaSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "transport"}, {Name: "roce_mode"}, {Name: "path_mtu"}, {Name: "tos"}, {Name: "cnp_dscp"}, {Name: "cnp_priority"}, {Name: "ecn"},
	{Name: "sl"},
}}

// rdmaLayerRoCE and rdmaLayerIB are the rdma attributes of one link
// layer only, with what to use on the other.
var (
	rdmaLayerRoCE = []layerHint{
		{"transport", "an InfiniBand HCA speaks InfiniBand; there is no RoCE transport to choose"},
		{"roce_mode", "an InfiniBand HCA speaks InfiniBand; there is no RoCE mode to choose"},
		{"tos", "use sl = N (0–15): the service level the NIC's applications use (NCCL_IB_SL, UCX_IB_SL)"},
		{"cnp_dscp", "InfiniBand has no CNP DSCP; use sl for the applications' service level"},
		{"cnp_priority", "InfiniBand has no CNP priority; use sl for the applications' service level"},
		{"ecn", "DCQCN is RoCE's; use sl for the applications' service level"},
	}
	rdmaLayerIB = []layerHint{
		{"sl", "on Ethernet the NIC marks tos (DSCP × 4) and its class's priority"},
	}
)

var portSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "speed"}, {Name: "fec"}, {Name: "mtu"}, {Name: "ip"}, {Name: "routed"}, {Name: "qos_policy"},
	{Name: "acl_in"}, {Name: "acl_out"}, {Name: "description"},
	// A link declared from this port's side, instead of a link block.
	{Name: "peer"}, {Name: "cable_length"}, {Name: "media"},
	// An InfiniBand HCA port's port GUID.
	{Name: "guid"},
}}

// portsSchema is a port block for many ports at once: names plus the
// attributes they share (no ip: addresses differ per port).
var portsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "names", Required: true}, {Name: "speed"}, {Name: "fec"}, {Name: "mtu"}, {Name: "routed"},
	{Name: "qos_policy"}, {Name: "acl_in"}, {Name: "acl_out"}, {Name: "description"},
}}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// decodedDevice is a device instance before names are checked globally.
type decodedDevice struct {
	dev     *Device
	nameRng hcl.Range
	// links are the links declared with a port's peer attribute.
	links []*rawLink
}

func (r *resolver) decodeDevices(blocks hcl.Blocks, ctx *hcl.EvalContext) {
	type job struct {
		b    *hcl.Block
		body hcl.Body
		inst instance
	}
	var jobs []job
	for _, b := range blocks {
		body, insts := r.expand(b, ctx)
		if !r.d.budget.spendObjects(len(insts)) {
			r.d.errorf(b.DefRange, "Too many objects", "The fabric would have more than %d devices, ports and links together; that is the limit of one fabric.", MaxObjects)
			break
		}
		for _, in := range insts {
			jobs = append(jobs, job{b, body, in})
		}
	}
	out := make([]decodedDevice, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		j.inst.materialize()
		out[i] = r.decodeDevice(j.b, j.body, j.inst)
	})
	var folds foldIndex[*Device]
	for _, dd := range out {
		if dd.dev == nil {
			continue
		}
		if prev, dup := r.devices[dd.dev.Name]; dup {
			r.d.errorf(dd.nameRng, "Duplicate device", "A device named %q was already declared at %s. Device names must be unique.", dd.dev.Name, prev.Range)
			continue
		}
		if prev, dup := folds.clash(dd.dev.Name, r.devices); dup {
			r.d.errorf(dd.nameRng, "Duplicate device", "A device named %q was already declared at %s as %q. Device names must differ in more than letter case: they name files and hosts.", dd.dev.Name, prev.Range, prev.Name)
			continue
		}
		folds.add(dd.dev.Name, dd.dev)
		r.devices[dd.dev.Name] = dd.dev
		r.f.Devices = append(r.f.Devices, dd.dev)
		r.links = append(r.links, dd.links...)
	}
}

// decodeDeviceAttrs decodes a device's kind, platform, management address,
// host and description, checking each.
func (r *resolver) decodeDeviceAttrs(dev *Device, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	d := r.d
	k := d.enum(c.Attributes, "kind", ctx, r.kindNames...)
	dev.Kind = Value[Kind]{V: Kind(k.V), Set: k.Set, Src: k.Src}
	p := d.enum(c.Attributes, "platform", ctx, r.platforms.names...)
	dev.Platform = Value[Platform]{V: Platform(p.V), Set: p.Set, Src: p.Src}
	spec := r.platforms.spec(dev.Platform.V)
	dev.HostPlatform, dev.text = spec.Host, spec.Text
	if k.Set && p.Set && !spec.FitsKind(dev.Kind.V) {
		what := "a switch platform"
		switch dev.Kind.V {
		case KindNIC:
			what = "a host platform (" + r.platforms.kindNames(KindNIC) + ")"
		case KindSubnetManager:
			what = "a subnet manager platform (" + r.platforms.kindNames(KindSubnetManager) + ")"
		}
		d.errorf(c.Attributes["platform"].Expr.Range(), "Platform does not fit the kind", "Device %q is a %s, so it needs %s; %q is not.", dev.Name, dev.Kind.V, what, dev.Platform.V)
	}
	if ll := r.f.LinkLayer.V; p.Set && !spec.SpeaksLinkLayer(ll) {
		d.errorf(c.Attributes["platform"].Expr.Range(), "Platform does not fit the link layer", "Platform %q has no %s devices, and this fabric's link_layer is %q%s. Platforms of %s fabrics: %s.", dev.Platform.V, ll, ll, r.linkLayerWhere(), ll, r.platforms.layerNames(ll))
	}
	if k.Set && dev.Kind.V == KindSubnetManager && !r.f.InfiniBand() {
		d.errorf(c.Attributes["kind"].Expr.Range(), "Subnet manager on an Ethernet fabric", "kind = \"subnet_manager\" is an InfiniBand subnet manager host, and this fabric's link_layer is \"ethernet\"%s. Set link_layer = \"infiniband\" in the fabric block, or make the device a nic.", r.linkLayerWhere())
	}
	dev.MgmtAddress = d.str(c.Attributes, "mgmt_address", ctx)
	if dev.MgmtAddress.Set {
		if err := checkMgmtAddress(dev.MgmtAddress.V); err != nil {
			d.errorf(c.Attributes["mgmt_address"].Expr.Range(), "Invalid management address", "%v. Write a host name or address, optionally with :PORT (1–65535), e.g. \"192.0.2.11\" or \"[2001:db8::11]:22\".", err)
			dev.MgmtAddress = Value[string]{}
		}
	}
	dev.Host = d.str(c.Attributes, "host", ctx)
	if dev.Host.Set {
		if err := checkDeviceName(dev.Host.V); err != nil {
			d.errorf(c.Attributes["host"].Expr.Range(), "Invalid host name", "%q cannot name a host: %v. A host name is %s.", dev.Host.V, err, deviceNameForm)
			dev.Host = Value[string]{}
		}
	}
	d.text(c.Attributes, "description", ctx, spec.Text)
	r.decodeRelease(dev, spec, c, ctx)
}

// decodeRelease reads what selects a platform's syntax variant: os_version,
// and the platform-only attributes its spec reads (asic, model, driver).
func (r *resolver) decodeRelease(dev *Device, spec *PlatformSpec, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	d := r.d
	plat := dev.Platform.V
	attrs := spec.Attrs
	// present returns the attribute when it is written with a non-null value.
	present := func(name string) *hcl.Attribute {
		at, ok := c.Attributes[name]
		if !ok {
			return nil
		}
		if v, ds := at.Expr.Value(ctx); !ds.HasErrors() && v.IsNull() {
			return nil
		}
		return at
	}
	// only refuses attr on a platform that does not read it, and reports
	// whether the platform reads it.
	only := func(attr string) bool {
		reads := contains(attrs.Names(), attr)
		if at := present(attr); at != nil && dev.Platform.Set && !reads {
			d.errorf(at.NameRange, "Attribute not used by this platform", "%s is read by %s only; device %q is %s. Remove it.", attr, r.platforms.readers(attr), dev.Name, plat)
			return false
		}
		return reads
	}
	dev.OSVersion = Value[Version]{V: spec.DefaultVersion(), Src: dev.Range}
	if v := d.str(c.Attributes, "os_version", ctx); v.Set && dev.Platform.Set {
		ver, err := spec.ParseVersion(v.V)
		if err != nil {
			d.errorf(c.Attributes["os_version"].Expr.Range(), "Invalid os_version", "%v.", err)
		} else {
			dev.OSVersion = Value[Version]{V: ver, Set: true, Src: v.Src}
		}
	}
	if only(AttrASIC) {
		if present(AttrASIC) == nil {
			d.add(&Diagnostic{Severity: SevError, Summary: "Missing asic",
				Detail:  fmt.Sprintf("Device %q is a %s switch: give its ASIC family, asic = %s. %s", dev.Name, plat, strings.Join(quoteEach(attrs.ASICs), " | "), attrs.ASICWhy),
				Subject: &dev.Range})
		} else {
			dev.ASIC = d.enum(c.Attributes, AttrASIC, ctx, attrs.ASICs...)
		}
	}
	if only(AttrModel) {
		dev.Model = d.str(c.Attributes, AttrModel, ctx)
		fam, err := attrs.Family(dev.Model.V)
		if err != nil {
			d.errorf(c.Attributes[AttrModel].Expr.Range(), "Invalid model", "%v.", err)
			fam, _ = attrs.Family("")
		}
		dev.Family = fam
	}
	if only(AttrHWSKU) {
		if v := d.str(c.Attributes, AttrHWSKU, ctx); v.Set {
			if err := attrs.HWSKU(v.V, dev.ASIC.V); err != nil {
				d.errorf(c.Attributes[AttrHWSKU].Expr.Range(), "Invalid hwsku", "%v.", err)
			} else {
				dev.HWSKU = v
				if attrs.SKUHeadroom != nil {
					f, sku := attrs.SKUHeadroom, v.V
					dev.SKUHeadroom = func(speedMbps int64, cableM float64) (SKUHeadroom, bool) { return f(sku, speedMbps, cableM) }
				}
			}
		}
	}
	if only(AttrBufferModel) {
		dev.BufferModel = d.enum(c.Attributes, AttrBufferModel, ctx, attrs.BufferModels...)
		if !dev.BufferModel.Set && attrs.DefaultBufferModel != nil {
			dev.BufferModel = Value[string]{V: attrs.DefaultBufferModel(dev.ASIC.V, dev.OSVersion.V), Src: dev.Range}
		}
	}
	if only(AttrDriver) {
		dev.Driver = d.enum(c.Attributes, AttrDriver, ctx, attrs.Drivers...)
		if !dev.Driver.Set {
			dev.Driver = Value[string]{V: attrs.DefaultDriver, Src: dev.Range}
		}
	}
}

func quoteEach(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

func (r *resolver) decodeDevice(b *hcl.Block, body hcl.Body, in instance) decodedDevice {
	d := r.d
	c := r.content(body, deviceSchema, in.ctx)
	dev := &Device{Name: b.Labels[0], Range: convRange(b.DefRange)}
	nameRng := b.LabelRanges[0]
	if n := d.str(c.Attributes, "name", in.ctx); n.Set {
		dev.Name, nameRng = n.V, c.Attributes["name"].Expr.Range()
	} else if in.expanded {
		if !in.each {
			d.errorf(b.DefRange, "Missing device name", "A device with count needs a name attribute, e.g. name = format(\"%s%%d\", count.index + 1).", b.Labels[0])
			return decodedDevice{}
		}
		dev.Name = in.key
	}
	if err := checkDeviceName(dev.Name); err != nil {
		d.errorf(nameRng, "Invalid device name", "%q cannot name a device: %v. A device name is %s; it names files, hosts and \"DEVICE:PORT\" endpoints.", dev.Name, err, deviceNameForm)
		return decodedDevice{}
	}
	r.decodeDeviceAttrs(dev, c, in.ctx)
	r.decodeDeviceGUID(dev, c, in.ctx)
	if n, _, ok := r.refAttr(c.Attributes, "qos_policy", in.ctx, "qos_policy", false); ok {
		dev.Policy = r.policies[n]
	}
	dev.ports = make(map[string]*Port, portCount(c.Blocks))
	if !r.d.budget.spendObjects(portCount(c.Blocks)) {
		d.errorf(b.DefRange, "Too many objects", "The fabric would have more than %d devices, ports and links together; that is the limit of one fabric.", MaxObjects)
		return decodedDevice{}
	}
	naming := r.platforms.spec(dev.Platform.V).Ports
	var portFolds foldIndex[*Port]
	// checkPort refuses a name that is not a port name at all, or that
	// repeats one of the device's ports (exactly or in another letter
	// case), and reports a name the platform does not use.
	checkPort := func(name string, rng hcl.Range) bool {
		if err := checkPortName(name); err != nil {
			d.errorf(rng, "Invalid port name", "%q cannot name a port: %v. Port names use %s; on %s they are %s.", name, err, portNameForm, dev.Platform.V, naming.Form)
			return false
		}
		if prev, dup := dev.ports[name]; dup {
			d.errorf(rng, "Duplicate port", "Device %q already has a port %q at %s.", dev.Name, name, prev.Range)
			return false
		}
		if prev, dup := portFolds.clash(name, dev.ports); dup {
			d.errorf(rng, "Duplicate port", "Device %q already has a port %q at %s; port names must differ in more than letter case.", dev.Name, prev.Name, prev.Range)
			return false
		}
		if !naming.Check(name) {
			d.errorf(rng, "Port name does not fit the platform", "%q is not an interface name on %s, which names its ports %s. Use the name the device itself shows.", name, dev.Platform.V, naming.Form)
		}
		return true
	}
	var links []*rawLink
	var credSeen, rdmaSeen, smSeen *hcl.Block
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "sm":
			switch {
			case smSeen != nil:
				d.errorf(blk.DefRange, "Duplicate sm block", "Device %q already has an sm block at %s.", dev.Name, convRange(smSeen.DefRange))
			case !r.f.InfiniBand():
				r.reportLayer(blk.DefRange, "the sm block", "an Ethernet fabric has no subnet manager")
			case dev.Kind.Set && dev.Kind.V != KindSubnetManager:
				d.errorf(blk.DefRange, "sm on a device that is no subnet manager", "Only subnet managers (kind = \"subnet_manager\", platform opensm) have sm settings; %q is a %s.", dev.Name, dev.Kind.V)
			default:
				dev.SM = r.decodeSM(blk, in.ctx)
			}
			smSeen = blk
		case "credentials":
			if credSeen != nil {
				d.errorf(blk.DefRange, "Duplicate credentials block", "Device %q already has credentials at %s.", dev.Name, convRange(credSeen.DefRange))
				continue
			}
			credSeen = blk
			if sb, ok := r.invariantBody(blk.Body); ok {
				if v, hit := loadAs[Credentials](&r.shared, sb); hit {
					dev.Credentials = v
					continue
				}
				r.decodeCredentials(dev, blk, in.ctx)
				r.shared.Store(sb, dev.Credentials)
				continue
			}
			r.decodeCredentials(dev, blk, in.ctx)
		case "rdma":
			if rdmaSeen != nil {
				d.errorf(blk.DefRange, "Duplicate rdma block", "Device %q already has an rdma block at %s.", dev.Name, convRange(rdmaSeen.DefRange))
				continue
			}
			rdmaSeen = blk
			if dev.Kind.Set && dev.Kind.V == KindSubnetManager {
				d.errorf(blk.DefRange, "rdma on a subnet manager", "Only NICs (kind = \"nic\") have RDMA settings; %q is a subnet manager, which runs no RDMA applications of the fabric's. Remove the rdma block.", dev.Name)
				continue
			}
			if dev.Kind.Set && dev.Kind.V != KindNIC {
				d.errorf(blk.DefRange, "rdma on a switch", "Only NICs (kind = \"nic\") have RDMA settings; %q is a %s.", dev.Name, dev.Kind.V)
				continue
			}
			if sb, ok := r.invariantBody(blk.Body); ok {
				if v, hit := loadAs[*RDMA](&r.shared, sb); hit {
					dev.RDMA = v
					continue
				}
				dev.RDMA = r.decodeRDMA(blk, in.ctx)
				r.shared.Store(sb, dev.RDMA)
				continue
			}
			dev.RDMA = r.decodeRDMA(blk, in.ctx)
		case "port":
			name := blk.Labels[0]
			if !checkPort(name, blk.LabelRanges[0]) {
				continue
			}
			c := r.content(blk.Body, portSchema, in.ctx)
			pt := r.decodePort(dev, blk, c, in.ctx)
			pt.Name = name
			dev.ports[name] = pt
			portFolds.add(name, pt)
			dev.Ports = append(dev.Ports, pt)
			if rl := r.portLink(pt, c, in.ctx); rl != nil {
				links = append(links, rl)
			}
		case "ports":
			c := r.content(blk.Body, portsSchema, in.ctx)
			names := r.portNames(c.Attributes["names"], in.ctx)
			if !r.d.budget.spendObjects(len(names)) {
				r.d.errorf(blk.DefRange, "Too many objects", "The fabric would have more than %d devices, ports and links together; that is the limit of one fabric.", MaxObjects)
				continue
			}
			tmpl := r.decodePort(dev, blk, c, in.ctx)
			// One allocation for the block's ports, not one per port.
			block := make([]Port, len(names))
			for i, name := range names {
				if !checkPort(name, c.Attributes["names"].Expr.Range()) {
					continue
				}
				pt := &block[i]
				*pt = *tmpl
				pt.Name = name
				dev.ports[name] = pt
				portFolds.add(name, pt)
				dev.Ports = append(dev.Ports, pt)
			}
		}
	}
	if dev.SM == nil && dev.Kind.V == KindSubnetManager {
		dev.SM = &SubnetManager{Range: dev.Range}
	}
	return decodedDevice{dev: dev, nameRng: nameRng, links: links}
}

// decodeDeviceGUID reads an InfiniBand switch's node GUID (guid).
func (r *resolver) decodeDeviceGUID(dev *Device, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	at, ok := c.Attributes["guid"]
	if !ok {
		return
	}
	if !r.f.InfiniBand() {
		r.reportLayer(at.NameRange, "guid", "Ethernet devices are named by their management address")
		return
	}
	if k := dev.Kind.V; dev.Kind.Set && (k == KindNIC || k == KindSubnetManager) {
		r.d.errorf(at.NameRange, "GUID on a host device", "Device %q is a %s: its GUIDs are its HCA ports'. Move guid into its port block, e.g. port \"ib0\" { guid = … }.", dev.Name, k)
		return
	}
	dev.GUID = hexAttr(r.d, c.Attributes, "guid", ctx, ParseGUID, `"0x0002c90300a00101"`)
}

// portLink reads a port's peer, cable_length and media: a link declared
// from the port's side, named "device:port".
func (r *resolver) portLink(p *Port, c *hcl.BodyContent, ctx *hcl.EvalContext) *rawLink {
	peer := r.d.str(c.Attributes, "peer", ctx)
	cable := unitValue(r.d, c.Attributes, "cable_length", ctx, ParseLength)
	media := r.d.enum(c.Attributes, "media", ctx, enumMedia...)
	if !peer.Set {
		// A cable without a peer is the port's own: its far end is not
		// in the intent (a host fabricgen does not manage, a fabric
		// imported one platform at a time).
		p.CableLength = cable
		if at, ok := c.Attributes["media"]; ok {
			r.d.errorf(at.NameRange, "Link attribute without peer", "media describes a link; set peer = \"DEVICE:PORT\" on this port too, or move it to a link block.")
		}
		return nil
	}
	id := p.Device.Name + ":" + p.Name
	l := &Link{Name: id, Range: p.Range, ARange: p.Range, BRange: peer.Src, CableLength: cable, Media: media}
	rng := c.Attributes["peer"].Expr.Range()
	return &rawLink{link: l, a: id, b: peer.V, aRng: rng, bRng: rng}
}

func (r *resolver) decodeCredentials(dev *Device, blk *hcl.Block, ctx *hcl.EvalContext) {
	d := r.d
	c := r.content(blk.Body, credentialsSchema, ctx)
	for _, bad := range []string{"password", "passphrase", "secret"} {
		if a, ok := c.Attributes[bad]; ok {
			d.errorf(a.Range, "Literal secret in the intent", "Secrets never live in *.fab.hcl files (they end up in git, plans and logs). Name an environment variable instead: %s_env = \"FABRICGEN_PASSWORD\", or use key_file or agent = true.", map[string]string{"password": "password", "passphrase": "passphrase", "secret": "password"}[bad])
		}
	}
	cr := Credentials{Range: convRange(blk.DefRange)}
	cr.Username = d.str(c.Attributes, "username", ctx)
	if cr.Username.Set {
		if err := checkUsername(cr.Username.V); err != nil {
			d.errorf(c.Attributes["username"].Expr.Range(), "Invalid username", "%q cannot be a login name: %v. A username is %s.", cr.Username.V, err, usernameForm)
			cr.Username = Value[string]{}
		}
	}
	cr.PasswordEnv = d.str(c.Attributes, "password_env", ctx)
	cr.KeyFile = d.str(c.Attributes, "key_file", ctx)
	if cr.KeyFile.Set {
		if err := checkPath(cr.KeyFile.V); err != nil {
			d.errorf(c.Attributes["key_file"].Expr.Range(), "Invalid key file path", "%q cannot be a key file path: %v. A path is printable text (spaces allowed) of at most %d bytes.", cr.KeyFile.V, err, MaxPathLen)
			cr.KeyFile = Value[string]{}
		}
	}
	cr.PassphraseEnv = d.str(c.Attributes, "passphrase_env", ctx)
	cr.Agent = d.boolean(c.Attributes, "agent", ctx)
	for _, e := range []struct {
		name string
		v    *Value[string]
	}{{"password_env", &cr.PasswordEnv}, {"passphrase_env", &cr.PassphraseEnv}} {
		name, v := e.name, e.v
		if v.Set && (len(v.V) > MaxEnvNameLen || !envName.MatchString(v.V)) {
			d.errorf(c.Attributes[name].Expr.Range(), "Not an environment variable name", "%s must name an environment variable (a letter or \"_\", then letters, digits and underscores, at most %d characters), not hold the secret itself.", name, MaxEnvNameLen)
			*v = Value[string]{}
		}
	}
	if cr.PassphraseEnv.Set && !cr.KeyFile.Set {
		d.errorf(c.Attributes["passphrase_env"].Range, "Passphrase without key", "passphrase_env only applies with key_file.")
	}
	dev.Credentials = cr
}

func (r *resolver) decodeRDMA(blk *hcl.Block, ctx *hcl.EvalContext) *RDMA {
	d := r.d
	c := r.content(blk.Body, rdmaSchema, ctx)
	rd := &RDMA{Range: convRange(blk.DefRange)}
	if r.wrongLayer(c.Attributes, "rdma", rdmaLayerRoCE, rdmaLayerIB) || r.f.InfiniBand() {
		c = withoutAttrs(c, r.foreign(rdmaLayerRoCE, rdmaLayerIB))
	}
	if r.f.InfiniBand() {
		// No RoCE transport: Transport stays unset.
		rd.SL = d.integer(c.Attributes, "sl", ctx, 0, 15)
		rd.PathMTU = r.decodePathMTU(c, ctx)
		return rd
	}
	rd.RoCEMode = d.enum(c.Attributes, "roce_mode", ctx, enumRoCEMode...)
	tr := d.enum(c.Attributes, "transport", ctx, enumTransport...)
	rd.Transport = Value[Transport]{V: Transport(tr.V), Set: tr.Set, Src: tr.Src}
	mode := map[string]Transport{"v1": TransportRoCEv1, "v2": TransportRoCEv2}
	switch {
	case tr.Set && rd.RoCEMode.Set && mode[rd.RoCEMode.V] != rd.Transport.V:
		d.errorf(c.Attributes["roce_mode"].Expr.Range(), "Conflicting RDMA transport", "roce_mode = %q contradicts transport = %q; drop roce_mode (transport says it all).", rd.RoCEMode.V, tr.V)
	case tr.Set && rd.Transport.V != TransportIWARP:
		rd.RoCEMode = Value[string]{V: map[Transport]string{TransportRoCEv1: "v1", TransportRoCEv2: "v2"}[rd.Transport.V], Set: true, Src: tr.Src}
	case !tr.Set && rd.RoCEMode.Set:
		rd.Transport = Value[Transport]{V: mode[rd.RoCEMode.V], Set: true, Src: rd.RoCEMode.Src}
	case !tr.Set:
		rd.Transport = Value[Transport]{V: TransportRoCEv2, Src: rd.Range}
	}
	rd.PathMTU = r.decodePathMTU(c, ctx)
	rd.ToS = d.integer(c.Attributes, "tos", ctx, 0, 255)
	rd.CNPDSCP = d.integer(c.Attributes, "cnp_dscp", ctx, 0, 63)
	rd.CNPPriority = d.integer(c.Attributes, "cnp_priority", ctx, 0, 7)
	rd.ECN = d.boolean(c.Attributes, "ecn", ctx)
	return rd
}

// decodePathMTU reads rdma path_mtu, an IB MTU size.
func (r *resolver) decodePathMTU(c *hcl.BodyContent, ctx *hcl.EvalContext) Value[int] {
	v := r.d.integer(c.Attributes, "path_mtu", ctx, 256, 4096)
	if v.Set && !contains(ibMTUNames(), strconv.Itoa(v.V)) {
		r.d.errorf(c.Attributes["path_mtu"].Expr.Range(), "Invalid RDMA path MTU", "path_mtu must be one of 256, 512, 1024, 2048 or 4096 (IB MTU sizes); got %d.", v.V)
		return Value[int]{}
	}
	return v
}

// portNames reads a list of non-empty strings (port or device names).
func (r *resolver) portNames(attr *hcl.Attribute, ctx *hcl.EvalContext) []string {
	if attr == nil {
		return nil
	}
	// An invariant list (names = local.down_ports) converts once; the
	// slice is shared, so callers only read it.
	native, cacheable := attr.Expr.(hclsyntax.Expression)
	cacheable = cacheable && instanceInvariantCached(r.d, native)
	if cacheable {
		if v, hit := loadAs[[]string](&r.nameLists, native); hit {
			return v
		}
	}
	v, ok := r.d.eval(attr, ctx)
	if !ok {
		return nil
	}
	t := v.Type()
	if !t.IsListType() && !t.IsTupleType() && !t.IsSetType() {
		r.d.errorf(attr.Expr.Range(), "Incorrect attribute type", "%s must be a list of names, not %s.", attr.Name, t.FriendlyName())
		return nil
	}
	elems := v.AsValueSlice()
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		if e.IsNull() || e.Type() != cty.String || e.AsString() == "" {
			r.d.errorf(attr.Expr.Range(), "Invalid name", "Every element of %s must be a non-empty string.", attr.Name)
			return nil
		}
		out = append(out, e.AsString())
	}
	if cacheable {
		r.nameLists.Store(native, out)
	}
	return out
}

// decodePort reads a port (or ports) block's attributes; the caller sets Name.
func (r *resolver) decodePort(dev *Device, blk *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) *Port {
	d := r.d
	p := &Port{Range: convRange(blk.DefRange), Device: dev}
	p.Speed = unitValue(d, c.Attributes, "speed", ctx, ParseSpeed)
	p.FEC = d.enum(c.Attributes, "fec", ctx, enumFEC...)
	p.MTU = r.checkIBMTU(d.integer(c.Attributes, "mtu", ctx, MinMTU, MaxMTU), c.Attributes)
	if at, ok := c.Attributes["guid"]; ok {
		switch k := dev.Kind.V; {
		case !r.f.InfiniBand():
			r.reportLayer(at.NameRange, "guid", "Ethernet ports are named by their interface name")
		case dev.Kind.Set && k != KindNIC && k != KindSubnetManager:
			d.errorf(at.NameRange, "Port GUID on a switch", "Device %q is a %s: a switch's ports share its node GUID. Set guid on the device instead.", dev.Name, k)
		default:
			p.GUID = hexAttr(d, c.Attributes, "guid", ctx, ParseGUID, `"0x0002c90300a00101"`)
		}
	}
	p.IP = d.prefix(c.Attributes, "ip", ctx, true)
	p.Routed = d.boolean(c.Attributes, "routed", ctx)
	p.Description = d.text(c.Attributes, "description", ctx, dev.text).V
	if n, _, ok := r.refAttr(c.Attributes, "qos_policy", ctx, "qos_policy", false); ok {
		p.Policy = r.policies[n]
	}
	if names, rng, _ := r.refList(c.Attributes, "acl_in", ctx, "acl"); names != nil {
		p.ACLInRange = convRange(rng)
		for _, n := range names {
			p.ACLIn = append(p.ACLIn, r.acls[n])
		}
	}
	if names, rng, _ := r.refList(c.Attributes, "acl_out", ctx, "acl"); names != nil {
		p.ACLOutRange = convRange(rng)
		for _, n := range names {
			p.ACLOut = append(p.ACLOut, r.acls[n])
		}
	}
	return p
}

// checkMgmtAddress accepts "host", "host:port" and "[v6]:port", where
// host is an IP address or a host name (checkDeviceName's rule).
func checkMgmtAddress(s string) error {
	if s == "" {
		return fmt.Errorf("the address is empty")
	}
	if len(s) > MaxDeviceNameLen+8 {
		return fmt.Errorf("the address is %d characters long", len(s))
	}
	host, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, port = h, p
	} else if strings.Count(s, ":") == 1 || strings.HasPrefix(s, "[") {
		return fmt.Errorf("%q: %w", s, err)
	}
	if port != "" || strings.HasSuffix(s, ":") {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %q of %q is not between 1 and 65535", port, s)
		}
	}
	if host == "" {
		return fmt.Errorf("%q has no host", s)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return fmt.Errorf("%q has an IPv6 zone; give the address without %%zone", s)
		}
		return nil
	}
	if strings.Contains(host, ":") {
		return fmt.Errorf("%q is not an IP address", host)
	}
	if err := checkDeviceName(host); err != nil {
		return fmt.Errorf("%q is not a host name or address: %w", host, err)
	}
	return nil
}

// portCount counts a device's port blocks, to size its port map (ports
// blocks grow it as they add their names).
func portCount(blocks hcl.Blocks) int {
	n := 0
	for _, b := range blocks {
		if b.Type == "port" {
			n++
		}
	}
	return n
}
