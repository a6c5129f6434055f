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

// Run is one run of check as the Prometheus exposition reports it.
type Run struct {
	Fabric   string
	Findings []Finding
	// Read is the number of devices read; Unreadable names the ones that
	// could not be.
	Read       int
	Unreadable []string
	// Failed says why the check could not run at all ("" when it ran).
	Failed string
	// At is when the run ended; LastSuccess when the last run that read
	// every device ended (this one when it did; zero when none is known).
	At, LastSuccess time.Time
}

// WritePrometheus writes a run in the Prometheus text exposition format
// (version 0.0.4), for node-exporter's textfile collector: whether the
// run read every device (fabricgen_check_up), one series per finding and
// per measurement, the counts by severity, and when the run and the last
// successful run ended. A run that could not judge the fabric writes
// fabricgen_check_up 0 with the reason and no findings: what a failed
// check cannot see is not reported as healthy, nor as the last run's
// findings. Label values are escaped as the format requires.
func WritePrometheus(w io.Writer, run Run) error {
	bw := bufio.NewWriter(w)
	fab := `fabric="` + escapeLabel(run.Fabric) + `"`
	up := 1
	if run.Failed != "" || len(run.Unreadable) > 0 {
		up = 0
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_up 1 when the run read every selected device and judged the fabric, 0 when it could not.\n# TYPE fabricgen_check_up gauge\nfabricgen_check_up{%s} %d\n", fab, up)
	if run.Failed != "" {
		fmt.Fprintf(bw, "# HELP fabricgen_check_error Why the run could not judge the fabric (value 1).\n# TYPE fabricgen_check_error gauge\nfabricgen_check_error{%s,reason=\"%s\"} 1\n", fab, escapeLabel(cut(run.Failed, 200)))
	}
	if run.Failed == "" {
		writeFindings(bw, fab, run)
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_last_run_timestamp_seconds When fabricgen check finished.\n# TYPE fabricgen_check_last_run_timestamp_seconds gauge\nfabricgen_check_last_run_timestamp_seconds{%s} %d\n", fab, run.At.Unix())
	if !run.LastSuccess.IsZero() {
		fmt.Fprintf(bw, "# HELP fabricgen_check_last_success_timestamp_seconds When the last run that read every device finished.\n# TYPE fabricgen_check_last_success_timestamp_seconds gauge\nfabricgen_check_last_success_timestamp_seconds{%s} %d\n", fab, run.LastSuccess.Unix())
	}
	return bw.Flush()
}

// writeFindings writes the devices read, the findings and their evidence.
func writeFindings(bw *bufio.Writer, fab string, run Run) {
	fmt.Fprintf(bw, "# HELP fabricgen_check_findings Findings of fabricgen check by severity.\n# TYPE fabricgen_check_findings gauge\n")
	counts := map[string]int{"error": 0, "warning": 0, "info": 0}
	for i := range run.Findings {
		counts[run.Findings[i].Severity.String()]++
	}
	for _, sev := range []string{"error", "warning", "info"} {
		fmt.Fprintf(bw, "fabricgen_check_findings{%s,severity=%q} %d\n", fab, sev, counts[sev])
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_devices Devices fabricgen check read, and could not read.\n# TYPE fabricgen_check_devices gauge\n")
	fmt.Fprintf(bw, "fabricgen_check_devices{%s,state=\"read\"} %d\nfabricgen_check_devices{%s,state=\"unreadable\"} %d\n", fab, run.Read, fab, len(run.Unreadable))
	if len(run.Unreadable) > 0 {
		fmt.Fprintf(bw, "# HELP fabricgen_check_device_unreadable One series per device the run could not read (value 1): it was not judged.\n# TYPE fabricgen_check_device_unreadable gauge\n")
		for _, d := range run.Unreadable {
			fmt.Fprintf(bw, "fabricgen_check_device_unreadable{%s,device=\"%s\"} 1\n", fab, escapeLabel(d))
		}
	}
	fmt.Fprintf(bw, "# HELP fabricgen_check_finding One series per finding (value 1), identified by its rule, severity and place only: what was measured is in fabricgen_check_evidence, so a run that measures another value keeps the series (and the alert on it).\n# TYPE fabricgen_check_finding gauge\n")
	seen := map[string]bool{}
	var ev, fs []string
	for i := range run.Findings {
		f := &run.Findings[i]
		labels := fmt.Sprintf("%s,rule=\"%s\",severity=\"%s\",device=\"%s\",port=\"%s\"", fab, escapeLabel(f.Rule), f.Severity,
			escapeLabel(f.Device), escapeLabel(f.Port))
		if !seen[labels] {
			seen[labels] = true
			fs = append(fs, "fabricgen_check_finding{"+labels+"} 1")
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
	sort.Strings(fs)
	for _, l := range fs {
		bw.WriteString(l + "\n")
	}
	sort.Strings(ev)
	fmt.Fprintf(bw, "# HELP fabricgen_check_evidence The measurements findings rest on (a gauge, or a counter's increase over the window).\n# TYPE fabricgen_check_evidence gauge\n")
	for _, l := range ev {
		bw.WriteString(l + "\n")
	}
}

// LastSuccess reads the time of the last successful run from a file an
// earlier run wrote (zero when it holds none, or is not one).
func LastSuccess(r io.Reader) time.Time {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var last time.Time
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "fabricgen_check_last_success_timestamp_seconds{")
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, "} ")
		if i < 0 {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(rest[i+2:]), 10, 64); err == nil && n > 0 {
			last = time.Unix(n, 0)
		}
	}
	return last
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
