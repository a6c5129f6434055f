package nestlimit

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestEntryPoints runs every entry point on 100,000 levels of each kind
// of nesting, starting on line 2 after a prefix: each must refuse it at
// the exact FILE:LINE:COLUMN of the first token past Max, never crash.
// The same shapes at Max levels pass.
func TestEntryPoints(t *testing.T) {
	const n = 100_000
	jsonReader := func(src []byte, name string) error {
		_, err := io.Copy(io.Discard, JSONReader(iotest.OneByteReader(strings.NewReader(string(src))), name))
		return err
	}
	for _, c := range []struct {
		entry       string
		check       func(src []byte, name string) error
		kind        string
		prefix      string // on line 2, before the nesting
		open, close string
		col         int // column of the token past Max
	}{
		// "x = " then 100 opens fill the levels; the 101st is at 4+101.
		{"HCL", HCL, "brackets", "x = ", "[", "]", 4 + 101},
		{"HCL", HCL, "braces", "x = ", "{a=", "}", 4 + 3*100 + 1},
		{"HCL", HCL, "parentheses", "x = ", "(", ")", 4 + 101},
		{"HCL", HCL, "templates", "x = ", `"${`, `}"`, 4 + 3*50 + 1}, // "${ is two levels
		{"HCLExpression", HCLExpression, "brackets", "", "[", "]", 101},
		{"HCLExpression", HCLExpression, "parentheses", "", "(", ")", 101},
		{"JSON", JSON, "arrays", `"v": `, "[", "]", 5 + 100},                       // the object is level 1
		{"JSON", JSON, "objects", `"v": `, `{"a":`, "}", 5 + 5*99 + 1},             //
		{"JSONReader", jsonReader, "arrays", `"v": `, "[", "]", 5 + 100},           //
		{"JSONReader", jsonReader, "objects", `"v": `, `{"a":`, "}", 5 + 5*99 + 1}, //
	} {
		t.Run(c.entry+"/"+c.kind, func(t *testing.T) {
			head, tail := "\n", "\n"
			if strings.HasPrefix(c.entry, "JSON") {
				head, tail = "{\n", "}\n"
			}
			for _, deep := range []bool{true, false} {
				depth := n
				switch {
				case deep:
				case strings.HasPrefix(c.entry, "JSON"):
					depth = Max - 1 // the enclosing object is a level
				default:
					depth = Max
				}
				if c.kind == "templates" {
					depth /= 2 // each "${ opens two levels
				}
				src := head + c.prefix + strings.Repeat(c.open, depth) + "1" + strings.Repeat(c.close, depth) + tail
				err := c.check([]byte(src), "f")
				if !deep {
					if err != nil {
						t.Errorf("%d levels refused: %v", depth, err)
					}
					continue
				}
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrTooDeep) {
					t.Fatalf("err = %v, want an *Error", err)
				}
				if want := fmt.Sprintf("f:2:%d: nested too deeply: ", c.col); !strings.HasPrefix(err.Error(), want) {
					t.Errorf("err = %.200s, want it to start %q", err, want)
				}
			}
		})
	}
}

// TestJSONStrings: brackets inside JSON strings (escaped quotes too) are
// not nesting.
func TestJSONStrings(t *testing.T) {
	src := `{"a": "` + strings.Repeat(`[\"{`, 500) + `"}`
	if err := JSON([]byte(src), "f"); err != nil {
		t.Fatal(err)
	}
}
