package readings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// FileFormat is the version of the snapshot file's shape (--save,
// --baseline, --from). A new field raises the minor version; a changed or
// removed one the major, which older readers refuse.
const FileFormat = "1.1"

// maxSnapshotFile bounds a snapshot file read with ReadFile.
const maxSnapshotFile = 512 << 20

// File is what --save writes and --from and --baseline read: the
// snapshots of one run, oldest first.
type File struct {
	FormatVersion string `json:"format_version"`
	ToolVersion   string `json:"tool_version,omitempty"`
	// Fabric and IntentDigest say which intent the snapshots were taken
	// against; --from re-evaluates them against the intent given now.
	Fabric       string      `json:"fabric"`
	IntentDigest string      `json:"intent_digest,omitempty"`
	Snapshots    []*Snapshot `json:"snapshots"`
}

// Clock names where a snapshot's times come from.
type Clock string

// Clocks.
const (
	// ClockWall is the collector's wall clock (real devices).
	ClockWall Clock = "wall"
	// ClockLab is a lab's clock, which moves only when advanced.
	ClockLab Clock = "lab"
)

// Snapshot is one reading of every selected device.
type Snapshot struct {
	// Taken is when the reading started.
	Taken time.Time `json:"taken"`
	Clock Clock     `json:"clock"`
	// Devices are sorted by name.
	Devices []*Device `json:"devices"`
}

// Device is what one device's collector read.
type Device struct {
	Name     string          `json:"name"`
	Platform schema.Platform `json:"platform"`
	// Taken is when this device was read: the start of its window.
	Taken time.Time `json:"taken"`
	// Error says why the device could not be read; nothing else is set then.
	Error string `json:"error,omitempty"`
	// Ports are sorted in natural order.
	Ports []*Port `json:"ports,omitempty"`
	// QPs are the RDMA queue pairs of a host.
	QPs []QP `json:"qps,omitempty"`
	// Sources maps a metric family to the command or key it was read from.
	Sources map[string]string `json:"sources,omitempty"`
	// Missing lists the metric families the platform does not expose in
	// what the collector reads: rules needing them are not evaluated.
	Missing []string `json:"missing,omitempty"`
}

// Port is one interface (switch port or host netdev).
type Port struct {
	Name string `json:"name"`
	// Oper is "up" or "down"; empty when unknown.
	Oper string `json:"oper,omitempty"`
	// Speed is the operational speed in bit/s, Lanes the serdes lanes
	// in use (0: unknown).
	Speed int64 `json:"speed,omitempty"`
	Lanes int   `json:"lanes,omitempty"`
	// FEC is the operational FEC mode ("rs", "fc", "none"); empty when unknown.
	FEC string `json:"fec,omitempty"`
	// Copper is set when the device reports a passive copper cable in the
	// port (a DAC: no optics, so no DDM readings).
	Copper bool `json:"copper,omitempty"`
	// Counters are monotonic counters by metric key (Key).
	Counters map[string]uint64 `json:"counters,omitempty"`
	// Gauges are instantaneous values by metric key.
	Gauges map[string]float64 `json:"gauges,omitempty"`
	// QoS is the port's classification read back from the device, when
	// the collector reads it.
	QoS *QoS `json:"qos,omitempty"`
	// Sources maps a metric family to the command it was read with on
	// this port, where the platform reads each port with its own command
	// (the device's Sources name the command with IF in its place).
	Sources map[string]string `json:"sources,omitempty"`
}

// QoS is a port's QoS configuration as the device reports it.
type QoS struct {
	// Trust is "dscp", "pcp" or "none".
	Trust string `json:"trust,omitempty"`
	// DSCP maps code points to priorities (all 64 when known).
	DSCP map[int]int `json:"dscp,omitempty"`
	// PFC lists the PFC-enabled priorities.
	PFC []int `json:"pfc"`
	// ECN lists the queues (switches) or priorities (hosts) marking ECN.
	ECN []int `json:"ecn,omitempty"`
	// Remark maps the code points RoCE (UDP 4791) arrives with to the
	// one the port rewrites them to, where it rewrites (a set dscp policy
	// or ACL).
	Remark map[int]int `json:"remark,omitempty"`
	// DCQCN is a host NIC's congestion control on the RoCE priority, when
	// the collector reads it (nil: not read).
	DCQCN *DCQCN `json:"dcqcn,omitempty"`
}

// DCQCN is a host NIC's DCQCN state on one priority, read from MLNX_OFED's
// ECN sysfs (/sys/class/net/IF/ecn/roce_np|roce_rp/enable/PRIO).
type DCQCN struct {
	Priority int `json:"priority"`
	// NP and RP say whether the notification point (the receiver's CNPs)
	// and the reaction point (the sender's rate control) are on.
	NP bool `json:"np"`
	RP bool `json:"rp"`
	// Missing is set when the host has no such files to read (the
	// kernel's inbox mlx5 driver has none).
	Missing bool `json:"missing,omitempty"`
}

// QP is one RDMA queue pair as `rdma resource show qp` prints it.
type QP struct {
	Port  string `json:"port"`
	LQPN  uint32 `json:"lqpn"`
	Type  string `json:"type"`
	State string `json:"state"`
	Comm  string `json:"comm,omitempty"`
	PID   int    `json:"pid,omitempty"`
	// Syndrome is the completion error syndrome of a QP in error, as the
	// driver reports it ("0x12"), when known.
	Syndrome string `json:"syndrome,omitempty"`
}

