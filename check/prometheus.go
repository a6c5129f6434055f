package check

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/diag"
)

// WritePrometheus writes findings in the Prometheus text exposition
// format (version 0.0.4), for node-exporter's textfile collector: one
// series per finding and per measurement, the counts by severity, and
// when the run ended. Label values are escaped as the format requires.
func WritePrometheus(w io.Writer, fabric string, findings []Finding, devices int, at time.Time) error {
	bw := bufio.NewWriter(w)
	fab := `fabric="` + escapeLabel(fabric) + `"`
	fmt.Fprintf(bw, "# HELP fabricgen_check_findings Findings of fabricgen check by severity.\n# TYPE fabricgen_check_findings gauge\n")
	counts := map[string]int{"error": 0, "warning": 0, "info": 0}
	for i := range findings {
		counts[findings[i].Severity.String()]++
	}
	for _, sev := range []string{"error", "warning", "info"} {
		fmt.Fprintf(bw, "fabricgen_check_findings{%s,severity=%q} %d\n", fab, sev, counts[sev])
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_devices Devices fabricgen check read.\n# TYPE fabricgen_check_devices gauge\nfabricgen_check_devices{%s} %d\n", fab, devices)
	fmt.Fprintf(bw, "# HELP fabricgen_check_finding One series per finding (value 1), labelled with its rule, severity and place.\n# TYPE fabricgen_check_finding gauge\n")
	seen := map[string]bool{}
	var ev []string
	for i := range findings {
		f := &findings[i]
		labels := fmt.Sprintf("%s,rule=\"%s\",severity=\"%s\",device=\"%s\",port=\"%s\",summary=\"%s\"", fab, escapeLabel(f.Rule), f.Severity,
			escapeLabel(f.Device), escapeLabel(f.Port), escapeLabel(cut(f.Summary, 200)))
		if !seen[labels] {
			seen[labels] = true
			fmt.Fprintf(bw, "fabricgen_check_finding{%s} 1\n", labels)
		}
		for _, e := range f.Evidence {
			l := fmt.Sprintf("%s,rule=\"%s\",device=\"%s\",port=\"%s\",metric=\"%s\"", fab, escapeLabel(f.Rule), escapeLabel(e.Device), escapeLabel(e.Port), escapeLabel(e.Metric))
			if seen[l] || math.IsNaN(e.Value) {
				continue
			}
			seen[l] = true
			ev = append(ev, fmt.Sprintf("fabricgen_check_evidence{%s} %s", l, promValue(e.Value)))
		}
	}
	sort.Strings(ev)
	fmt.Fprintf(bw, "# HELP fabricgen_check_evidence The measurements findings rest on (a gauge, or a counter's increase over the window).\n# TYPE fabricgen_check_evidence gauge\n")
	for _, l := range ev {
		bw.WriteString(l + "\n")
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_last_run_timestamp_seconds When fabricgen check finished.\n# TYPE fabricgen_check_last_run_timestamp_seconds gauge\nfabricgen_check_last_run_timestamp_seconds{%s} %d\n", fab, at.Unix())
	return bw.Flush()
}

// escapeLabel escapes a label value: backslash, double quote and newline.
func escapeLabel(s string) string {
	s = diag.EscapeText(s, false)
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return r.Replace(s)
}

func promValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
