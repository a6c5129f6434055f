package dataplane

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
)

// Module thresholds every emulated optic reports (a 400G-DR4-like
// module's DDM alarm and warning levels): receive and transmit power in
// dBm, temperature in °C, supply in V.
const (
	RxLowAlarm    = -13.3
	RxLowWarn     = -10.3
	RxHighWarn    = 3.0
	RxHighAlarm   = 4.0
	TxLowAlarm    = -10.0
	TxLowWarn     = -8.0
	TxHighWarn    = 3.0
	TxHighAlarm   = 4.0
	TempHighWarn  = 70.0
	TempHighAlarm = 75.0
	TempLowWarn   = 0.0
	TempLowAlarm  = -5.0
	VccLowAlarm   = 2.97
	VccLowWarn    = 3.135
	VccHighWarn   = 3.465
	VccHighAlarm  = 3.63
)

// Model is the data plane of one lab. It is safe for concurrent use;
// callers may hold their device's lock (the order is device, then model).
type Model struct {
	// mu guards everything below; readers (the devices' commands) share
	// it, a change or a refresh of the rates takes it alone.
	mu    sync.RWMutex
	clock *Clock
	f     *schema.Fabric
	devs  map[string]*device
	// stale is set when a configuration or fault changed since the rates
	// were computed; changeAt is the lab time of the first such change.
	stale    bool
	changeAt time.Duration
	// since is the lab time the current rates apply from.
	since time.Duration
	// flows are the NICs' RoCE flows of the current rates.
	flows []Flow
}

type device struct {
	name     string
	platform schema.Platform
	parts    Platform
	intent   *schema.Device
	text     string
	sw       *qosread.Device
	host     map[string]*nicState
	parsed   bool
	faults   []Fault
	ports    map[string]*port
	order    []string
	qps      []QP
}

// port is one port's counters and gauges.
type port struct {
	name      string
	acc, rate vec
	up        bool
	speed     int64
	lanes     int
	fec       string
	rx, tx    []float64
	temp, vcc float64
	ber       float64
	stormed   [8]bool
	watchdog  bool
	// copper is a passive copper link end (the intent's media dac or
	// backplane): no optics, no DDM.
	copper bool
	intent *schema.Port
}

// New returns the data plane of a lab for the fabric f (nil: devices
// without links or traffic) on clock c.
func New(f *schema.Fabric, c *Clock) *Model {
	if c == nil {
		c = NewClock()
	}
	return &Model{clock: c, f: f, devs: map[string]*device{}, stale: true}
}

// Clock returns the model's clock.
func (m *Model) Clock() *Clock { return m.clock }

// Platform is what the data plane takes of a device's platform: its name,
// how to read its running config, and how to answer its data-plane
// commands. The lab engine gives it from the platform registry (package
// platforms); the data plane never looks a platform up itself.
type Platform struct {
	// Name is the platform's name.
	Name schema.Platform
	// Host is true for a platform that configures a host NIC (its
	// PlatformSpec's Host).
	Host bool
	// Read reads a switch's running config (nil: the device's traffic
	// sees a factory configuration; hosts are read from their NIC state).
	Read qosread.Reader
	// Responder answers the platform's data-plane commands (none: the
	// device answers none, its emulator does).
	Responder Responder
}

// AddDevice registers a device of platform p and its ports (the intent's
// ports when the fabric has the device, else the given names).
func (m *Model) AddDevice(name string, p Platform, ports []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := &device{name: name, platform: p.Name, parts: p, ports: map[string]*port{}}
	if m.f != nil {
		d.intent = m.f.Device(name)
	}
	if d.intent != nil {
		ports = ports[:0:0]
		for _, ip := range d.intent.Ports {
			ports = append(ports, ip.Name)
		}
	}
	for _, n := range ports {
		if _, dup := d.ports[n]; dup {
			continue
		}
		pp := &port{name: n}
		if d.intent != nil {
			pp.intent = d.intent.Port(n)
		}
		d.ports[n] = pp
		d.order = append(d.order, n)
	}
	m.devs[name] = d
	m.markStale()
}

