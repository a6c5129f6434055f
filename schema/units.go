package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// unit is one accepted suffix and its multiplier.
type unit struct {
	suffix string
	mult   float64
}

// Suffixes are matched longest first, case-sensitively except where listed twice.
var (
	sizeUnits = []unit{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"kB", 1e3}, {"B", 1},
	}
	speedUnits = []unit{
		{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"bps", 1},
		{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3},
	}
	lengthUnits = []unit{{"km", 1000}, {"cm", 0.01}, {"m", 1}}
)

// maxUnitValue is the first value an int64 cannot hold (2^63): sizes and
// speeds at or above it are refused, not wrapped to a negative number.
const maxUnitValue = 1 << 63

// ParseSize parses a byte size such as "150KB" (150,000 B), "1.5MiB" or
// "200B". A bare number is refused: the unit is never guessed.
func ParseSize(s string) (int64, error) {
	v, err := parseUnit(s, sizeUnits, "size", `"150KB", "1.5MiB" or "9216B"`)
	if err != nil {
		return 0, err
	}
	if v >= maxUnitValue {
		return 0, fmt.Errorf("size %q is too large: at most %d bytes (about 9.2 EB)", s, int64(math.MaxInt64))
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("size %q is not a whole number of bytes", s)
	}
	return int64(v), nil
}

// ParseSpeed parses a link or rate speed such as "400G" or "25Gbps" into bit/s.
func ParseSpeed(s string) (int64, error) {
	v, err := parseUnit(s, speedUnits, "speed", `"400G", "100G" or "25Gbps"`)
	if err != nil {
		return 0, err
	}
	if v < 1 {
		return 0, fmt.Errorf("speed %q must be positive", s)
	}
	if v >= maxUnitValue {
		return 0, fmt.Errorf("speed %q is too large: at most %d bit/s (about 9.2 Ebps)", s, int64(math.MaxInt64))
	}
	return int64(math.Round(v)), nil
}

// ParseLength parses a cable length such as "3m", "0.5km" or "150cm" into metres.
func ParseLength(s string) (float64, error) {
	return parseUnit(s, lengthUnits, "length", `"3m", "100m" or "0.5km"`)
}

// ParseDuration parses a duration such as "200ms" or "1s" (Go duration syntax,
// a unit required).
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration: write a number with a unit, e.g. \"200ms\"")
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return 0, fmt.Errorf("duration %q has no unit: write e.g. \"%sms\"", s, t)
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: write a number with a unit (ms, s), e.g. \"200ms\"", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return d, nil
}

func parseUnit(s string, units []unit, what, examples string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty %s: write a number with a unit, e.g. %s", what, examples)
	}
	if last := t[len(t)-1]; (isDigit(last) || last == '.') && isNumber(t) {
		return 0, fmt.Errorf("%s %q has no unit: write it with one, e.g. %s", what, s, examples)
	}
	for _, u := range units {
		if !strings.HasSuffix(t, u.suffix) {
			continue
		}
		num := strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			break
		}
		if f < 0 {
			return 0, fmt.Errorf("%s %q is negative", what, s)
		}
		return f * u.mult, nil
	}
	return 0, fmt.Errorf("invalid %s %q: use a number with a unit, e.g. %s", what, s, examples)
}

// isNumber reports whether t is a plain number (checked only for strings
// that end in a digit, so unit-bearing values skip ParseFloat's error).
func isNumber(t string) bool {
	_, err := strconv.ParseFloat(t, 64)
	return err == nil
}
