package importer

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// Options are the writer's settings.
type Options struct {
	// Fabric is the fabric block's name ("imported" when empty).
	Fabric string
	// Spec returns a platform's spec (port names, description rule,
	// attributes), nil for an unknown platform.
	Spec func(platform string) *schema.PlatformSpec
	// Username, PasswordEnv and KeyFile, when Username is set, are
	// written as every device's credentials block (references only).
	Username, PasswordEnv, KeyFile string
}

// Intent is the written fabric: its files and the import report.
type Intent struct {
	// Files maps a file name (no directory) to its HCL.
	Files map[string][]byte
	// Report lists, sorted by file and line, every line no intent
	// expresses, every port configured twice, and every value the
	// intent could not keep as read.
	Report []Line
	// Devices are the names the devices were written under, in order.
	Devices []string
}

// File names the writer uses.
const (
	FileQoS     = "qos.fab.hcl"
	FileDevices = "devices.fab.hcl"
	FileACLs    = "acl.fab.hcl"
)

// Write factors devices into intent: one traffic_class per priority the
// configurations select, ECN profiles and watchdogs shared by value, one
// qos_policy per group of devices whose QoS is the same (attached at the
// fabric when every device shares it), port-level policies only for
// ports that differ from their device, ACLs, and one device block per
// device. Every block carries a comment naming where it was read.
func Write(devs []*Device, o Options) (*Intent, error) {
	if o.Fabric == "" {
		o.Fabric = commonFabric(devs)
	}
	if err := schema.CheckObjectName(o.Fabric); err != nil {
		return nil, fmt.Errorf("fabric name %q: %w", o.Fabric, err)
	}
	w := &writer{o: o, out: &Intent{Files: map[string][]byte{}}}
	devs = slices.Clone(devs)
	orig := map[string]*Device{} // a device by the name its neighbours know it by
	for i, d := range devs {
		c := *d
		c.Neighbors = slices.Clone(d.Neighbors)
		c.Ports = make([]*Port, len(d.Ports))
		for j, p := range d.Ports {
			pc := *p
			c.Ports[j] = &pc
		}
		devs[i] = &c
		if d.Name != "" {
			orig[d.Name] = &c
		}
	}
	w.names(devs)
	for _, d := range devs {
		if _, ok := orig[d.Name]; !ok {
			orig[d.Name] = d
		}
	}
	describedPeers(devs, orig)
	w.lnks = w.links(devs, orig)
	sort.SliceStable(devs, func(i, j int) bool { return schema.NaturalLess(devs[i].Name, devs[j].Name) })
	for _, d := range devs {
		w.out.Report = append(w.out.Report, d.Unmapped...)
		w.out.Report = append(w.out.Report, d.Twice...)
		w.out.Devices = append(w.out.Devices, d.Name)
	}
	w.build(devs)
	sort.SliceStable(w.out.Report, func(i, j int) bool {
		a, b := w.out.Report[i], w.out.Report[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return w.out, nil
}

type writer struct {
	o    Options
	out  *Intent
	lnks []link
	// ecns and wds name each curve and watchdog by value.
	ecns    map[string]string
	ecnList []*ECN
	wds     map[string]string
	wdList  []*Watchdog
	used    map[string]bool // object names taken, "kind.name" (folded)
	// keys caches each QoS's resolved key: a device's ports are grouped
	// by it more than once.
	keys  map[*QoS]string
	lastQ *QoS
}

// key is want(q).key(), once per QoS.
func (w *writer) key(q *QoS) string {
	if k, ok := w.keys[q]; ok {
		return k
	}
	if w.keys == nil {
		w.keys = map[*QoS]string{}
	}
	var k string
	if w.lastQ != nil && SameQoS(q, w.lastQ) {
		k = w.keys[w.lastQ] // ports in a row mostly read the same
	} else {
		k = want(q).key()
	}
	w.keys[q], w.lastQ = k, q
	return k
}

func (w *writer) report(s Span, why string, args ...any) {
	w.out.Report = append(w.out.Report, Line{File: s.File, Line: s.From, Why: fmt.Sprintf(why, args...)})
}

// names gives every device a valid, unique name: its own, else a cleaned
// form of it (reported), with -2, -3 … on a clash.
func (w *writer) names(devs []*Device) {
	seen := map[string]bool{}
	for _, d := range devs {
		name := d.Name
		if err := schema.CheckDeviceName(name); err != nil {
			clean := cleanName(name, "device")
			w.report(d.Src, "hostname %q is no valid device name (%v); written as %q", Clean(name), err, clean)
			name = clean
		}
		base := name
		for i := 2; seen[strings.ToLower(name)]; i++ {
			name = base + "-" + strconv.Itoa(i)
		}
		if name != base {
			w.report(d.Src, "device name %q is taken by another file; written as %q", base, name)
		}
		seen[strings.ToLower(name)] = true
		d.Name = name
	}
}

// cleanName keeps letters, digits, '_' and '-', starting with a letter.
func cleanName(s, fallback string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() >= 60 {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" || (out[0] < 'a' || out[0] > 'z') && (out[0] < 'A' || out[0] > 'Z') {
		out = fallback + "-" + out
	}
	return strings.TrimRight(out, "-")
}

// objName returns a free object name from want (cleaned), else prefix-N.
func (w *writer) objName(kind, want, prefix string) string {
	if w.used == nil {
		w.used = map[string]bool{}
	}
	name := want
	if name == "" || schema.CheckObjectName(name) != nil {
		name = cleanName(want, prefix)
		if want == "" {
			name = prefix
		}
	}
	base := name
	for i := 2; w.used[kind+"."+strings.ToLower(name)]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	w.used[kind+"."+strings.ToLower(name)] = true
	return name
}

func (w *writer) ecnName(e *ECN, hint string) string {
	if e == nil {
		return ""
	}
	k := ecnKey(e)
	if n, ok := w.ecns[k]; ok {
		return n
	}
	want := e.Name
	if want == "" {
		want = hint
	}
	n := w.objName("ecn_profile", want, "ecn")
	w.ecns[k] = n
	w.ecnList = append(w.ecnList, e)
	return n
}

func (w *writer) wdName(x *Watchdog) string {
	k := wdKey(x)
	if n, ok := w.wds[k]; ok {
		return n
	}
	want := x.Name
	if want == "" {
		want = "watchdog"
	}
	n := w.objName("pfc_watchdog", want, "watchdog")
	w.wds[k] = n
	w.wdList = append(w.wdList, x)
	return n
}

// build factors and prints.
func (w *writer) build(devs []*Device) {
	w.ecns, w.wds = map[string]string{}, map[string]string{}
	// A device's QoS is the one most of its ports have (its switch-wide
	// default when it names no port); the reference QoS, whose classes
	// the intent gets, is the most common device QoS (switches first).
	base := map[*Device]*QoS{}
	for _, d := range devs {
		base[d] = w.baseQoS(d)
	}
	groups := map[string][]*Device{}
	var order []string
	for _, d := range devs {
		if base[d] == nil {
			continue
		}
		k := w.key(base[d])
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], d)
	}
	var ref *QoS
	best := 0
	for _, k := range order {
		n := len(groups[k])
		if !groups[k][0].host() {
			n += 1 << 20 // switches carry the classes
		}
		if n > best {
			best, ref = n, base[groups[k][0]]
		}
	}
	names := map[int]string{}
	for _, d := range devs {
		for p, n := range d.ClassNames {
			if _, ok := names[p]; !ok && p >= 0 && p < 8 && n != "" {
				names[p] = n
			}
		}
	}
	classes, _ := deriveClasses(ref, names)
	for _, c := range classes {
		c.name = w.objName("traffic_class", c.name, "class")
		if c.ecn != nil {
			w.ecnName(c.ecn, c.name)
		}
	}
	// Device policies: one per group of equal QoS.
	devPol := map[*Device]*policy{}
	var pols []*policy
	for gi, k := range order {
		g := groups[k]
		name := "fabric"
		if len(order) > 1 {
			name = g[0].Name
			if len(g) > 1 {
				name = "group-" + strconv.Itoa(gi+1)
			}
		}
		pol := devicePolicy(w.objName("qos_policy", name, "policy"), classes, base[g[0]])
		for _, d := range g {
			pol.src = append(pol.src, base[d].Src...)
			devPol[d] = pol
			for _, why := range lost(classes, []*policy{pol}, want(base[d])) {
				w.report(d.Src, "%s: %s", d.Name, why)
			}
		}
		pols = append(pols, pol)
	}
	atFabric := len(order) == 1 && len(groups[order[0]]) == len(devs)
	// Port policies: one per distinct (device policy, port QoS).
	portPol := map[*Port]*policy{}
	portKeys := map[string]*policy{}
	for _, d := range devs {
		dk := ""
		if base[d] != nil {
			dk = w.key(base[d])
		}
		for _, p := range d.Ports {
			q := p.QoS
			if q == nil {
				q = d.Default
			}
			if q == nil || w.key(q) == dk {
				continue
			}
			dev := devPol[d]
			if dev == nil {
				dev = &policy{}
			}
			k := dev.name + "\x00" + w.key(q)
			pol := portKeys[k]
			if pol == nil {
				pol = portPolicy("", classes, dev, q)
				if dev.name == "" {
					pol = devicePolicy("", classes, q)
				}
				pol.name = w.objName("qos_policy", d.Name+"-"+p.Name, "port")
				portKeys[k] = pol
				pols = append(pols, pol)
			}
			portPol[p] = pol
			chain := []*policy{pol}
			if dev.name != "" {
				chain = []*policy{dev, pol}
			}
			for _, why := range lost(classes, chain, want(q)) {
				w.report(p.Src, "%s %s: %s", d.Name, p.Name, why)
			}
		}
	}
	for _, p := range pols {
		for _, q := range p.queues {
			if q.ecn != nil {
				w.ecnName(q.ecn, "")
			}
		}
		if p.watchdog != nil {
			w.wdName(p.watchdog)
		}
	}
	acls := w.acls(devs)
	w.printQoS(classes, pols, atFabric)
	w.printDevices(devs, devPol, portPol, atFabric, acls)
}

func (d *Device) host() bool { return d.Kind == "nic" }

// aclRef is an ACL as written: its name per (device, configured name).
type aclRef map[*Device]map[string]string

// acls names every ACL (one block per distinct content; a name two
// devices use for different rules gets the device's name as suffix).
func (w *writer) acls(devs []*Device) aclRef {
	refs := aclRef{}
	byKey := map[string]string{}
	var blocks []*ACL
	for _, d := range devs {
		refs[d] = map[string]string{}
		for _, a := range d.ACLs {
			k := a.Name + "\x00" + aclKey(a)
			name, ok := byKey[k]
			if !ok {
				name = w.objName("acl", a.Name, "acl")
				byKey[k] = name
				b := *a
				b.Name = name
				blocks = append(blocks, &b)
			}
			refs[d][a.Name] = name
		}
	}
	if len(blocks) > 0 {
		f := hclwrite.NewEmptyFile()
		body := f.Body()
		for i, a := range blocks {
			if i > 0 {
				body.AppendNewline()
			}
			comment(body, []Span{a.Src})
			blk := body.AppendNewBlock("acl", []string{a.Name}).Body()
			for _, r := range a.Rules {
				rb := blk.AppendNewBlock("rule", nil).Body()
				rb.SetAttributeValue("seq", cty.NumberIntVal(int64(r.Seq)))
				rb.SetAttributeValue("action", cty.StringVal(r.Action))
				if r.Family == "ipv4" || r.Family == "ipv6" {
					rb.SetAttributeValue("family", cty.StringVal(r.Family))
				}
				if r.Protocol != "" {
					rb.SetAttributeValue("protocol", cty.StringVal(r.Protocol))
				}
				if r.SrcPrefix != "" {
					rb.SetAttributeValue("src_prefix", cty.StringVal(r.SrcPrefix))
				}
				if r.DstPrefix != "" {
					rb.SetAttributeValue("dst_prefix", cty.StringVal(r.DstPrefix))
				}
				if v, ok := portsVal(r.SrcPorts); ok {
					rb.SetAttributeValue("src_port", v)
				}
				if v, ok := portsVal(r.DstPorts); ok {
					rb.SetAttributeValue("dst_port", v)
				}
				if len(r.DSCP) == 1 {
					rb.SetAttributeValue("dscp", cty.NumberIntVal(int64(r.DSCP[0])))
				} else if len(r.DSCP) > 1 {
					rb.SetAttributeValue("dscp", intList(r.DSCP))
				}
				if r.SetDSCP != nil {
					rb.SetAttributeValue("set_dscp", cty.NumberIntVal(int64(*r.SetDSCP)))
				}
				if r.PoliceBps > 0 {
					rb.SetAttributeValue("police", cty.StringVal(units.Speed(r.PoliceBps)))
				}
			}
		}
		w.out.Files[FileACLs] = hclwrite.Format(f.Bytes())
	}
	return refs
}

func aclKey(a *ACL) string {
	var b strings.Builder
	for _, r := range a.Rules {
		fmt.Fprintf(&b, "%d %s %s %s %s %s %v %v %v %s %d;", r.Seq, r.Action, r.Family, r.Protocol, r.SrcPrefix, r.DstPrefix, r.SrcPorts, r.DstPorts, r.DSCP, intp(r.SetDSCP), r.PoliceBps)
	}
	return b.String()
}

func portsVal(rs [][2]int) (cty.Value, bool) {
	if len(rs) == 0 {
		return cty.NilVal, false
	}
	one := func(r [2]int) cty.Value {
		if r[0] == r[1] {
			return cty.NumberIntVal(int64(r[0]))
		}
		return cty.StringVal(fmt.Sprintf("%d-%d", r[0], r[1]))
	}
	if len(rs) == 1 {
		return one(rs[0]), true
	}
	vals := make([]cty.Value, len(rs))
	for i, r := range rs {
		vals[i] = one(r)
	}
	return cty.TupleVal(vals), true
}

func intList(v []int) cty.Value {
	if len(v) == 0 {
		return cty.EmptyTupleVal
	}
	vals := make([]cty.Value, len(v))
	for i, n := range v {
		vals[i] = cty.NumberIntVal(int64(n))
	}
	return cty.TupleVal(vals)
}

func intMap(m map[int]int) cty.Value {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	vals := map[string]cty.Value{}
	for _, k := range keys {
		vals[strconv.Itoa(k)] = cty.NumberIntVal(int64(m[k]))
	}
	return cty.ObjectVal(vals)
}

// comment appends "# FILE:FROM-TO, …" naming where a block was read:
// per file, its spans merged where they touch or lie within a few lines
// of each other.
func comment(body *hclwrite.Body, spans []Span) {
	if text := commentText(spans); text != "" {
		body.AppendUnstructuredTokens(hclwrite.Tokens{
			{Type: hclsyntax.TokenComment, Bytes: []byte(text + "\n")},
		})
	}
}

// commentText is comment's line, "" when the spans name no file.
func commentText(spans []Span) string {
	if len(spans) == 1 && spans[0].File != "" {
		// One span, the most common (a device read from its file).
		s := spans[0]
		f := "# " + Clean(filepath.Base(s.File))
		switch {
		case s.From <= 0:
			return f
		case max(s.To, s.From) > s.From:
			return f + ":" + strconv.Itoa(s.From) + "-" + strconv.Itoa(s.To)
		default:
			return f + ":" + strconv.Itoa(s.From)
		}
	}
	type rng struct{ from, to int }
	byFile := map[string][]rng{}
	var files []string
	for _, s := range spans {
		if s.File == "" {
			continue
		}
		f := Clean(filepath.Base(s.File))
		if _, ok := byFile[f]; !ok {
			files = append(files, f)
			byFile[f] = nil
		}
		if s.From > 0 {
			byFile[f] = append(byFile[f], rng{s.From, max(s.To, s.From)})
		}
	}
	if len(files) == 0 {
		return ""
	}
	var parts []string
	for _, f := range files {
		rs := byFile[f]
		sort.Slice(rs, func(i, j int) bool { return rs[i].from < rs[j].from })
		var merged []rng
		for _, r := range rs {
			if n := len(merged); n > 0 && r.from <= merged[n-1].to+4 {
				merged[n-1].to = max(merged[n-1].to, r.to)
				continue
			}
			merged = append(merged, r)
		}
		if len(merged) == 0 {
			parts = append(parts, f)
			continue
		}
		var lines []string
		for i, r := range merged {
			if i == 3 {
				lines = append(lines, fmt.Sprintf("and %d more", len(merged)-3))
				break
			}
			if r.to > r.from {
				lines = append(lines, strconv.Itoa(r.from)+"-"+strconv.Itoa(r.to))
			} else {
				lines = append(lines, strconv.Itoa(r.from))
			}
		}
		parts = append(parts, f+":"+strings.Join(lines, ","))
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("and %d more files", len(parts)-4))
	}
	return "# " + strings.Join(parts, ", ")
}