// markStale records a change at the current lab time; m.mu is held.
func (m *Model) markStale() {
	if !m.stale {
		m.stale = true
		m.changeAt = m.clock.Now()
	}
}

// SetConfig gives the model a device's current configuration text (what
// Export prints for switches, the NIC state dump for hosts); an unchanged
// text costs one comparison.
func (m *Model) SetConfig(name, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.devs[name]
	if d == nil || d.text == text {
		return
	}
	d.text, d.parsed = text, false
	m.markStale()
}

// SetFaults replaces a device's data-plane faults; each must fit the
// device (a port it has, a host or switch fault on the right kind, an
// optics fault on a port with optics).
func (m *Model) SetFaults(name string, fs []Fault) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.devs[name]
	if d == nil {
		return fmt.Errorf("no device %q", name)
	}
	if err := d.fits(fs); err != nil {
		return err
	}
	d.faults = append([]Fault(nil), fs...)
	m.markStale()
	return nil
}

// CheckFaults reports whether SetFaults would take the faults, without
// setting them.
func (m *Model) CheckFaults(name string, fs []Fault) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	d := m.devs[name]
	if d == nil {
		return fmt.Errorf("no device %q", name)
	}
	return d.fits(fs)
}

// fits checks faults against the device.
func (d *device) fits(fs []Fault) error {
	name := d.name
	for _, f := range fs {
		if f.Kind.needsPort() && d.ports[f.Value] == nil {
			return fmt.Errorf("%s: %s has no port %q (ports: %s)", f, name, f.Value, strings.Join(d.order, ", "))
		}
		if p := d.ports[f.Value]; f.Kind.optical() && p != nil && p.isCopper() {
			return fmt.Errorf("%s: %s:%s is on a passive copper (%s) link: it has no optics to fault; use bad-cable=%s for a faulty cable, or an optical port", f, name, f.Value, p.intent.Link.Media.V, f.Value)
		}
		if f.Kind.hostOnly() && !d.parts.Host {
			return fmt.Errorf("%s: %s is a switch; %s is a host NIC fault", f, name, f.Kind)
		}
		if f.Kind.switchOnly() && d.parts.Host {
			return fmt.Errorf("%s: %s is a host; %s is a switch fault", f, name, f.Kind)
		}
	}
	return nil
}

// PortNames lists a device's ports in the order they were added.
func (m *Model) PortNames(name string) []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if d := m.devs[name]; d != nil {
		return append([]string(nil), d.order...)
	}
	return nil
}

// Faults returns a device's data-plane faults.
func (m *Model) Faults(name string) []Fault {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if d := m.devs[name]; d != nil {
		return append([]Fault(nil), d.faults...)
	}
	return nil
}

// rlock takes the read lock with the rates brought up to date; release
// it with m.mu.RUnlock.
func (m *Model) rlock() {
	m.mu.RLock()
	if !m.stale {
		return
	}
	m.mu.RUnlock()
	m.mu.Lock()
	m.refresh()
	m.mu.Unlock()
	m.mu.RLock()
}

// refresh brings the rates up to date; m.mu is held for writing.
func (m *Model) refresh() {
	if !m.stale {
		return
	}
	dt := (m.changeAt - m.since).Seconds()
	for _, d := range m.devs {
		for _, p := range d.ports {
			if dt > 0 {
				p.acc.addScaled(&p.rate, dt)
			}
			p.rate = vec{}
		}
	}
	m.since = m.changeAt
	m.compute()
	m.stale = false
}

// Flows lists every NIC's RoCE flow to its partner under the current
// configurations and faults, in sender order.
func (m *Model) Flows() []Flow {
	m.rlock()
	defer m.mu.RUnlock()
	return append([]Flow(nil), m.flows...)
}

// ClearCounters zeroes a device's counters now, as `clear counters` or a
// restart does (check then reports counters that went down as a reset).
func (m *Model) ClearCounters(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.devs[name]
	if d == nil {
		return
	}
	m.refresh()
	now := m.clock.Now()
	dt := (now - m.since).Seconds()
	for _, od := range m.devs {
		for _, p := range od.ports {
			if dt > 0 {
				p.acc.addScaled(&p.rate, dt)
			}
		}
	}
	m.since = now
	for _, p := range d.ports {
		p.acc = vec{}
	}
}

