// Package deploy holds what fabricgen ships for operations, beside the
// binary: Prometheus alerting rules for check's textfile
// (deploy/prometheus). It has no code; its tests hold the files to what
// fabricgen writes and to the tools that read them (promtool).
package deploy
