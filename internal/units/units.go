// Package units writes byte counts and speeds the one way fabricgen
// prints them: in the units the intent language writes them in
// (docs/language.md: KB, MB, GB are 10³, 10⁶, 10⁹; KiB, MiB, GiB powers
// of two; speeds "400G", "25G"), so schema.ParseSize and
// schema.ParseSpeed read a printed value back to the same number. A size
// is printed with a space before its unit ("150 KB", as prose writes it
// and ParseSize reads it too), a speed without ("400G").
//
// It is a leaf: schema, lint, check, the lab and the file readers all use
// it.
package units

import (
	"math"
	"strconv"
)

// unit is one suffix and its multiplier.
type unit struct {
	suffix string
	mult   int64
}

// Largest first.
var (
	decimalSizes = []unit{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}}
	binarySizes  = []unit{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}
	speeds       = []unit{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}}
)

// Size writes a byte count exactly: in the largest decimal unit that
// writes it with at most one decimal ("150 KB", "1.5 MB", "2 GB"), else
// the largest binary unit that writes it whole ("9 KiB", "64 MiB": the
// limits fabricgen sets are powers of two), else in bytes ("9217 B").
func Size(n int64) string {
	if n < 0 {
		return strconv.FormatInt(n, 10) + " B"
	}
	if s, ok := tenths(n, decimalSizes, " "); ok {
		return s
	}
	for _, u := range binarySizes {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + " " + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

// ApproxSize writes a measured byte count (a counter's delta, output
// received so far) to one decimal in the largest decimal unit it reaches
// ("1.2 GB", "830 B").
func ApproxSize(b float64) string {
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return strconv.FormatFloat(b, 'f', -1, 64) + " B"
	}
	for _, u := range decimalSizes {
		if math.Abs(b) >= float64(u.mult) {
			return strconv.FormatFloat(math.Round(b/float64(u.mult)*10)/10, 'f', -1, 64) + " " + u.suffix
		}
	}
	return strconv.FormatFloat(math.Round(b), 'f', -1, 64) + " B"
}

// Speed writes a speed in bit/s as the intent writes speeds, exactly: in
// the largest unit that writes it with at most one decimal ("400G",
// "1.6T", "2.5G", "10M"), else in bit/s ("1234567bps").
func Speed(bps int64) string {
	if s, ok := tenths(bps, speeds, ""); ok {
		return s
	}
	return strconv.FormatInt(bps, 10) + "bps"
}

// tenths writes n in the largest of units (each a multiple of 10) that
// writes it exactly with at most one decimal, sep between number and unit.
func tenths(n int64, units []unit, sep string) (string, bool) {
	for _, u := range units {
		if n < u.mult || n%(u.mult/10) != 0 {
			continue
		}
		s := strconv.FormatInt(n/u.mult, 10)
		if t := n % u.mult / (u.mult / 10); t != 0 {
			s += "." + strconv.FormatInt(t, 10)
		}
		return s + sep + u.suffix, true
	}
	return "", false
}