func ref(kind, name string) hclwrite.Tokens {
	return hclwrite.TokensForTraversal(traversal(kind, name))
}

func refList(kind string, names []string) hclwrite.Tokens {
	ts := make([]hclwrite.Tokens, len(names))
	for i, n := range names {
		ts[i] = ref(kind, n)
	}
	return hclwrite.TokensForTuple(ts)
}

func ms(v int64) string { return (time.Duration(v) * time.Millisecond).String() }

func size(n int64) string { return strings.ReplaceAll(units.Size(n), " ", "") }

// printQoS writes the fabric block, ECN profiles, watchdogs, classes and
// policies.
func (w *writer) printQoS(classes []*class, pols []*policy, atFabric bool) {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte("# Written by fabricgen import: the QoS the configurations run, factored into classes and policies.\n")}})
	fb := body.AppendNewBlock("fabric", []string{w.o.Fabric}).Body()
	if atFabric && len(pols) > 0 {
		fb.SetAttributeRaw("qos_policy", ref("qos_policy", pols[0].name))
	}
	for _, e := range w.ecnList {
		body.AppendNewline()
		b := body.AppendNewBlock("ecn_profile", []string{w.ecns[ecnKey(e)]}).Body()
		if e.MinBytes > 0 || e.MaxBytes > 0 {
			b.SetAttributeValue("min_threshold", cty.StringVal(size(e.MinBytes)))
			b.SetAttributeValue("max_threshold", cty.StringVal(size(e.MaxBytes)))
		}
		b.SetAttributeValue("max_probability", cty.NumberIntVal(int64(e.Probability)))
		if e.MinFill != nil && e.MaxFill != nil {
			b.SetAttributeValue("min_fill_level", cty.NumberIntVal(int64(*e.MinFill)))
			b.SetAttributeValue("max_fill_level", cty.NumberIntVal(int64(*e.MaxFill)))
		}
		mode := "ecn"
		if !e.Mark {
			mode = "drop"
		}
		b.SetAttributeValue("mode", cty.StringVal(mode))
	}
	for _, x := range w.wdList {
		body.AppendNewline()
		b := body.AppendNewBlock("pfc_watchdog", []string{w.wds[wdKey(x)]}).Body()
		b.SetAttributeValue("detection", cty.StringVal(ms(x.DetectionMS)))
		if x.RestorationMS > 0 {
			b.SetAttributeValue("restoration", cty.StringVal(ms(x.RestorationMS)))
		}
		if x.PollMS > 0 {
			b.SetAttributeValue("poll_interval", cty.StringVal(ms(x.PollMS)))
		}
		if x.Action != "" {
			b.SetAttributeValue("action", cty.StringVal(x.Action))
		}
	}
	for _, c := range classes {
		body.AppendNewline()
		b := body.AppendNewBlock("traffic_class", []string{c.name}).Body()
		if c.role != "" {
			b.SetAttributeValue("role", cty.StringVal(c.role))
		}
		b.SetAttributeValue("dscp", intList(c.dscp))
		b.SetAttributeValue("priority", cty.NumberIntVal(int64(c.priority)))
		b.SetAttributeValue("queue", cty.NumberIntVal(int64(c.queue)))
		if c.lossless {
			b.SetAttributeValue("lossless", cty.True)
		}
		if c.ecn != nil {
			b.SetAttributeRaw("ecn", ref("ecn_profile", w.ecns[ecnKey(c.ecn)]))
		}
		if c.sched != "" {
			b.SetAttributeValue("scheduler", cty.StringVal(c.sched))
		}
		if c.weight != nil {
			b.SetAttributeValue("weight", cty.NumberIntVal(int64(*c.weight)))
		}
	}
	classNames := make([]string, len(classes))
	for i, c := range classes {
		classNames[i] = c.name
	}
	for _, p := range pols {
		body.AppendNewline()
		comment(body, p.src)
		w.printPolicy(body, p, classNames)
	}
	w.out.Files[FileQoS] = hclwrite.Format(f.Bytes())
}

