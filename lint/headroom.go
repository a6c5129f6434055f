package lint

import "github.com/fabricgen/fabricgen/internal/headroom"

// Headroom is the PFC headroom one lossless PG needs on the receiving port
// of a link (see internal/headroom: the SONiC dynamic headroom formula with
// Spectrum-2/3 values).
type Headroom = headroom.Headroom

// RequiredHeadroom computes the headroom for a link of speed (bit/s), cable
// length (m) and port MTU (bytes).
func RequiredHeadroom(speedBps int64, cableM float64, portMTU int) Headroom {
	return headroom.Required(speedBps, cableM, portMTU)
}

// defaultCable is SONiC's default cable length by the tiers a link joins.
func defaultCable(t1, t2 int) float64 { return headroom.DefaultCable(t1, t2) }
