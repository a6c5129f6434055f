package qosread

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// TestHead holds Head's shortcut to the fields joined by one space.
func TestHead(t *testing.T) {
	for _, s := range []string{"", "a", "qos trust dscp", " lead", "trail ", "two  spaces", "tab\there", "nbsp\u00a0x", "line\r", "é ü", "a\u2003b"} {
		if got, want := Head(&config.Node{Line: s}), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("Head(%q) = %q, want %q", s, got, want)
		}
	}
}