// PortView is one port as the device would report it now.
type PortView struct {
	Name string
	// Up, Speed (bit/s), Lanes and FEC are the operational state.
	Up    bool
	Speed int64
	Lanes int
	FEC   string
	// RxPower and TxPower are per lane, in dBm; Temp in °C, Vcc in V.
	RxPower, TxPower []float64
	Temp, Vcc        float64
	// PreFECBER is the pre-FEC bit error ratio.
	PreFECBER float64
	// Stormed marks queues the PFC watchdog holds in storm now.
	Stormed [8]bool
	// Watchdog is true when the port's configuration enables it.
	Watchdog bool
	// Copper is a passive copper cable end (DAC, backplane): no optics,
	// so RxPower and TxPower are empty and Temp and Vcc zero.
	Copper bool
	// CableLength is the intent's cable length in metres (0: unknown).
	CableLength float64
	// Peer is the port at the other end of the intent's link, as
	// "device:port" ("" for a port on no link): what the port's LLDP
	// neighbour advertises.
	Peer string
	c    vec
}

// C is a counter's value now.
func (p *PortView) C(m Metric) uint64 {
	if m < 0 || m >= nMetrics || p.c[m] < 0 {
		return 0
	}
	return uint64(p.c[m])
}

// QP is one RDMA queue pair of a host.
type QP struct {
	Port  string
	RDMA  string
	LQPN  uint32
	RQPN  uint32
	Type  string
	State string
	Comm  string
	PID   int
	// Syndrome is the completion error syndrome of a QP in error ("0x12").
	Syndrome string
}

// DeviceView is one device's window on the model, for its emulator.
type DeviceView struct {
	m    *Model
	name string
}

// View returns the named device's view (nil when the model does not
// have the device, or m is nil).
func (m *Model) View(name string) *DeviceView {
	if m == nil {
		return nil
	}
	return &DeviceView{m: m, name: name}
}

// Now is the lab time.
func (v *DeviceView) Now() time.Duration { return v.m.clock.Now() }

// Ports returns every port of the device, in natural order.
func (v *DeviceView) Ports() []PortView {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil {
		return nil
	}
	names := append([]string(nil), d.order...)
	sort.Slice(names, func(i, j int) bool { return schema.NaturalLess(names[i], names[j]) })
	out := make([]PortView, 0, len(names))
	for _, n := range names {
		out = append(out, m.viewOf(d.ports[n]))
	}
	return out
}

// Port returns one port (ok false when the device has no such port).
func (v *DeviceView) Port(name string) (PortView, bool) {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil || d.ports[name] == nil {
		return PortView{}, false
	}
	return m.viewOf(d.ports[name]), true
}

// QPs returns the host's queue pairs.
func (v *DeviceView) QPs() []QP {
	m := v.m
	m.rlock()
	defer m.mu.RUnlock()
	d := m.devs[v.name]
	if d == nil {
		return nil
	}
	return append([]QP(nil), d.qps...)
}

// viewOf is a port's state now; m.mu is held (read or write).
func (m *Model) viewOf(p *port) PortView {
	pv := PortView{Name: p.name, Up: p.up, Speed: p.speed, Lanes: p.lanes, FEC: p.fec,
		RxPower: append([]float64(nil), p.rx...), TxPower: append([]float64(nil), p.tx...),
		Temp: p.temp, Vcc: p.vcc, PreFECBER: p.ber, Stormed: p.stormed, Watchdog: p.watchdog, Copper: p.copper}
	if p.intent != nil {
		pv.CableLength = p.intent.Cable().V
		if p.intent.Peer != nil && p.intent.Peer.Device != nil {
			pv.Peer = p.intent.Peer.ID()
		}
	}
	pv.c = p.acc
	pv.c.addScaled(&p.rate, (m.clock.Now() - m.since).Seconds())
	return pv
}

// Neighbor is what the port's LLDP neighbour advertises: the peer device's
// name and the peer port's (ok false for a port on no link).
func (p *PortView) Neighbor() (system, port string, ok bool) {
	system, port, ok = strings.Cut(p.Peer, ":")
	return system, port, ok && system != "" && port != ""
}
