package readings

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

func sampleFile() *File {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	dev := func(at time.Time, fcs uint64) *Device {
		return &Device{Name: "leaf1", Platform: "leaf_os", Taken: at, Sources: map[string]string{FCSErrors: "show interfaces counters errors | json"},
			Ports: []*Port{{Name: "Ethernet2", Oper: "up", Counters: map[string]uint64{FCSErrors: fcs}}, {Name: "Ethernet10", Counters: map[string]uint64{}}}}
	}
	return &File{FormatVersion: FileFormat, Fabric: "f", Snapshots: []*Snapshot{
		{Taken: t0, Clock: ClockLab, Devices: []*Device{dev(t0, 5)}},
		{Taken: t0.Add(10 * time.Second), Clock: ClockLab, Devices: []*Device{dev(t0.Add(10*time.Second), 9)}}}}
}

func TestSnapshotFileRoundTrip(t *testing.T) {
	f := sampleFile()
	path := filepath.Join(t.TempDir(), "s.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	_ = f.Write(&a)
	_ = got.Write(&b)
	if a.String() != b.String() {
		t.Errorf("round trip changed the file:\n%s\n%s", a.String(), b.String())
	}
	if p := got.Snapshots[0].Devices[0].Ports; p[0].Name != "Ethernet2" || p[1].Name != "Ethernet10" {
		t.Errorf("ports not in natural order: %s, %s", p[0].Name, p[1].Name)
	}
}

func TestSnapshotFileRefusals(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`{}`, "no format_version"},
		{`{"format_version":"2.0","snapshots":[{}]}`, "reads 1.x"},
		{`{"format_version":"1.0","snapshots":[]}`, "no snapshots"},
		{`{"format_version":"1.0","snapshots":[{"clock":"sundial"}]}`, `clock "sundial"`},
		{`{"format_version":"1.0","snapshots":[{"clock":"lab","devices":[{"name":"a"},{"name":"a"}]}]}`, "listed twice"},
		{`{"format_version":"1.0","snapshots":[{"clock":"lab","devices":[{"name":"a","ports":[{}]}]}]}`, "port without a name"},
		{`not json`, "not a snapshot file"},
	} {
		if _, err := Read(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Read(%s) = %v, want %q", c.in, err, c.err)
		}
	}
}

func FuzzReadSnapshots(f *testing.F) {
	var b bytes.Buffer
	_ = sampleFile().Write(&b)
	f.Add(b.String())
	f.Fuzz(func(t *testing.T, s string) {
		file, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, snap := range file.Snapshots {
			for _, d := range snap.Devices {
				_ = d.Exposes(FCSErrors)
				_ = snap.Device(d.Name)
			}
		}
	})
}

// TestSnapshotFileBounded: a file past the bound is refused as it is
// read, and a file that never ends (/dev/zero) is refused at once.
func TestSnapshotFileBounded(t *testing.T) {
	var b bytes.Buffer
	_ = sampleFile().Write(&b)
	if _, err := readBounded(bytes.NewReader(b.Bytes()), int64(b.Len())); err != nil {
		t.Fatalf("a file at the bound: %v", err)
	}
	_, err := readBounded(bytes.NewReader(b.Bytes()), int64(b.Len()/2))
	if !errors.Is(err, readlimit.ErrTooLarge) || !strings.Contains(err.Error(), "not a snapshot file fabricgen wrote") {
		t.Errorf("a file past the bound: %v", err)
	}
	// An endless string: refused at the bound, not read on.
	endless := io.MultiReader(strings.NewReader(`{"fabric":"`), neverEnds{})
	if _, err := readBounded(endless, 1<<20); !errors.Is(err, readlimit.ErrTooLarge) {
		t.Errorf("an endless string: %v", err)
	}
	if _, err := ReadFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero") {
		t.Errorf("ReadFile(/dev/zero) = %v", err)
	}
}

// neverEnds reads as an endless run of 'a'.
type neverEnds struct{}

func (neverEnds) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
