package lab

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestFaultClearedDuringDelay: clearing the fault ends an answer being// delayed, and Fault reports what is left of drop-after.// TestFaultStream: a command matching the stream fault gets output that// never ends (read here well past 8 MiB), show commands included, on a// CLI and on a shell; clearing the fault ends it with the prompt, and// other commands are answered as usual.
func portsFor(p schema.Platform) []string {
	if platforms.IsHost(p) {
		return []string{"eth0"}
	}
	return nil
}

func TestFaultValidate(t *testing.T) {
	for _, f := range []Fault{{DropAfter: -1}, {Delay: -time.Second}, {Reject: "("}, {Stream: "("}} {
		if f.Validate() == nil {
			t.Errorf("%+v: Validate accepted it", f)
		}
	}
	if err := (Fault{DropAfter: 1, Reject: "^mtu"}).Validate(); err != nil {
		t.Errorf("valid fault refused: %v", err)
	}
}

func TestRotateHostKey(t *testing.T) {
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: anySwitch(t)})
	cl, err := dialSSH(l, "leaf1")
	if err != nil {
		t.Fatalf("dial with the original key: %v", err)
	}
	_ = cl.Close()
	if err := l.RotateHostKey("leaf1"); err != nil {
		t.Fatal(err)
	}
	_, err = dialSSH(l, "leaf1")
	var ke *knownhosts.KeyError
	if !errors.As(err, &ke) || len(ke.Want) == 0 {
		t.Fatalf("dial after rotation: err = %v, want a knownhosts key mismatch", err)
	}
	if err := l.RotateHostKey("nope"); err == nil {
		t.Error("RotateHostKey of an unknown device succeeded")
	}
}

func TestFaultSettings(t *testing.T) {
	cases := []struct {
		flag    string
		device  string
		want    Fault
		wantErr string
	}{
		{"leaf1:drop-after=3", "leaf1", Fault{DropAfter: 3}, ""},
		{"leaf1:reject=^qos map", "leaf1", Fault{Reject: "^qos map"}, ""},
		{"leaf1:reject=a=b:c", "leaf1", Fault{Reject: "a=b:c"}, ""},
		{"gpu01:delay=1.5s", "gpu01", Fault{Delay: 1500 * time.Millisecond}, ""},
		{"leaf1:reject=", "leaf1", Fault{}, ""},
		{"leaf1:stream=^show running", "leaf1", Fault{Stream: "^show running"}, ""},
		{"leaf1:stream=", "leaf1", Fault{}, ""},
		{"leaf1:stream=(", "", Fault{}, "stream takes a regular expression"},
		{"leaf1:drop-after=-1", "", Fault{}, "drop-after takes a whole number"},
		{"leaf1:drop-after=x", "", Fault{}, "drop-after takes a whole number"},
		{"leaf1:delay=soon", "", Fault{}, "delay takes a duration"},
		{"leaf1:delay=2h", "", Fault{}, "delay takes a duration"},
		{"leaf1:reject=(", "", Fault{}, "reject takes a regular expression"},
		{"leaf1:bogus=1", "", Fault{}, `unknown key "bogus"`},
		{"leaf1:delay", "", Fault{}, "has no '='"},
		{"leaf1", "", Fault{}, "use DEVICE:KEY=VALUE"},
		{":delay=1s", "", Fault{}, "use DEVICE:KEY=VALUE"},
	}
	for _, c := range cases {
		t.Run(c.flag, func(t *testing.T) {
			dev, setting, err := ParseFault(c.flag)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), c.flag) {
					t.Fatalf("ParseFault(%q) = %v, want an error naming the flag and %q", c.flag, err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var f Fault
			if err := f.Set(setting); err != nil {
				t.Fatal(err)
			}
			if dev != c.device || !reflect.DeepEqual(f, c.want) {
				t.Errorf("got %q %+v, want %q %+v", dev, f, c.device, c.want)
			}
		})
	}
	f := Fault{DropAfter: 2, Reject: "x y", Stream: "^show", Delay: time.Second}
	if got := f.String(); got != "drop-after=2 reject=x y stream=^show delay=1s" {
		t.Errorf("String() = %q", got)
	}
	if got := (Fault{}).String(); got != "none" {
		t.Errorf("zero String() = %q", got)
	}
}

// TestFaultStream: on every platform, a command matching the stream
// fault prints without end and no prompt; clearing the fault gives the
// shell back. Each platform types its brownfield case's show command (a
// host, which has none, its change), at the case's prompt.
func TestFaultStream(t *testing.T) {
	for _, c := range brownfieldCases(t) {
		cmd := c.Show
		if cmd == "" {
			cmd = c.Change[0]
		}
		t.Run(string(c.platform), func(t *testing.T) {
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.Ports})
			dev := l.Device("leaf1")
			dev.SetFault(Fault{Stream: "^" + regexp.QuoteMeta(cmd) + "$"})
			if got := dev.Fault().String(); !strings.Contains(got, "stream=") {
				t.Errorf("Fault() = %q", got)
			}
			sh := openShell(t, l, "leaf1", c.Prompt)
			if _, err := sh.in.Write([]byte(cmd + "\n")); err != nil {
				t.Fatal(err)
			}
			const want = 8 << 20
			got, lines := 0, 0
			var tail []byte
			deadline := time.After(patience(t))
			for got < want {
				select {
				case b, ok := <-sh.out:
					if !ok {
						t.Fatalf("connection closed after %d bytes", got)
					}
					got += len(b)
					lines += strings.Count(string(b), "stream fault: this output never ends")
					tail = append(tail, b...)
					if len(tail) > 4096 {
						tail = tail[len(tail)-4096:]
					}
				case <-deadline:
					t.Fatalf("only %d bytes after %s", got, patience(t))
				}
			}
			if lines < want/len(StreamLine)/2 {
				t.Errorf("%d bytes held %d stream lines", got, lines)
			}
			if re := regexp.MustCompile(c.Prompt); re.Match(bytes.ReplaceAll(tail, []byte("\r"), nil)) {
				t.Errorf("a prompt in the endless output: %q", tail)
			}
			dev.ClearFault()
			sh.buf.Reset()
			sh.wait()
			if out := sh.run("echo hello"); platforms.IsHost(c.platform) && !strings.Contains(out, "hello") {
				t.Errorf("after ClearFault: %q", out)
			}
		})
	}
}
