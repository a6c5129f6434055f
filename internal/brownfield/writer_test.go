package brownfield

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
	"github.com/fabricgen/fabricgen/templates/view"
)

// autoDescribes are the platforms whose render describes a port without
// a description by its peer ("to leaf1:Ethernet1").
var autoDescribes = map[schema.Platform]bool{"arista_eos": true, "cisco_nxos": true}

// perfect is an importer that knows the intent: it reads the resolved
// model straight back (no configuration text). A round trip through it
// tests the writer's factoring alone: whatever it loses is the writer's.
func perfect(f *schema.Fabric, d *schema.Device) *importer.Device {
	fabric := f.Name
	out := &importer.Device{Name: d.Name, Fabric: fabric, Platform: string(d.Platform.V), Src: importer.Span{File: d.Name + ".cfg"}}
	if d.HostPlatform {
		out.Kind = "nic"
	}
	out.ClassNames = map[int]string{}
	for p, n := range view.ClassNames(f) {
		out.ClassNames[p] = n
	}
	if d.OSVersion.Set {
		out.OSVersion = d.OSVersion.V.Raw
	}
	for _, a := range []struct {
		dst *string
		v   schema.Value[string]
	}{{&out.ASIC, d.ASIC}, {&out.Model, d.Model}, {&out.HWSKU, d.HWSKU}, {&out.Driver, d.Driver}, {&out.BufferModel, d.BufferModel}} {
		if a.v.Set {
			*a.dst = a.v.V
		}
	}
	if r := d.RDMA; r != nil {
		x := &importer.RDMA{}
		if r.Transport.Set {
			x.Transport = string(r.Transport.V)
		}
		set := func(v schema.Value[int]) *int {
			if !v.Set {
				return nil
			}
			n := v.V
			return &n
		}
		x.PathMTU, x.ToS, x.CNPDSCP, x.CNPPriority = set(r.PathMTU), set(r.ToS), set(r.CNPDSCP), set(r.CNPPriority)
		if r.ECN.Set {
			b := r.ECN.V
			x.ECN = &b
		}
		out.RDMA = x
	}
	acls := map[string]*schema.ACL{}
	for _, p := range d.Ports {
		ip := &importer.Port{Name: p.Name, Description: p.Description, Routed: p.Routed.V, Src: importer.Span{File: out.Src.File}}
		if autoDescribes[d.Platform.V] && ip.Description == "" && p.Peer != nil {
			ip.Description = "to " + p.Peer.ID() // what the configuration prints
		}
		if p.IP.Set {
			ip.IP = p.IP.V.String()
		}
		if p.MTU.Set {
			ip.MTU = p.MTU.V
		}
		if p.Speed.Set {
			ip.Speed = p.Speed.V
		}
		if p.FEC.Set {
			ip.FEC = p.FEC.V
		}
		if c := p.Cable(); c.Set {
			ip.CableM = c.V
		}
		if p.QoS != nil {
			ip.QoS = qosOf(p.QoS)
		}
		for _, a := range p.ACLIn {
			ip.ACLIn = append(ip.ACLIn, a.Name)
			acls[a.Name] = a
		}
		for _, a := range p.ACLOut {
			ip.ACLOut = append(ip.ACLOut, a.Name)
			acls[a.Name] = a
		}
		out.Ports = append(out.Ports, ip)
	}
	// The device's QoS: its most common port QoS.
	count := map[string]int{}
	var best *importer.QoS
	for _, p := range out.Ports {
		if p.QoS == nil {
			continue
		}
		k := qosKey(p.QoS)
		count[k]++
		if best == nil || count[k] > count[qosKey(best)] {
			best = p.QoS
		}
	}
	out.Default = best
	for _, p := range out.Ports {
		if p.QoS != nil && best != nil && qosKey(p.QoS) == qosKey(best) {
			p.QoS = nil
		}
	}
	names := make([]string, 0, len(acls))
	for n := range acls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := acls[n]
		ia := &importer.ACL{Name: a.Name}
		for _, r := range a.Rules {
			ir := &importer.ACLRule{Seq: r.Seq, Action: string(r.Action.V), Family: r.Family, Protocol: r.Protocol.V}
			if r.Family == "any" {
				ir.Family = ""
			}
			if r.SrcPrefix.Set {
				ir.SrcPrefix = r.SrcPrefix.V.String()
			}
			if r.DstPrefix.Set {
				ir.DstPrefix = r.DstPrefix.V.String()
			}
			for _, pr := range r.SrcPorts.V {
				ir.SrcPorts = append(ir.SrcPorts, [2]int{pr.From, pr.To})
			}
			for _, pr := range r.DstPorts.V {
				ir.DstPorts = append(ir.DstPorts, [2]int{pr.From, pr.To})
			}
			ir.DSCP = r.DSCP.V
			if r.SetDSCP.Set && r.SetDSCP.V >= 0 {
				v := r.SetDSCP.V
				ir.SetDSCP = &v
			}
			ir.PoliceBps = r.Police.V
			ia.Rules = append(ia.Rules, ir)
		}
		out.ACLs = append(out.ACLs, ia)
	}
	return out
}