// printDevices writes one device block per device.
func (w *writer) printDevices(devs []*Device, devPol map[*Device]*policy, portPol map[*Port]*policy, atFabric bool, acls aclRef) {
	body := &emitBody{}
	specs := map[string]*schema.PlatformSpec{}
	for i, d := range devs {
		if i > 0 {
			body.AppendNewline()
		}
		if text := commentText([]Span{d.Src}); text != "" {
			body.AppendComment(text)
		}
		b := body.AppendNewBlock("device", []string{d.Name})
		kind := d.Kind
		if kind == "" {
			kind = guessKind(d.Name)
		}
		b.SetString("kind", kind)
		b.SetString("platform", d.Platform)
		spec, ok := specs[d.Platform]
		if !ok && w.o.Spec != nil {
			spec = w.o.Spec(d.Platform)
			specs[d.Platform] = spec
		}
		for _, a := range []struct{ name, v string }{{"os_version", d.OSVersion}, {"model", d.Model}, {"asic", d.ASIC}, {"hwsku", d.HWSKU}, {"driver", d.Driver}, {"buffer_model", d.BufferModel}} {
			if a.v == "" {
				continue
			}
			if a.name != "os_version" && spec != nil && !slices.Contains(spec.Attrs.Names(), a.name) {
				w.report(d.Src, "%s: %s %q is not an attribute the %s platform reads; left out", d.Name, a.name, Clean(a.v), d.Platform)
				continue
			}
			if a.name == "os_version" && spec != nil {
				if spec.Release == nil {
					continue
				}
				if _, err := spec.ParseVersion(a.v); err != nil {
					w.report(d.Src, "%s: release %q is not one fabricgen reads (%v); os_version left to the default", d.Name, Clean(a.v), err)
					continue
				}
			}
			b.SetString(a.name, a.v)
		}
		if pol := devPol[d]; pol != nil && !atFabric {
			b.SetAttributeRef("qos_policy", "qos_policy", pol.name)
		}
		if w.o.Username != "" {
			cb := b.AppendNewBlock("credentials", nil)
			cb.SetString("username", w.o.Username)
			if w.o.PasswordEnv != "" {
				cb.SetString("password_env", w.o.PasswordEnv)
			}
			if w.o.KeyFile != "" {
				cb.SetString("key_file", w.o.KeyFile)
			}
		}
		if r := d.RDMA; r != nil {
			rb := b.AppendNewBlock("rdma", nil)
			if r.Transport != "" {
				rb.SetString("transport", r.Transport)
			}
			for _, a := range []struct {
				name string
				v    *int
			}{{"path_mtu", r.PathMTU}, {"tos", r.ToS}, {"cnp_dscp", r.CNPDSCP}, {"cnp_priority", r.CNPPriority}} {
				if a.v != nil {
					rb.SetInt(a.name, int64(*a.v))
				}
			}
			if r.ECN != nil {
				rb.SetBool("ecn", *r.ECN)
			}
		}
		for _, p := range d.Ports {
			if err := schema.CheckPortName(p.Name, d.host()); err != nil || (spec != nil && spec.Ports.Check != nil && !spec.Ports.Check(p.Name)) {
				why := "not a port name of the platform"
				if err != nil {
					why = err.Error()
				}
				w.report(p.Src, "%s: port %q left out: %s", d.Name, Clean(p.Name), why)
				continue
			}
			w.printPort(b, d, p, spec, portPol[p], acls)
		}
	}
	for _, l := range w.lnks {
		body.AppendNewline()
		if text := commentText(l.src); text != "" {
			body.AppendComment(text)
		}
		lb := body.AppendNewBlock("link", []string{l.name})
		lb.SetString("a", l.a)
		lb.SetString("b", l.b)
		if l.cableM > 0 {
			lb.SetString("cable_length", strconv.FormatFloat(l.cableM, 'f', -1, 64)+"m")
		}
	}
	w.out.Files[FileDevices] = body.Bytes()
}

