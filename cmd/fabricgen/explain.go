package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/lint"
)

func newExplainCommand(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [RULE-ID]",
		Short: "Print a lint or check rule's documentation (or list every rule)",
		Long: `explain prints, as plain text, what a lint rule (QOS001…) or a check rule
(CHK001…, fabricgen check) checks, why (with public references: standards,
RFCs, vendor guides, papers), how to fix a finding and, for lint, how to
suppress one. Without an argument it lists every rule. The same text is in
docs/rules.md and docs/check-rules.md, generated from the registries.`,
		Example: `  fabricgen explain
  fabricgen explain QOS001
  fabricgen explain pfc002
  fabricgen explain CHK010`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if len(args) == 0 {
				fmt.Fprint(w, ruleListHelp())
				fmt.Fprint(w, checkRuleListHelp())
				return nil
			}
			if cr := check.Lookup(args[0]); cr != nil {
				fmt.Fprint(w, lint.RuleText(cr))
				return nil
			}
			r := lint.Lookup(args[0])
			if r == nil {
				return withCode(exitFailed, fmt.Errorf("no rule %q%s; run `fabricgen explain` for the list", args[0], suggestRule(args[0])))
			}
			fmt.Fprint(w, lint.RuleText(r))
			return nil
		},
	}
}

// suggestRule names rules sharing the ID's family prefix, if any.
func suggestRule(id string) string {
	id = strings.ToUpper(id)
	var same []string
	for _, r := range lint.Rules() {
		if len(id) >= 3 && strings.HasPrefix(r.ID, id[:3]) {
			same = append(same, r.ID)
		}
	}
	if len(id) >= 3 && strings.HasPrefix("CHK", id[:3]) {
		for _, r := range check.Rules() {
			same = append(same, r.ID)
		}
	}
	if len(same) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(same, ", ") + "?)"
}
