package lint

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

func bufRules() []*Rule {
	return []*Rule{
		{
			ID: "BUF001", Title: "PFC headroom covers the link's speed, cable length and MTU", Severity: schema.SevError,
			Rationale: "After a port sends XOFF, data already on the cable and in the peer's pipeline still arrives; headroom smaller than that drops lossless traffic. The required size grows with speed and cable length (a 300 m 400G link needs about 290 KB per PG on Spectrum). On a SONiC switch whose hwsku is known the requirement is the SKU's own pg_profile_lookup.ini row, the values buffermgrd applies for that ASIC (sonic-buildimage device/<vendor>/<platform>/<hwsku>/; e.g. 400G at 5 m: xoff 178,562 B on Broadcom TH3, 231,424 B on Spectrum-4 without a shared headroom pool); elsewhere it is SONiC's Mellanox formula with Spectrum-2/3 parameters, a lower bound for ASICs with larger cells or pipelines.",
			Reference: "sonic-buildimage device/*/*/<hwsku>/pg_profile_lookup.ini (per SKU); sonic-swss cfgmgr/buffer_headroom_mellanox.lua with platform/mellanox/asic_table.j2 (Spectrum-2/3: cell 144 B, pipeline latency 19 KiB, MAC/PHY 0.8 KiB); IEEE 802.3 31B.3.7 pause quanta",
			Fix:       "Raise buffer { headroom } (or xoff) in the qos_policy of the port to at least the required size, or leave it unset so the platform computes it.",
			Run:       runHeadroom,
		},
		{
			ID: "BUF002", Title: "Every lossless link declares its cable length", Severity: schema.SevWarning,
			Rationale: "Headroom is computed from cable length; without it fabricgen (and SONiC) assume role defaults of 5/40/300 m, which silently under-size long links.",
			Reference: "SONiC buffers_config.j2 default cable lengths",
			Fix:       `Set cable_length (e.g. "30m") on the link.`,
			Run:       runCableLength,
		},
		{
			ID: "BUF005", Title: "XON is below XOFF", Severity: schema.SevWarning,
			Rationale: "XON at or above the XOFF threshold makes PAUSE flap on and off.",
			Reference: "SONiC dynamic headroom (xon = pipeline latency)",
			Fix:       "Set buffer { xon } below buffer { xoff }.",
			Run:       runXonXoff,
		},
	}
}

// linkSpeed is the link's speed, else the port's.
func linkSpeed(l *schema.Link, p *schema.Port) int64 {
	if l.Speed.Set && l.Speed.V > 0 {
		return l.Speed.V
	}
	return p.Speed.V
}