func traversal(kind, name string) hcl.Traversal {
	return hcl.Traversal{hcl.TraverseRoot{Name: kind}, hcl.TraverseAttr{Name: name}}
}

// commonFabric is the fabric name every device's header names, else
// "imported".
func commonFabric(devs []*Device) string {
	name := ""
	for _, d := range devs {
		switch {
		case d.Fabric == "":
			return "imported"
		case name == "":
			name = d.Fabric
		case name != d.Fabric:
			return "imported"
		}
	}
	if name == "" || schema.CheckObjectName(name) != nil {
		return "imported"
	}
	return name
}

// printPolicy writes one qos_policy block.
func (w *writer) printPolicy(body *hclwrite.Body, p *policy, classNames []string) {
	b := body.AppendNewBlock("qos_policy", []string{p.name}).Body()
	if p.trust != "" {
		b.SetAttributeValue("trust", cty.StringVal(p.trust))
	}
	if p.classes && len(classNames) > 0 {
		b.SetAttributeRaw("classes", refList("traffic_class", classNames))
	}
	if p.defaultPriority != nil {
		b.SetAttributeValue("default_priority", cty.NumberIntVal(int64(*p.defaultPriority)))
	}
	if len(p.dscpMap) > 0 {
		b.SetAttributeValue("dscp_map", intMap(p.dscpMap))
	}
	if len(p.pcpMap) > 0 {
		b.SetAttributeValue("pcp_map", intMap(p.pcpMap))
	}
	if len(p.queueMap) > 0 {
		b.SetAttributeValue("queue_map", intMap(p.queueMap))
	}
	if p.pfcSet {
		b.SetAttributeValue("pfc_priorities", intList(p.pfc))
	}
	switch {
	case p.watchdog != nil:
		b.SetAttributeRaw("pfc_watchdog", ref("pfc_watchdog", w.wds[wdKey(p.watchdog)]))
	case p.watchdogOff:
		b.SetAttributeValue("pfc_watchdog", cty.StringVal("off"))
	}
	if p.mtu != 0 {
		b.SetAttributeValue("mtu", cty.NumberIntVal(int64(p.mtu)))
	}
	if p.linkPause != nil {
		b.SetAttributeValue("link_pause", cty.BoolVal(*p.linkPause))
	}
	if bk := p.buffer; bufferKey(bk) != bufferKey(Buffer{}) {
		bb := b.AppendNewBlock("buffer", nil).Body()
		for _, f := range []struct {
			name string
			v    int64
		}{{"headroom", bk.Headroom}, {"xoff", bk.XOFF}, {"xon", bk.XON}, {"ingress_lossless_pool", bk.IngressLosslessPool}, {"egress_lossy_pool", bk.EgressLossyPool}} {
			if f.v != 0 {
				bb.SetAttributeValue(f.name, cty.StringVal(size(f.v)))
			}
		}
		if bk.DynamicThreshold != nil {
			bb.SetAttributeValue("dynamic_threshold", cty.NumberIntVal(int64(*bk.DynamicThreshold)))
		}
	}
	qs := make([]int, 0, len(p.queues))
	for q := range p.queues {
		qs = append(qs, q)
	}
	sort.Ints(qs)
	for _, qn := range qs {
		q := p.queues[qn]
		qb := b.AppendNewBlock("queue", []string{strconv.Itoa(qn)}).Body()
		if q.sched != "" {
			qb.SetAttributeValue("scheduler", cty.StringVal(q.sched))
		}
		if q.weight != nil {
			qb.SetAttributeValue("weight", cty.NumberIntVal(int64(*q.weight)))
		}
		if q.shaperBps != 0 {
			qb.SetAttributeValue("shaper", cty.StringVal(units.Speed(q.shaperBps)))
		}
		switch {
		case q.ecn != nil:
			qb.SetAttributeRaw("ecn", ref("ecn_profile", w.ecns[ecnKey(q.ecn)]))
		case q.ecnOff:
			qb.SetAttributeValue("ecn", cty.StringVal("off"))
		}
	}
}

