package check

// Thresholds are the numbers the rules judge by. Zero fields take the
// defaults (DefaultThresholds); docs/check.md lists each with its source.
type Thresholds struct {
	// RxMarginDB is added to the module's low-alarm receive power: below
	// lowAlarm + margin is an error (ANTA VerifyInterfacesOpticsReceivePower,
	// failure_margin 2 dB).
	RxMarginDB float64
	// MaxTemperatureC is the optic temperature that warns when the module
	// gives no lower high-warning threshold (the seed document: < 70 °C).
	MaxTemperatureC float64
	// VoltageTolerance is the allowed deviation from 3.3 V when the module
	// gives no warning thresholds (the seed document: within 5 %).
	VoltageTolerance float64
	// PreFECBERWarn and PreFECBERError bound the pre-FEC bit error ratio
	// (ANTA VerifyInterfacesBER default 1e-7; 2.4e-4 is the RS(544,514)
	// correction limit of 802.3 clause 119).
	PreFECBERWarn, PreFECBERError float64
	// FlapsError is the number of link flaps in one window that is an
	// error rather than a warning.
	FlapsError float64
	// ClassShare is the fraction of a hop's RoCE bytes that may arrive
	// outside RoCE's class before CHK014 reports it (background control
	// traffic, rounding).
	ClassShare float64
	// MinRoCEBytes is the least RoCE traffic through a hop in the window
	// for CHK014 to judge it (less is "cannot verify"); a peer that sent
	// less than this in a priority has nothing a pause could be for.
	MinRoCEBytes float64
	// StormPausesPerSecond is the pause rate from which pauses with
	// nothing to pause are a storm (CHK012) rather than stray frames.
	StormPausesPerSecond float64
	// StormPausedShare is the share of the window a NIC may be paused on
	// one priority before its peer's pauses count as a storm.
	StormPausedShare float64
}

// DefaultThresholds are the documented defaults.
func DefaultThresholds() Thresholds {
	return Thresholds{RxMarginDB: 2, MaxTemperatureC: 70, VoltageTolerance: 0.05,
		PreFECBERWarn: 1e-7, PreFECBERError: 2.4e-4, FlapsError: 3, ClassShare: 0.1, MinRoCEBytes: 1 << 20,
		StormPausesPerSecond: 100, StormPausedShare: 0.9}
}

// merge returns t with the fields o sets.
func (t Thresholds) merge(o Thresholds) Thresholds {
	set := func(dst *float64, v float64) {
		if v != 0 {
			*dst = v
		}
	}
	set(&t.RxMarginDB, o.RxMarginDB)
	set(&t.MaxTemperatureC, o.MaxTemperatureC)
	set(&t.VoltageTolerance, o.VoltageTolerance)
	set(&t.PreFECBERWarn, o.PreFECBERWarn)
	set(&t.PreFECBERError, o.PreFECBERError)
	set(&t.FlapsError, o.FlapsError)
	set(&t.ClassShare, o.ClassShare)
	set(&t.MinRoCEBytes, o.MinRoCEBytes)
	set(&t.StormPausesPerSecond, o.StormPausesPerSecond)
	set(&t.StormPausedShare, o.StormPausedShare)
	return t
}
