package osmconf

import (
	"fmt"
	"math"
)

// cNumber is the result of C's strtoul/strtol with base 0 on a string.
type cNumber struct {
	neg      bool   // a '-' sign was read
	mag      uint64 // the magnitude (saturated at MaxUint64 on overflow)
	overflow bool   // the magnitude does not fit 64 bits
	digits   bool   // at least one digit was converted
	end      int    // index after the converted text (0 when no digits)
}

// cParse reads s as strtoul(s, &end, 0) does: leading isspace, an optional
// sign, then "0x"/"0X" + hex digits, "0" + octal digits, or decimal digits.
func cParse(s string) cNumber {
	i := 0
	for i < len(s) && cIsSpace(s[i]) {
		i++
	}
	var n cNumber
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i < len(s) && s[i] == '0' {
		if i+2 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && hexVal(s[i+2]) < 16 {
			base = 16
			i += 2
		} else {
			base = 8
		}
	}
	for i < len(s) {
		d := hexVal(s[i])
		if d >= base {
			break
		}
		n.digits = true
		if !n.overflow {
			if n.mag > (math.MaxUint64-d)/base {
				n.overflow = true
				n.mag = math.MaxUint64
			} else {
				n.mag = n.mag*base + d
			}
		}
		i++
	}
	if n.digits {
		n.end = i
	}
	return n
}

// hexVal is the value of a hex digit, or 99.
func hexVal(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

// constError is an error that can be a constant.
type constError string

// Error returns the message.
func (e constError) Error() string { return string(e) }

// errNotNumber is returned for a value that is not wholly a C number.
const errNotNumber = constError("not a number (decimal, 0x hex or 0-prefixed octal)")

// strictUint reads s as a whole non-negative C number no larger than max.
func strictUint(s string, max uint64) (uint64, error) {
	n := cParse(s)
	if !n.digits || n.end != len(s) {
		return 0, errNotNumber
	}
	if n.neg && n.mag != 0 {
		return 0, fmt.Errorf("negative value %s", s)
	}
	if n.overflow || n.mag > max {
		return 0, fmt.Errorf("value %s above %d", s, max)
	}
	return n.mag, nil
}

// strictInt reads s as a whole C number within [min, max].
func strictInt(s string, min, max int64) (int64, error) {
	n := cParse(s)
	if !n.digits || n.end != len(s) {
		return 0, errNotNumber
	}
	if n.overflow || n.mag > math.MaxInt64 {
		return 0, fmt.Errorf("value %s out of range %d-%d", s, min, max)
	}
	v := int64(n.mag)
	if n.neg {
		v = -v
	}
	if v < min || v > max {
		return 0, fmt.Errorf("value %s out of range %d-%d", s, min, max)
	}
	return v, nil
}
