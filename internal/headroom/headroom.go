// Package headroom computes the PFC headroom a lossless priority group
// needs, by SONiC's Mellanox headroom formula, and the cable lengths SONiC
// assumes by role. lint checks intents against it where no SKU data gives
// the vendor's own figure.
package headroom

import "math"

// Headroom is the PFC headroom one lossless PG needs on the receiving port
// of a link, by SONiC's dynamic headroom formula for Mellanox Spectrum
// (sonic-swss cfgmgr/buffer_headroom_mellanox.lua, as of sonic-swss
// e6b0c5b) with the Spectrum-2/3 row of sonic-buildimage
// platform/mellanox/asic_table.j2 (cell 144 B, pipeline latency 19 KiB,
// MAC/PHY delay 0.8 KiB), buffers_config.j2's LOSSLESS_TRAFFIC_PATTERN
// (lossless MTU 1024, 50 % small packets), a 4-lane port (an 8-lane port
// doubles the pipeline latency), no gearbox and no shared headroom pool.
type Headroom struct {
	XOFF int64
	XON  int64
	// Size is XOFF + XON: the PG's headroom reservation.
	Size int64
	// CableBytes is the data in flight on the cable (both directions).
	CableBytes int64
}

// pauseQuanta is the peer response time by speed (IEEE 802.3 31B.3.7, as in SONiC).
var pauseQuanta = []struct {
	gbps   int64
	quanta int64
}{{10, 67}, {25, 80}, {40, 118}, {50, 147}, {100, 394}, {200, 453}, {400, 905}, {800, 905}}

// DefaultMTU is the port MTU the formula assumes when the intent sets none
// (SONiC's default port MTU).
const DefaultMTU = 9100

// Required computes the headroom for a link of speed (bit/s), cable length
// (m) and port MTU (bytes; 0: DefaultMTU), step for step as
// buffer_headroom_mellanox.lua does.
func Required(speedBps int64, cableM float64, portMTU int) Headroom {
	const (
		cell            = 144.0
		minPacket       = 64.0
		smallPercent    = 50.0
		pipelineLatency = 19 * 1024
		macPhyDelay     = 0.8 * 1024
		losslessMTU     = 1024.0
		lightSpeed      = 198e6
		compensation    = 2 * 1024
	)
	if portMTU <= 0 {
		portMTU = DefaultMTU
	}
	mbps := float64(speedBps) / 1e6
	quanta := pauseQuanta[len(pauseQuanta)-1].quanta
	for _, q := range pauseQuanta {
		if speedBps <= q.gbps*1e9 {
			quanta = q.quanta
			break
		}
	}
	worst := 2 * cell / (1 + cell)
	if cell > 2*minPacket {
		worst = cell / minPacket
	}
	worst = math.Ceil(worst)
	// The small-packet share by bytes, of a mix of 64 B and lossless-MTU
	// packets.
	smallByByte := 100 * minPacket / ((smallPercent*minPacket + (100-smallPercent)*losslessMTU) / 100)
	occupancy := (100 - smallByByte + smallByByte*worst) / 100
	peer := float64(quanta * 512 / 8)
	cable := 2 * cableM * mbps * 1e9 / lightSpeed / (8 * 1000)
	prop := float64(portMTU) + cable + macPhyDelay + peer
	xoff := math.Ceil((losslessMTU+prop*occupancy)/1024) * 1024
	// Without a shared headroom pool, 2 KiB more when the mix is still
	// short of the all-small-packets worst case.
	full := math.Ceil((losslessMTU+prop*worst)/1024) * 1024
	if xoff+compensation < full {
		xoff += compensation
	}
	xon := math.Ceil(pipelineLatency/1024.0) * 1024
	size := math.Ceil((xoff+xon)/1024) * 1024
	return Headroom{XOFF: int64(xoff), XON: int64(xon), Size: int64(size), CableBytes: int64(math.Round(cable))}
}

// DefaultCable is SONiC's default cable length by the tiers a link joins
// (buffers_config.j2: server–ToR 5 m, ToR–leaf 40 m, leaf–spine 300 m).
func DefaultCable(t1, t2 int) float64 {
	switch min(t1, t2) {
	case 0:
		return 5
	case 1:
		return 40
	}
	return 300
}

// LookupRows are the cable lengths (m) of the rows of SONiC's traditional
// buffer model lookup (device/*/pg_profile_lookup.ini: 5m, 40m and 300m
// per speed, the lengths buffers_config.j2 assigns by role).
var LookupRows = []int{5, 40, 300}

// LookupRow returns the smallest lookup row at least cableM long, and false
// when the cable is longer than the last row.
func LookupRow(cableM float64) (int, bool) {
	for _, r := range LookupRows {
		if cableM <= float64(r) {
			return r, true
		}
	}
	return 0, false
}