// printPort writes one port block into a device's body.
func (w *writer) printPort(b *emitBody, d *Device, p *Port, spec *schema.PlatformSpec, pol *policy, acls aclRef) {
	pb := b.AppendNewBlock("port", []string{p.Name})
	if p.Description != "" {
		rule := schema.TextRule{}
		if spec != nil {
			rule = spec.Text
		}
		if err := schema.CheckText(p.Description, rule); err != nil {
			w.report(p.Src, "%s %s: description %q left out: %v", d.Name, p.Name, Clean(p.Description), err)
		} else {
			pb.SetString("description", p.Description)
		}
	}
	if p.Speed > 0 {
		pb.SetString("speed", units.Speed(p.Speed))
	}
	if p.FEC != "" {
		pb.SetString("fec", p.FEC)
	}
	if p.MTU != 0 {
		pb.SetInt("mtu", int64(p.MTU))
	}
	if p.CableM > 0 {
		pb.SetString("cable_length", strconv.FormatFloat(p.CableM, 'f', -1, 64)+"m")
	}
	switch {
	case p.IP != "":
		pb.SetString("ip", p.IP)
	case p.Routed:
		pb.SetBool("routed", true)
	}
	if pol != nil {
		pb.SetAttributeRef("qos_policy", "qos_policy", pol.name)
	}
	for _, dir := range []struct {
		attr  string
		names []string
	}{{"acl_in", p.ACLIn}, {"acl_out", p.ACLOut}} {
		if len(dir.names) == 0 {
			continue
		}
		var out []string
		for _, n := range dir.names {
			if m, ok := acls[d][n]; ok {
				out = append(out, m)
			} else {
				w.report(p.Src, "%s %s: ACL %q is bound but not defined; binding left out", d.Name, p.Name, Clean(n))
			}
		}
		if len(out) > 0 {
			pb.SetAttributeRefs(dir.attr, "acl", out)
		}
	}
}

