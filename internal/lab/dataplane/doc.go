// Package dataplane is the lab's data plane for fabricgen check: not a
// packet simulator, but counters that are functions of a lab clock.
//
// Traffic follows the intent's topology (every NIC sends RoCE and a little
// background traffic to a partner NIC across the fabric, over every
// equal-cost path) through each device's current configuration: each hop
// classifies, queues and re-marks as its running config says (read with
// its platform folder's reader, hosts from their NIC state), so a DSCP rewrite made
// out of band changes the counters downstream. From the resulting rates
// each port's counters are value = accumulated + rate × (now − since);
// a configuration or fault change re-integrates at the lab time it
// happened. Queue regimes stand in for congestion (marks, pauses, drops),
// and data-plane faults (Fault) for broken optics, storms and broken
// congestion control. RoCE that a hop queues with neither PFC nor ECN
// loses some packets there, and each receiver counts the go-back-N
// goodput left (Flow, rx_write_requests). A manual clock (NewClock: tests,
// the demo, lab up --clock manual) moves only when advanced
// (Clock.Advance, `fabricgen lab clock advance`, check --lab-dir), so tests
// never sleep; lab up's default clock (NewRealClock) also moves with the
// wall clock.
//
// This package is a kit: it looks no platform up. The lab engine gives
// each device its platform's parts (Platform: the running-config reader
// and the Responder answering the collector's commands, from
// platforms/<name>/), and the responders build their answers from a
// DeviceView.
package dataplane
