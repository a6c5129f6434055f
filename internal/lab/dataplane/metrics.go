package dataplane

// Metric indexes one counter of a port. Per-priority and per-queue
// counters take the priority or queue as an offset (Metric + i).
type Metric int

// The counters of a port.
const (
	RxBytes Metric = iota
	TxBytes
	RxPackets
	TxPackets
	FCSErrors
	SymbolErrors
	FECCorrected
	FECUncorrected
	LinkDown
	// QueueTxBytes … are per egress queue (+q).
	QueueTxBytes
	QueueTxPackets  = QueueTxBytes + 8
	QueueDrops      = QueueTxPackets + 8
	QueueECNMarked  = QueueDrops + 8
	PrioRxBytes     = QueueECNMarked + 8
	PrioRxPackets   = PrioRxBytes + 8
	PrioTxBytes     = PrioRxPackets + 8
	PrioTxPackets   = PrioTxBytes + 8
	PrioRxDiscards  = PrioTxPackets + 8
	PFCRxFrames     = PrioRxDiscards + 8
	PFCTxFrames     = PFCRxFrames + 8
	PFCRxPauseUS    = PFCTxFrames + 8
	PFCTxPauseUS    = PFCRxPauseUS + 8
	WDStorms        = PFCTxPauseUS + 8
	WDRestored      = WDStorms + 8
	WDDropped       = WDRestored + 8
	NPECNMarked     = WDDropped + 8
	NPCNPSent       = NPECNMarked + 1
	RPCNPHandled    = NPCNPSent + 1
	RPCNPIgnored    = RPCNPHandled + 1
	OutOfSequence   = RPCNPIgnored + 1
	PacketSeqErr    = OutOfSequence + 1
	LocalAckTimeout = PacketSeqErr + 1
	StormWarn       = LocalAckTimeout + 1
	StormErr        = StormWarn + 1
	RxWriteRequests = StormErr + 1
	nMetrics        = RxWriteRequests + 1
)

// vec is one value per metric.
type vec [nMetrics]float64

func (v *vec) addScaled(o *vec, k float64) {
	for i := range v {
		v[i] += o[i] * k
	}
}
