package format

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/fabricgen/fabricgen/lint"
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
// when the rule found nothing) with one failure per finding.
func writeJUnit(w io.Writer, r *Result) error {
	suite := juSuite{Name: "fabricgen lint"}
	byRule := map[string][]*lint.Finding{}
	for i := range r.Findings {
		f := &r.Findings[i]
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	rules := r.Rules
	idx := ruleIndex(rules)
	for _, f := range r.Findings {
		if _, ok := idx[f.Rule]; !ok {
			rules = append(rules, &lint.Rule{ID: f.Rule, Title: f.Rule})
			idx[f.Rule] = len(rules) - 1
		}
	}
	for _, rule := range rules {
		c := juCase{Name: rule.ID + ": " + rule.Title, Classname: "fabricgen." + rule.ID}
		for _, f := range byRule[rule.ID] {
			c.Failures = append(c.Failures, juFailure{Message: fmt.Sprintf("%s: %s", f.Subject, f.Message), Type: f.Severity.String(), Text: detail(f)})
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
