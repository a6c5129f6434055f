// Package deploy holds what fabricgen ships for operations, beside the
// binary: Prometheus alerting rules for check's textfile
// (deploy/prometheus) and the systemd service and timer that run check
// --local on every host (deploy/systemd). It has no code; its tests hold
// the files to what fabricgen writes and accepts and to the tools that
// read them (promtool, systemd-analyze).
package deploy