// link is one link block: two "device:port" ends, from LLDP.
type link struct {
	name, a, b string
	cableM     float64
	src        []Span
}

// links pairs the devices' LLDP neighbours into links between imported
// devices: one per cable (both ends' reports agree, or one end reports
// and the other is silent). A neighbour that is no imported device, or
// two ends that disagree, is reported. A port a link names that the
// configuration did not is added; a port's own cable length moves to its
// link.
func (w *writer) links(devs []*Device, byName map[string]*Device) []link {
	type end struct {
		d *Device
		p string
	}
	portOf := func(d *Device, name string) *Port {
		for _, p := range d.Ports {
			if p.Name == name {
				return p
			}
		}
		p := &Port{Name: name, Src: d.Src}
		d.Ports = append(d.Ports, p)
		return p
	}
	// Every end's claim first, imported far end or not, so a link is
	// written only where the far end agrees or says nothing.
	type claim struct{ system, port string }
	claims := map[end]claim{}
	for _, d := range devs {
		for _, n := range d.Neighbors {
			if _, dup := claims[end{d, n.LocalPort}]; !dup {
				claims[end{d, n.LocalPort}] = claim{n.RemoteSystem, n.RemotePort}
			}
		}
	}
	done := map[end]bool{}
	var out []link
	for _, d := range devs {
		for _, n := range d.Neighbors {
			a := end{d, n.LocalPort}
			if done[a] {
				if c := claims[a]; c.system != n.RemoteSystem || c.port != n.RemotePort {
					w.report(d.Src, "%s %s: LLDP names two neighbours (%s %s and %s %s); no link written for the second", d.Name, Clean(n.LocalPort), Clean(c.system), Clean(c.port), Clean(n.RemoteSystem), Clean(n.RemotePort))
				}
				continue
			}
			done[a] = true
			far, ok := byName[n.RemoteSystem]
			if !ok {
				w.report(d.Src, "%s %s: LLDP neighbour %s %s is not among the imported devices; no link written", d.Name, Clean(n.LocalPort), Clean(n.RemoteSystem), Clean(n.RemotePort))
				continue
			}
			b := end{far, n.RemotePort}
			if done[b] {
				continue // written from the far end
			}
			if c, ok := claims[b]; ok && (byName[c.system] != d || c.port != n.LocalPort) {
				w.report(d.Src, "%s %s: LLDP says %s %s, which names %s %s instead; no link written", d.Name, Clean(n.LocalPort), far.Name, Clean(n.RemotePort), Clean(c.system), Clean(c.port))
				continue
			}
			done[b] = true
			if schema.CheckPortName(a.p, d.host()) != nil || schema.CheckPortName(b.p, far.host()) != nil {
				w.report(d.Src, "%s %s: LLDP neighbour port %q is no port name; no link written", d.Name, Clean(n.LocalPort), Clean(n.RemotePort))
				continue
			}
			pa, pb := portOf(d, a.p), portOf(far, b.p)
			l := link{a: d.Name + ":" + a.p, b: far.Name + ":" + b.p, src: []Span{pa.Src, pb.Src}}
			l.cableM = max(pa.CableM, pb.CableM)
			pa.CableM, pb.CableM = 0, 0
			l.name = w.objName("link", d.Name+"-"+a.p, "link")
			out = append(out, l)
		}
	}
	return out
}

