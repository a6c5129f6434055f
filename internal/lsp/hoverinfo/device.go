package hoverinfo

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Device is the Markdown hover for a device: kind, platform and release,
// management address, host and RDMA settings (NICs, each with its source),
// the number of ports, and the effective QoS of its ports grouped by
// shared PortQoS, each group's table once (at most four groups).
func Device(d *schema.Device, file string) string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(deviceHeader(d))
	b.WriteString("\n")
	ds := scope{deviceBlock(d)}
	if d.MgmtAddress.V != "" {
		b.WriteString("\nmgmt: " + code(d.MgmtAddress.V) + "\n")
	}
	if d.Host.V != "" {
		b.WriteString("\nhost: " + code(d.Host.V) + "\n")
	}
	if d.Policy != nil {
		b.WriteString("\ndevice policy: " + ref("qos_policy", d.Policy.Name) + "\n")
	}
	if d.RDMA != nil {
		b.WriteString("\n")
		writeTable(&b, rdmaRows(d.RDMA, ds, file), nil)
	}
	b.WriteString("\n" + plural(len(d.Ports), "port") + "\n")
	writeGroups(&b, d, file)
	return b.String()
}

// deviceHeader is the bold name with kind, platform, release and hardware.
func deviceHeader(d *schema.Device) string {
	var parts []string
	if d.Kind.V != "" {
		parts = append(parts, esc(string(d.Kind.V)))
	}
	if d.Platform.V != "" {
		p := code(string(d.Platform.V))
		if v := d.OSVersion.V.Raw; v != "" {
			p += " " + esc(v)
			if !d.OSVersion.Set {
				p += " (default release)"
			}
		}
		parts = append(parts, p)
	}
	if d.ASIC.V != "" {
		parts = append(parts, "asic "+esc(d.ASIC.V))
	}
	if d.Model.V != "" {
		parts = append(parts, "model "+esc(d.Model.V))
	}
	h := "**" + code(d.Name) + "**"
	if len(parts) > 0 {
		h += " — " + strings.Join(parts, ", ")
	}
	return h
}

// rdmaRows are a NIC's RDMA settings with their sources.
func rdmaRows(r *schema.RDMA, s scope, file string) []row {
	var rows []row
	add := func(what, v string, set bool, src schema.Range) {
		rows = append(rows, row{what, v, s.from(src, set, file)})
	}
	tr := string(r.Transport.V)
	if tr == "" {
		tr = string(schema.TransportRoCEv2)
	}
	if r.Transport.Set || !r.SL.Set { // an InfiniBand NIC (its SL set) has no RoCE transport
		add("RDMA transport", esc(tr), r.Transport.Set, r.Transport.Src)
	}
	if r.SL.Set {
		add("RDMA SL", strconv.Itoa(r.SL.V), true, r.SL.Src)
	}
	if r.ToS.Set {
		add("RoCE ToS", strconv.Itoa(r.ToS.V)+" (DSCP "+strconv.Itoa(r.DSCP())+")", true, r.ToS.Src)
	}
	if r.CNPDSCP.Set || r.CNPPriority.Set {
		var v []string
		if r.CNPDSCP.Set {
			v = append(v, "DSCP "+strconv.Itoa(r.CNPDSCP.V))
		}
		if r.CNPPriority.Set {
			v = append(v, "priority "+strconv.Itoa(r.CNPPriority.V))
		}
		src := r.CNPDSCP.Src
		if !r.CNPDSCP.Set {
			src = r.CNPPriority.Src
		}
		add("CNP", strings.Join(v, ", "), true, src)
	}
	if r.ECN.Set {
		v := "off"
		if r.ECN.V {
			v = "on (DCQCN)"
		}
		add("ECN", v, true, r.ECN.Src)
	}
	if r.PathMTU.Set {
		add("path MTU", strconv.Itoa(r.PathMTU.V), true, r.PathMTU.Src)
	}
	return rows
}

// writeGroups renders the device's ports grouped by shared PortQoS, in
// port order of each group's first port.
func writeGroups(b *strings.Builder, d *schema.Device, file string) {
	var order []*schema.PortQoS
	groups := map[*schema.PortQoS][]*schema.Port{}
	for _, p := range d.Ports {
		if p.QoS == nil {
			continue
		}
		if _, ok := groups[p.QoS]; !ok {
			order = append(order, p.QoS)
		}
		groups[p.QoS] = append(groups[p.QoS], p)
	}
	for i, q := range order {
		if i == maxGroups {
			b.WriteString("\nand " + strconv.Itoa(len(order)-i) + " more groups\n")
			return
		}
		ps := groups[q]
		names := make([]string, len(ps))
		for j, p := range ps {
			names[j] = p.Name
		}
		b.WriteString("\n**" + foldNames(names, 6) + "** (" + plural(len(ps), "port") + ")")
		if pl := policyChain(ps[0]); pl != "" {
			b.WriteString(": " + pl)
		}
		b.WriteString("\n\n")
		writeTable(b, qosRows(q, portScope(ps[0]), file, ibFabric(ps[0])), nil)
	}
}

// plural is "1 port", "8 ports".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Devices is the hover for a device block declared once and instantiated
// many times (for_each or count): the instances' names, folded, at most 16
// runs, then Device of the first. devs are the devices whose Range is the
// block's, in fabric order.
func Devices(devs []*schema.Device, file string) string {
	if len(devs) == 0 {
		return ""
	}
	if len(devs) == 1 {
		return Device(devs[0], file)
	}
	names := make([]string, len(devs))
	for i, d := range devs {
		names[i] = d.Name
	}
	var b strings.Builder
	b.WriteString(plural(len(devs), "instance") + ": " + foldNames(names, maxInstances) + "\n\n---\n\nfirst instance:\n\n")
	b.WriteString(Device(devs[0], file))
	return b.String()
}