// Key is the metric key of family at index i (a priority, queue or
// lane): "pfc_rx_frames/3". Families without an index are their own key.
func Key(family string, i int) string { return family + "/" + strconv.Itoa(i) }

// SplitKey splits "pfc_rx_frames/3" into the family and index (-1: none).
func SplitKey(key string) (string, int) {
	fam, idx, ok := strings.Cut(key, "/")
	if !ok {
		return key, -1
	}
	n, err := strconv.Atoi(idx)
	if err != nil {
		return key, -1
	}
	return fam, n
}

// Device returns the named device of the snapshot, or nil.
func (s *Snapshot) Device(name string) *Device {
	i := sort.Search(len(s.Devices), func(i int) bool { return s.Devices[i].Name >= name })
	if i < len(s.Devices) && s.Devices[i].Name == name {
		return s.Devices[i]
	}
	return nil
}

// Sort orders devices by name and ports naturally, so a snapshot prints
// the same whatever order the collectors finished in.
func (s *Snapshot) Sort() {
	sort.Slice(s.Devices, func(i, j int) bool { return s.Devices[i].Name < s.Devices[j].Name })
	for _, d := range s.Devices {
		sort.Slice(d.Ports, func(i, j int) bool { return schema.NaturalLess(d.Ports[i].Name, d.Ports[j].Name) })
		sort.Strings(d.Missing)
	}
}

// Port returns the named port, or nil.
func (d *Device) Port(name string) *Port {
	for _, p := range d.Ports {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Exposes reports whether the device's platform exposes a metric family.
func (d *Device) Exposes(family string) bool {
	for _, m := range d.Missing {
		if m == family {
			return false
		}
	}
	return true
}

// Source is the command a metric family was read with.
func (d *Device) Source(family string) string { return d.Sources[family] }

// PortSource is the command a metric family of one port was read with:
// the port's own command where it has one, else the device's.
func (d *Device) PortSource(port, family string) string {
	if p := d.Port(port); p != nil {
		if s, ok := p.Sources[family]; ok {
			return s
		}
	}
	return d.Sources[family]
}

// Write encodes the file as indented JSON.
func (f *File) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// Save writes the file to path (mode 0600: device state is not for everyone).
func (f *File) Save(path string) error {
	tmp := path + ".tmp"
	fh, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("save snapshots: %w", err)
	}
	if err := f.Write(fh); err != nil {
		_ = fh.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("save snapshots to %s: %w", path, err)
	}
	if err := fh.Close(); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("save snapshots to %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save snapshots to %s: %w", path, err)
	}
	return nil
}

// ReadFile reads and validates a snapshot file.
func ReadFile(path string) (*File, error) {
	fh, err := readlimit.Open(path)
	if err != nil {
		return nil, fmt.Errorf("snapshot file: %w", err)
	}
	defer func() { _ = fh.Close() }()
	f, err := Read(nestlimit.JSONReader(fh, path))
	if err != nil {
		return nil, fmt.Errorf("snapshot file %s: %w", path, err)
	}
	return f, nil
}

// Read decodes and validates a snapshot file as it reads it, refusing
// one past maxSnapshotFile without holding it in memory.
func Read(r io.Reader) (*File, error) { return readBounded(r, maxSnapshotFile) }

func readBounded(r io.Reader, limit int64) (*File, error) {
	var f File
	dec := json.NewDecoder(readlimit.Reader(r, "the file", limit))
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, readlimit.ErrTooLarge) {
			return nil, fmt.Errorf("%w: not a snapshot file fabricgen wrote", err)
		}
		return nil, fmt.Errorf("not a snapshot file (%w): write one with fabricgen check --save FILE", err)
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// validate refuses a file whose shape this version cannot read, or whose
// values break what Evaluate relies on.
func (f *File) validate() error {
	major, _, _ := strings.Cut(f.FormatVersion, ".")
	want, _, _ := strings.Cut(FileFormat, ".")
	if f.FormatVersion == "" {
		return errors.New("no format_version: not a snapshot file fabricgen wrote")
	}
	if major != want {
		return fmt.Errorf("format_version %q: this fabricgen reads %s.x", f.FormatVersion, want)
	}
	if len(f.Snapshots) == 0 {
		return errors.New("no snapshots in the file")
	}
	for i, s := range f.Snapshots {
		if s == nil {
			return fmt.Errorf("snapshot %d is null", i)
		}
		if s.Clock != ClockWall && s.Clock != ClockLab {
			return fmt.Errorf("snapshot %d: clock %q: want wall or lab", i, s.Clock)
		}
		seen := map[string]bool{}
		for _, d := range s.Devices {
			if d == nil || d.Name == "" {
				return fmt.Errorf("snapshot %d: a device without a name", i)
			}
			if seen[d.Name] {
				return fmt.Errorf("snapshot %d: device %s is listed twice", i, d.Name)
			}
			seen[d.Name] = true
			for _, p := range d.Ports {
				if p == nil || p.Name == "" {
					return fmt.Errorf("snapshot %d: device %s: a port without a name", i, d.Name)
				}
			}
		}
		s.Sort()
	}
	return nil
}