func runHeadroom(p *Pass) {
	// One headroom (or xoff) line is one cause: one finding for every port
	// it under-sizes, described by the port that needs the most.
	type worst struct {
		f    *Finding
		want int64
		min  int64 // the smallest requirement among the ports, for the detail
		n    int
		// ports are the ports short at the line (its places).
		ports []*schema.Port
	}
	byLine := map[lineKey]*worst{}
	var order []lineKey
	check := func(rx *schema.Port, speed int64, cable float64, rel Related) {
		if rx == nil || rx.QoS == nil || !isSwitch(rx) || rx.QoS.Lossless == 0 {
			return
		}
		b := rx.QoS.Buffer
		if !b.Headroom.Set && !b.XOFF.Set || speed <= 0 {
			return
		}
		mtu := rx.QoS.MTU.V
		if mtu == 0 {
			mtu = 9100
		}
		need := RequiredHeadroom(speed, cable, mtu)
		basis := fmt.Sprintf("xoff %s + xon %s; %s in flight on the cable", units.Size(need.XOFF), units.Size(need.XON), units.Size(need.CableBytes))
		if f := rx.Device.SKUHeadroom; f != nil {
			// The SKU's own row: what buffermgrd applies on this ASIC.
			if row, ok := f(speed/1_000_000, cable); ok {
				need = Headroom{XOFF: row.XOFF, Size: row.Size}
				basis = "the row of " + row.Source
			}
		}
		var have, want int64
		var src schema.Range
		var what string
		switch {
		case b.Headroom.Set && b.Headroom.V < need.Size:
			have, want, src, what = b.Headroom.V, need.Size, b.Headroom.Src, "headroom"
		case b.XOFF.Set && b.XOFF.V < need.XOFF:
			have, want, src, what = b.XOFF.V, need.XOFF, b.XOFF.Src, "xoff"
		default:
			return
		}
		subj := portSubject(src, rx)
		k := lineKey{subj.Filename, subj.Start.Line}
		w, ok := byLine[k]
		if ok {
			w.n++
			w.ports = append(w.ports, rx)
			w.min = min(w.min, want)
			if want <= w.want {
				return
			}
		}
		f := &Finding{Subject: ptr(subj), Device: rx.Device.Name, Port: rx.Name,
			Summary: fmt.Sprintf("%s: %s %s is below the %s needed for %s over %gm with MTU %d (%s)",
				rx.ID(), what, units.Size(have), units.Size(want), units.Speed(speed), cable, mtu, basis),
			Related: []Related{rel}}
		if !ok {
			byLine[k] = &worst{f: f, want: want, min: want, n: 1, ports: []*schema.Port{rx}}
			order = append(order, k)
			return
		}
		w.f, w.want = f, want
	}
	for _, l := range p.Fabric.Links {
		cable := l.CableLength.V
		if !l.CableLength.Set && l.A != nil && l.B != nil {
			cable = defaultCable(tierOf(l.A.Device), tierOf(l.B.Device))
		}
		for _, rx := range []*schema.Port{l.A, l.B} {
			if rx != nil {
				check(rx, linkSpeed(l, rx), cable, Related{Range: subjectOr(l.CableLength.Src, l.Range), Message: "cable length of link " + l.Name})
			}
		}
	}
	// A port's own cable (cable_length without peer: a far end the intent
	// does not model).
	for _, d := range p.Fabric.Devices {
		for _, rx := range d.Ports {
			if rx.Link == nil && rx.CableLength.Set {
				check(rx, rx.Speed.V, rx.CableLength.V, Related{Range: rx.CableLength.Src, Message: "cable length of port " + rx.ID()})
			}
		}
	}
	for _, k := range order {
		w := byLine[k]
		w.f.Count = w.n
		w.f.Places = portsPlaces(w.ports)
		if w.n > 1 && w.min < w.want {
			w.f.Detail = fmt.Sprintf("The value is short on %d ports; the port shown needs the most, the least-demanding one %s.", w.n, units.Size(w.min))
		}
		p.Report(*w.f)
	}
}

func runCableLength(p *Pass) {
	// One line (a for_each link) is one finding; links on different lines
	// that assume the same length are one problem with one fix: one
	// finding, every link a related place.
	var agg lineAgg
	assumed := map[lineKey]float64{}
	for _, l := range p.Fabric.Links {
		if l.CableLength.Set || l.A == nil || l.B == nil || l.A.QoS == nil || l.B.QoS == nil {
			continue
		}
		if l.A.QoS.Lossless == 0 && l.B.QoS.Lossless == 0 {
			continue
		}
		if agg.bump(l.Range, l.A) {
			continue
		}
		def := defaultCable(tierOf(l.A.Device), tierOf(l.B.Device))
		assumed[lineKey{l.Range.Filename, l.Range.Start.Line}] = def
		agg.add(Finding{Subject: ptr(l.Range), Device: l.A.Device.Name, Port: l.A.Name,
			Summary: fmt.Sprintf("lossless link %s (%s–%s) has no cable_length; headroom assumes %gm", l.Name, l.A.ID(), l.B.ID(), def),
			Fix:     cableFix(def)})
	}
	for _, f := range agg.placed(p) {
		def := assumed[lineKey{f.Subject.Filename, f.Subject.Start.Line}]
		place := strings.TrimPrefix(f.Summary[:strings.Index(f.Summary, " has no cable_length")], "lossless ")
		p.ReportAlike(f, Alike{Key: fmt.Sprintf("no cable_length; assumes %gm", def), Place: place,
			Summary: func(n int) string {
				return fmt.Sprintf("%d lossless links have no cable_length; headroom assumes %gm for each", n, def)
			}})
	}
}

// cableFix is BUF002's fix for links whose headroom assumes def metres.
func cableFix(def float64) string {
	return fmt.Sprintf("Set cable_length on each link to its measured length (e.g. cable_length = \"30m\"); until then headroom is sized for %gm.", def)
}

func runXonXoff(p *Pass) {
	for _, g := range groupQoS(p, nil) {
		b := g.qos.Buffer
		if b.XON.Set && b.XOFF.Set && b.XON.V >= b.XOFF.V {
			reportGroup(p, g, b.XON.Src, fmt.Sprintf("%s: xon %s is not below xoff %s", g.ports[0].ID(), units.Size(b.XON.V), units.Size(b.XOFF.V)))
		}
	}
}
