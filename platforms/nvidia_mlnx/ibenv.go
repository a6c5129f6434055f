package nvidiamlnx

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/platforms/opensm"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// ibView is an InfiniBand host's render: no RoCE settings (no mlnx_qos,
// no ECN, no ToS; the subnet manager owns SL to VL and arbitration), only
// the environment a job sources so that NCCL and UCX, which build their
// QPs without asking the SA, put the intended SL on the wire. It has the
// fields device.tmpl prints; the exports are the ib-env.tmpl stanza.
type ibView struct {
	Base       view.Base
	Notes      []string
	Preamble   string
	Interfaces []ibInterface
}

type ibInterface struct{ Name, Text string }

// ibEnv is what ib-env.tmpl prints.
type ibEnv struct {
	// SL is rdma { sl } (SLSet false: unset, nothing exported; lint's
	// IBQ011 reports it).
	SL    int
	SLSet bool
	// PKeyIndex is NCCL_IB_PKEY: the P_Key table index of the partition
	// whose SL is the NIC's (PKeySet false: none, or several, applies;
	// NCCL then uses index 0, the Default partition).
	PKeyIndex int
	PKeySet   bool
	Partition string
}

// ibViewBuild builds an InfiniBand NIC's environment file.
func ibViewBuild(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	var env ibEnv
	if d.RDMA != nil && d.RDMA.SL.Set {
		env.SL, env.SLSet = d.RDMA.SL.V, true
		var found []*schema.Partition
		for _, p := range opensm.Ordered(f) {
			if _, ok := p.MembershipOf(d); ok && !p.Default.V && p.SL.Set && p.SL.V == env.SL {
				found = append(found, p)
			}
		}
		if len(found) == 1 {
			if i, ok := opensm.PKeyIndex(f, d, found[0]); ok {
				env.PKeyIndex, env.PKeySet, env.Partition = i, true, found[0].Name
			}
		}
	}
	text, err := b.Stanzas.Execute("ib-env.tmpl", env)
	if err != nil {
		return nil, fmt.Errorf("device %s: ib-env.tmpl: %w", d.Name, err)
	}
	b.Docs = ibDocs
	var h strings.Builder
	for _, l := range b.Header {
		h.WriteString(b.Comment + " " + l + "\n")
	}
	h.WriteString(b.Comment + " follows: " + ibDocs)
	b.HeaderText = h.String()
	return &ibView{Base: b, Preamble: strings.TrimRight(text, "\n")}, nil
}

// ibDocs is what an InfiniBand host's environment file follows.
const ibDocs = "NVIDIA/nccl src/transport/net_ib (NCCL_IB_SL; NCCL_IB_PKEY, a P_Key index), openucx/ucx ib_iface.c (UCX_IB_SL)"
