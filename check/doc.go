// Package check is fabricgen check: the live fabric judged against its
// intent. Collectors (internal/check/collect, one per platform) read each
// device's counters, optics, PFC, ECN, watchdog, RDMA and QP state over the
// SSH sessions plan uses, into vendor-neutral Snapshots; Evaluate compares
// two snapshots (a delta over the interval between them) with the resolved
// intent and reports findings of the CHK rules in the registry (Rules), in
// fabricgen's one diagnostics type, each with the measurements it rests on
// (diag.Evidence).
//
// Rules of evaluation: deltas, never totals (nothing is ever cleared); a
// counter that went down is a reset and is reported as one; a signal a
// platform does not expose is "not evaluated" (an info finding), never a
// pass; the intent decides which priorities are lossless and which queue
// carries RoCE; findings name a link or a hop, not just one port.
package check

//go:generate go test -run TestRulesDocUpToDate -update .
