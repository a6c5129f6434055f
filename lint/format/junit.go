package format

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/fabricgen/fabricgen/diag"
)

type juFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type juCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	Failures  []juFailure `xml:"failure"`
}

type juSuite struct {
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Cases    []juCase `xml:"testcase"`
}

type juDoc struct {
	XMLName  xml.Name  `xml:"testsuites"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Suites   []juSuite `xml:"testsuite"`
}

// writeJUnit writes one test case per rule of the registry (a passing case
// when the rule found nothing) with one failure per diagnostic; load and
// validation errors are failures of the validation rule.
func writeJUnit(w io.Writer, r *Result) error {
	suite := juSuite{Name: "fabricgen lint"}
	byRule := map[string][]*diag.Diagnostic{}
	for _, d := range r.Diagnostics {
		byRule[ruleID(d)] = append(byRule[ruleID(d)], d)
	}
	rules, _ := withDiagnosticRules(r.Rules, r.Diagnostics)
	for _, rule := range rules {
		c := juCase{Name: rule.ID + ": " + rule.Title, Classname: "fabricgen." + rule.ID}
		for _, d := range byRule[rule.ID] {
			where := "(no source)"
			if d.Subject != nil {
				where = d.Subject.String()
			}
			c.Failures = append(c.Failures, juFailure{Message: fmt.Sprintf("%s: %s", where, d.Summary), Type: d.Severity.String(), Text: message(d, "")})
		}
		if len(c.Failures) > 0 {
			suite.Failures++
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	doc := juDoc{Tests: suite.Tests, Failures: suite.Failures, Suites: []juSuite{suite}}
	return writeXML(w, doc)
}
