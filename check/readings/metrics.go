package readings

// Metric families: the vendor-neutral names collectors file readings
// under. Indexed families take a lane, priority or queue (Key). Counters
// are monotonic; gauges are read once.
const (
	// Optics (gauges), per lane for the powers.
	RxPower        = "rx_power_dbm"
	TxPower        = "tx_power_dbm"
	RxPowerLoAlarm = "rx_power_low_alarm_dbm"
	RxPowerLoWarn  = "rx_power_low_warn_dbm"
	TxPowerLoAlarm = "tx_power_low_alarm_dbm"
	TxPowerLoWarn  = "tx_power_low_warn_dbm"
	TxPowerHiWarn  = "tx_power_high_warn_dbm"
	TxPowerHiAlarm = "tx_power_high_alarm_dbm"
	Temperature    = "temperature_c"
	TempHiWarn     = "temperature_high_warn_c"
	TempHiAlarm    = "temperature_high_alarm_c"
	Voltage        = "voltage_v"
	VoltLoWarn     = "voltage_low_warn_v"
	VoltHiWarn     = "voltage_high_warn_v"
	PreFECBER      = "pre_fec_ber"

	// Physical counters.
	FCSErrors      = "fcs_errors"
	RxErrors       = "rx_errors"
	FECCorrected   = "fec_corrected"
	FECUncorrected = "fec_uncorrected"
	LinkFlaps      = "link_flaps"
	RxBytes        = "rx_bytes"
	// FECCorrectedBits and RxBits give the pre-FEC BER over the window
	// where a platform counts bits (mlx5 rx_corrected_bits_phy, rx_bits_phy).
	FECCorrectedBits = "fec_corrected_bits"
	RxBits           = "rx_bits"
	TxBytes          = "tx_bytes"

	// Link layer, per priority.
	PFCRx = "pfc_rx_frames"
	PFCTx = "pfc_tx_frames"
	// PFCTxDuration is the time a priority was paused by frames this port
	// sent, in microseconds (mlx5 tx_prioN_pause_duration).
	PFCTxDuration = "pfc_tx_pause_us"
	// PFCRxDuration is the time a priority was paused by frames this port
	// received, in microseconds (mlx5 rx_prioN_pause_duration).
	PFCRxDuration = "pfc_rx_pause_us"

	// Watchdog, per queue: storms detected and restored (counters), and
	// stormed now (gauge 0/1).
	WDStorms   = "pfcwd_storms"
	WDRestored = "pfcwd_restored"
	WDStormed  = "pfcwd_stormed"
	// NIC PFC storm prevention events.
	NICStormWarn = "pause_storm_warning_events"
	NICStormErr  = "pause_storm_error_events"

	// Egress queues, per queue.
	QueueTxBytes = "queue_tx_bytes"
	QueueDrops   = "queue_drops"
	QueueECN     = "queue_ecn_marked"
	// Ingress, per priority: bytes classified into a priority (NIC
	// rx_prioN_bytes) and drops there (lossless ingress discards).
	PrioRxBytes = "prio_rx_bytes"
	PrioTxBytes = "prio_tx_bytes"
	PrioDrops   = "prio_rx_discards"

	// RDMA transport (hosts, per netdev).
	NPECNMarked      = "np_ecn_marked_roce_packets"
	NPCNPSent        = "np_cnp_sent"
	RPCNPHandled     = "rp_cnp_handled"
	RPCNPIgnored     = "rp_cnp_ignored"
	OutOfSequence    = "out_of_sequence"
	PacketSeqErr     = "packet_seq_err"
	LocalAckTimeout  = "local_ack_timeout_err"
	ImpliedNakSeqErr = "implied_nak_seq_err"

	// QoS read-back and QP state (not numbers: a family for Missing).
	QoSReadback = "qos"
	QPState     = "qp_state"
	// Oper is the port's state, speed and lanes (a family for Missing).
	Oper = "oper"
)

// Families lists every metric family, for docs and validation.
func Families() []string {
	return []string{RxPower, TxPower, RxPowerLoAlarm, RxPowerLoWarn, TxPowerLoAlarm, TxPowerLoWarn, TxPowerHiWarn, TxPowerHiAlarm,
		Temperature, TempHiWarn, TempHiAlarm, Voltage, VoltLoWarn, VoltHiWarn, PreFECBER,
		FCSErrors, RxErrors, FECCorrected, FECUncorrected, LinkFlaps, RxBytes, TxBytes, FECCorrectedBits, RxBits,
		PFCRx, PFCTx, PFCTxDuration, PFCRxDuration, WDStorms, WDRestored, WDStormed, NICStormWarn, NICStormErr,
		QueueTxBytes, QueueDrops, QueueECN, PrioRxBytes, PrioTxBytes, PrioDrops,
		NPECNMarked, NPCNPSent, RPCNPHandled, RPCNPIgnored, OutOfSequence, PacketSeqErr, LocalAckTimeout, ImpliedNakSeqErr,
		QoSReadback, QPState, Oper}
}
