package check

import (
	"io"

	"github.com/fabricgen/fabricgen/check/readings"
)

// The snapshot data model lives in check/readings, which the platforms'
// collectors fill without importing the rules (and so lint and the
// renderer). These names keep check's rules and its callers reading it as
// before.

// Snapshot data types (see package readings).
type (
	// File is readings.File.
	File = readings.File
	// Clock is readings.Clock.
	Clock = readings.Clock
	// Snapshot is readings.Snapshot.
	Snapshot = readings.Snapshot
	// Device is readings.Device.
	Device = readings.Device
	// Port is readings.Port.
	Port = readings.Port
	// QoS is readings.QoS.
	QoS = readings.QoS
	// DCQCN is readings.DCQCN.
	DCQCN = readings.DCQCN
	// QP is readings.QP.
	QP = readings.QP
)

// Snapshot file format and clocks (see package readings).
const (
	// FileFormat is readings.FileFormat.
	FileFormat = readings.FileFormat
	// ClockWall is readings.ClockWall.
	ClockWall = readings.ClockWall
	// ClockLab is readings.ClockLab.
	ClockLab = readings.ClockLab
)

// Metric families (see package readings).
const (
	RxPower          = readings.RxPower
	TxPower          = readings.TxPower
	RxPowerLoAlarm   = readings.RxPowerLoAlarm
	RxPowerLoWarn    = readings.RxPowerLoWarn
	TxPowerLoAlarm   = readings.TxPowerLoAlarm
	TxPowerLoWarn    = readings.TxPowerLoWarn
	TxPowerHiWarn    = readings.TxPowerHiWarn
	TxPowerHiAlarm   = readings.TxPowerHiAlarm
	Temperature      = readings.Temperature
	TempHiWarn       = readings.TempHiWarn
	TempHiAlarm      = readings.TempHiAlarm
	Voltage          = readings.Voltage
	VoltLoWarn       = readings.VoltLoWarn
	VoltHiWarn       = readings.VoltHiWarn
	PreFECBER        = readings.PreFECBER
	FCSErrors        = readings.FCSErrors
	RxErrors         = readings.RxErrors
	FECCorrected     = readings.FECCorrected
	FECUncorrected   = readings.FECUncorrected
	LinkFlaps        = readings.LinkFlaps
	RxBytes          = readings.RxBytes
	FECCorrectedBits = readings.FECCorrectedBits
	RxBits           = readings.RxBits
	TxBytes          = readings.TxBytes
	PFCRx            = readings.PFCRx
	PFCTx            = readings.PFCTx
	PFCTxDuration    = readings.PFCTxDuration
	PFCRxDuration    = readings.PFCRxDuration
	WDStorms         = readings.WDStorms
	WDRestored       = readings.WDRestored
	WDStormed        = readings.WDStormed
	NICStormWarn     = readings.NICStormWarn
	NICStormErr      = readings.NICStormErr
	QueueTxBytes     = readings.QueueTxBytes
	QueueDrops       = readings.QueueDrops
	QueueECN         = readings.QueueECN
	PrioRxBytes      = readings.PrioRxBytes
	PrioTxBytes      = readings.PrioTxBytes
	PrioDrops        = readings.PrioDrops
	NPECNMarked      = readings.NPECNMarked
	NPCNPSent        = readings.NPCNPSent
	RPCNPHandled     = readings.RPCNPHandled
	RPCNPIgnored     = readings.RPCNPIgnored
	OutOfSequence    = readings.OutOfSequence
	PacketSeqErr     = readings.PacketSeqErr
	LocalAckTimeout  = readings.LocalAckTimeout
	ImpliedNakSeqErr = readings.ImpliedNakSeqErr
	QoSReadback      = readings.QoSReadback
	QPState          = readings.QPState
	Oper             = readings.Oper
)

// Key is readings.Key.
func Key(family string, i int) string { return readings.Key(family, i) }

// SplitKey is readings.SplitKey.
func SplitKey(key string) (string, int) { return readings.SplitKey(key) }

// Families is readings.Families.
func Families() []string { return readings.Families() }

// ReadFile is readings.ReadFile.
func ReadFile(path string) (*File, error) { return readings.ReadFile(path) }

// Read is readings.Read.
func Read(r io.Reader) (*File, error) { return readings.Read(r) }