func qosKey(q *importer.QoS) string {
	var b strings.Builder
	b.WriteString(q.Trust)
	for d := range 64 {
		b.WriteString("," + strconv.Itoa(q.DSCP[d]))
	}
	for p := range 8 {
		b.WriteString(";" + strconv.Itoa(q.PCP[p]) + "/" + strconv.Itoa(q.Queue[p]))
	}
	b.WriteString("|" + strings.Join(intsStr(q.PFC), ","))
	for qn := range 8 {
		if x := q.Queues[qn]; x != nil {
			b.WriteString("q" + strconv.Itoa(qn) + x.Sched + ptr(x.Weight) + strconv.FormatInt(x.ShaperBps, 10))
			if x.ECN != nil {
				b.WriteString("e" + strconv.FormatInt(x.ECN.MinBytes, 10) + "-" + strconv.FormatInt(x.ECN.MaxBytes, 10) + ptr(x.ECN.MinFill) + ptr(x.ECN.MaxFill) + strconv.Itoa(x.ECN.Probability) + strconv.FormatBool(x.ECN.Mark))
			}
		}
	}
	if w := q.Watchdog; w != nil {
		b.WriteString("w" + strconv.FormatInt(w.DetectionMS, 10) + "/" + strconv.FormatInt(w.RestorationMS, 10) + "/" + strconv.FormatInt(w.PollMS, 10) + w.Action)
	}
	b.WriteString("m" + strconv.Itoa(q.MTU))
	if x := q.Buffer; x != nil {
		b.WriteString("buf" + strconv.FormatInt(x.Headroom, 10) + "/" + strconv.FormatInt(x.XOFF, 10) + "/" + strconv.FormatInt(x.XON, 10) + "/" + strconv.FormatInt(x.IngressLosslessPool, 10) + "/" + strconv.FormatInt(x.EgressLossyPool, 10) + "/" + ptr(x.DynamicThreshold))
	}
	if q.LinkPause != nil {
		b.WriteString("lp" + strconv.FormatBool(*q.LinkPause))
	}
	return b.String()
}

func intsStr(v []int) []string {
	out := make([]string, len(v))
	for i, n := range v {
		out[i] = strconv.Itoa(n)
	}
	return out
}

func ptr(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// qosOf is a port's resolved QoS in the importer's terms.
func qosOf(q *schema.PortQoS) *importer.QoS {
	out := &importer.QoS{Trust: string(q.Trust.V), DSCP: map[int]int{}, PCP: map[int]int{}, Queue: map[int]int{}, Queues: map[int]*importer.Queue{}, PFCSet: true}
	for d := range 64 {
		out.DSCP[d] = q.DSCP[d].V
	}
	for p := range 8 {
		out.PCP[p] = q.PCP[p].V
		out.Queue[p] = q.Queue[p].V
	}
	out.PFC = q.Lossless.List()
	for qn := range 8 {
		x := q.Queues[qn]
		iq := &importer.Queue{Sched: string(x.Sched.V), ShaperBps: x.Shaper.V}
		if x.Weight.Set {
			w := x.Weight.V
			iq.Weight = &w
		}
		if e := x.ECN.V; e != nil {
			ie := &importer.ECN{Name: e.Name, MinBytes: e.Min.V, MaxBytes: e.Max.V, Probability: e.Probability.V, Mark: e.Mark.V}
			if e.MinFill.Set {
				v := e.MinFill.V
				ie.MinFill = &v
			}
			if e.MaxFill.Set {
				v := e.MaxFill.V
				ie.MaxFill = &v
			}
			iq.ECN = ie
		}
		if iq.Sched != "" || iq.Weight != nil || iq.ShaperBps != 0 || iq.ECN != nil {
			out.Queues[qn] = iq
		}
	}
	if w := q.Watchdog.V; w != nil {
		x := &importer.Watchdog{Name: w.Name, DetectionMS: w.Detection.V.Milliseconds()}
		if w.Restoration.Set {
			x.RestorationMS = w.Restoration.V.Milliseconds()
		}
		if w.PollInterval.Set {
			x.PollMS = w.PollInterval.V.Milliseconds()
		}
		if w.Action.Set {
			x.Action = string(w.Action.V)
		}
		out.Watchdog = x
	}
	if b := q.Buffer; b.Headroom.Set || b.XOFF.Set || b.XON.Set || b.IngressLosslessPool.Set || b.EgressLossyPool.Set || b.DynamicThreshold.Set {
		x := &importer.Buffer{Headroom: b.Headroom.V, XOFF: b.XOFF.V, XON: b.XON.V, IngressLosslessPool: b.IngressLosslessPool.V, EgressLossyPool: b.EgressLossyPool.V}
		if b.DynamicThreshold.Set {
			v := b.DynamicThreshold.V
			x.DynamicThreshold = &v
		}
		out.Buffer = x
	}
	if q.MTU.Set {
		out.MTU = q.MTU.V
	}
	if q.LinkPause.Set {
		b := q.LinkPause.V
		out.LinkPause = &b
	}
	return out
}

// TestWriterRoundTrip: the writer, fed the resolved model itself, writes
// intent that renders every platform's devices of every example and
// fixture as the original does.
func TestWriterRoundTrip(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms.Needing("importer") {
		t.Run(string(p.Name), func(t *testing.T) {
			srcs := roundTripSources(t, p)
			keys := make([]string, 0, len(srcs))
			for k := range srcs {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Run(k, func(t *testing.T) { writerRoundTrip(t, r, p, srcs[k]) })
			}
		})
	}
}

func writerRoundTrip(t *testing.T, r *templates.Renderer, p platform.Platform, dir string) {
	_ = context.Background()
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("%s does not load: %v", dir, diags)
	}
	want := map[string]string{}
	var devs []*importer.Device
	for _, d := range f.Devices {
		if d.Platform.V != p.Name || len(devs) >= roundTripMaxDevices {
			continue
		}
		out, err := r.Render(f, d)
		if err != nil {
			continue
		}
		want[d.Name] = string(out.Text)
		devs = append(devs, perfect(f, d))
	}
	if len(devs) == 0 {
		return
	}
	writeAndCompare(t, r, devs, want, "written intent's render")
}
