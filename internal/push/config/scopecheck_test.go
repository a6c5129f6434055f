package config_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/schema"
)

// TestDerivableScope: of an unverified record's claims the device bears
// out, VerifiedScope keeps each; DerivableScope keeps only those the
// render or fabricgen's naming re-derives, and lists the rest as held
// back. A claim the device does not bear out is in neither and not held.
func TestDerivableScope(t *testing.T) {
	eos := mustDialect(t, schema.AristaEOS)
	sonic := mustDialect(t, schema.SONiC)
	const eosRender = "ip access-list roce-mark\n   10 permit udp any any eq 4791\n"
	tests := []struct {
		name                    string
		platform                schema.Platform
		running, render, scope  string
		verifiedHas, derivedHas []string
		derivedLacks            []string
		held                    []string
	}{
		{name: "eos: an exact copy of another team's ACL", platform: schema.AristaEOS,
			running:     eosRender + "ip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n",
			render:      eosRender,
			scope:       eosRender + "ip access-list MGMT-SSH\n   10 permit tcp 10.0.0.0/8 any eq ssh\n",
			verifiedHas: []string{"MGMT-SSH"}, derivedHas: []string{"roce-mark"}, derivedLacks: []string{"MGMT-SSH"},
			held: []string{"ip access-list MGMT-SSH"}},
		{name: "eos: an FG- ACL the render dropped is fabricgen's", platform: schema.AristaEOS,
			running:     eosRender + "ip access-list FG-OLD\n   10 permit ip any any\n",
			render:      eosRender,
			scope:       eosRender + "ip access-list FG-OLD\n   10 permit ip any any\n",
			verifiedHas: []string{"FG-OLD"}, derivedHas: []string{"FG-OLD"}},
		{name: "eos: an interface the render does not configure", platform: schema.AristaEOS,
			running:     "interface Ethernet30/1\n   mtu 9000\n",
			render:      eosRender,
			scope:       eosRender + "interface Ethernet30/1\n   mtu 9000\n",
			verifiedHas: []string{"Ethernet30/1"}, derivedLacks: []string{"Ethernet30/1"},
			held: []string{"interface Ethernet30/1"}},
		{name: "eos: a claim the device does not bear out is not held", platform: schema.AristaEOS,
			running:      eosRender + "ip access-list MGMT-SSH\n   10 permit tcp any any eq ssh\n",
			render:       eosRender,
			scope:        eosRender + "ip access-list MGMT-SSH\n   10 permit tcp any any eq 23\n",
			derivedLacks: []string{"MGMT-SSH"}},
		{name: "sonic: another team's WRED profile", platform: schema.SONiC,
			running:     `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"},"OTHER":{"ecn":"ecn_none"}}}`,
			render:      `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"}}}`,
			scope:       `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"},"OTHER":{"ecn":"ecn_none"}}}`,
			verifiedHas: []string{"OTHER"}, derivedHas: []string{"roce"}, derivedLacks: []string{"OTHER"},
			held: []string{"WRED_PROFILE|OTHER"}},
		{name: "sonic: fabricgen's scheduler and a rule of a rendered ACL table are fabricgen's", platform: schema.SONiC,
			running:     `{"SCHEDULER":{"fabricgen.3":{"type":"DWRR","weight":"50"}},"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}},"ACL_RULE":{"ROCE_MARK_IN|RULE_30":{"PACKET_ACTION":"DROP"},"THEIRS|RULE_1":{"PACKET_ACTION":"DROP"}}}`,
			render:      `{"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}}}`,
			scope:       `{"SCHEDULER":{"fabricgen.3":{"type":"DWRR","weight":"50"}},"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}},"ACL_RULE":{"ROCE_MARK_IN|RULE_30":{"PACKET_ACTION":"DROP"},"THEIRS|RULE_1":{"PACKET_ACTION":"DROP"}}}`,
			verifiedHas: []string{"THEIRS"}, derivedHas: []string{"fabricgen.3", "RULE_30"}, derivedLacks: []string{"THEIRS"},
			held: []string{"ACL_RULE|THEIRS|RULE_1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := eos
			if tc.platform == schema.SONiC {
				d = sonic
			}
			v, err := config.VerifiedScope(tc.running, tc.render, tc.scope, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.verifiedHas {
				if !strings.Contains(v, s) {
					t.Errorf("VerifiedScope lacks %q:\n%s", s, v)
				}
			}
			got, held, err := config.DerivableScope(tc.running, tc.render, tc.scope, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.derivedHas {
				if !strings.Contains(got, s) {
					t.Errorf("DerivableScope lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tc.derivedLacks {
				if strings.Contains(got, s) {
					t.Errorf("DerivableScope keeps %q:\n%s", s, got)
				}
			}
			if !reflect.DeepEqual(held, tc.held) {
				t.Errorf("held %q, want %q", held, tc.held)
			}
			// The scope kept from a config parsed once compares as the
			// same scope parsed again from its text.
			for _, trust := range []bool{true, false} {
				kept, _, err := config.CheckScope(tc.running, config.NewSource(tc.render, d), config.NewSource(tc.scope, d), d, trust)
				if err != nil {
					t.Fatal(err)
				}
				once, err1 := config.CompareSource("d", tc.running, config.NewSource(tc.render, d), kept, d)
				again, err2 := config.CompareScoped("d", tc.running, tc.render, kept.Text(), d)
				if err1 != nil || err2 != nil || !reflect.DeepEqual(once, again) {
					t.Errorf("trust %v: the kept scope parsed once compares otherwise than its text (%v, %v):\n%+v\n%+v", trust, err1, err2, once, again)
				}
			}
		})
	}
}