// baseQoS is the QoS most of a device's ports have (a port naming none
// has the device's Default), the first on a tie; the Default for a
// device without ports.
func (w *writer) baseQoS(d *Device) *QoS {
	count := map[string]int{}
	var best *QoS
	bestN := 0
	for _, p := range d.Ports {
		q := p.QoS
		if q == nil {
			q = d.Default
		}
		if q == nil {
			continue
		}
		k := w.key(q)
		count[k]++
		if count[k] > bestN {
			best, bestN = q, count[k]
		}
	}
	if best == nil {
		return d.Default
	}
	return best
}

// peerDescription is a port description naming its peer the way EOS and
// NX-OS renders (and many operators) write it: "to DEVICE:PORT".
var peerDescription = regexp.MustCompile(`^to ([A-Za-z0-9][A-Za-z0-9_.-]*):(\S+)$`)

// describedPeers adds, for a port whose description names a port of an
// imported device ("to spine1:Ethernet1/1") and that LLDP says nothing
// about, that neighbour: an offline import then gets the links its
// configurations describe. The far end must agree or say nothing, as
// with LLDP.
func describedPeers(devs []*Device, byName map[string]*Device) {
	for _, d := range devs {
		known := map[string]bool{}
		for _, n := range d.Neighbors {
			known[n.LocalPort] = true
		}
		for _, p := range d.Ports {
			m := peerDescription.FindStringSubmatch(p.Description)
			if m == nil || known[p.Name] || byName[m[1]] == nil {
				continue
			}
			d.Neighbors = append(d.Neighbors, Neighbor{LocalPort: p.Name, RemoteSystem: m[1], RemotePort: m[2]})
		}
	}
}

// guessKind is a switch's tier from its name, as fabrics name them
// (superspine1, spine-02, dc1-core-a); any other switch is a leaf. Lint's
// tier rules (DLK004, cable defaults) read it: check it.
func guessKind(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "superspine"):
		return "superspine"
	case strings.Contains(n, "spine"):
		return "spine"
	case strings.Contains(n, "core"):
		return "core"
	}
	return "leaf"
}
