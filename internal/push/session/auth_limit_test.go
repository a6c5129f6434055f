package session

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

// TestKeyFileBounded: a key file path naming an endless file (/dev/zero)
// fails quickly with the path and what it is (a character device, which
// readlimit refuses before reading a byte) in the message.
func TestKeyFileBounded(t *testing.T) {
	c := schema.Credentials{Username: schema.Value[string]{V: "admin", Set: true}, KeyFile: schema.Value[string]{V: "/dev/zero", Set: true}}
	start := time.Now()
	_, err := ResolveAuth("leaf1", c, func(string) string { return "" }, nil)
	if err == nil || !strings.Contains(err.Error(), "/dev/zero") || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("error %v; want one naming /dev/zero and what it is", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
}
