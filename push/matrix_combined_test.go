package push

import (
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// Combined mutations (issue 10): two changes of the intent in one plan.
// A change that moves a queue and changes its values at once made EOS
// refuse every retry: the session diff lines up the children of the
// removed tx-queue 3 with those of the added tx-queue 4, and the old
// random-detect line read as another administrator's change.

// matrixEdits returns the edits of the named single mutation.
func matrixEdits(t *testing.T, name string) []fixtureEdit {
	t.Helper()
	for _, m := range matrixMutations {
		if m.name == name {
			return append([]fixtureEdit(nil), m.edits...)
		}
	}
	t.Fatalf("no matrix mutation %q", name)
	return nil
}

// matrixCombined is the table of combined mutations, in the form of
// matrixMutations.
func matrixCombined(t *testing.T) []matrixMutation {
	return []matrixMutation{
		// The lossless priority moves 3 -> 4 and its ECN threshold
		// changes: the new queue carries the new threshold, the old one
		// goes whole.
		{name: "priority+ecn", edits: append(matrixEdits(t, "lossless-priority"), matrixEdits(t, "ecn-threshold")...),
			by: map[schema.Platform]matrixExpect{
				mEOS: {lines: `^qos map dscp 26 to traffic-class [34]$|^\s+priority-flow-control priority [34] no-drop$|^\s+tx-queue [34]$|^\s+random-detect ecn minimum-threshold (150000|200000) bytes `, max: 32,
					plus:  []string{"qos map dscp 26 to traffic-class 4", "tx-queue 4", "minimum-threshold 200000 bytes"},
					minus: []string{"tx-queue 3", "minimum-threshold 150000 bytes"},
					cmds:  []string{`^no tx-queue 3$`, `^tx-queue 4$`, `^random-detect ecn minimum-threshold 200000 bytes`},
					gone:  []string{eosMatrixIfs + `tx-queue 3$`, `> random-detect ecn minimum-threshold 150000 bytes`},
					now:   []string{eosMatrixIfs + `tx-queue 4 > random-detect ecn minimum-threshold 200000 bytes`},
					kept:  []string{eosMatrixIfs + `tx-queue 0 > bandwidth percent 50$`}},
				mNXOS: {lines: `^\s+(set qos-group [34]|pause pfc-cos [34]|bandwidth remaining percent (0|50)|random-detect minimum-threshold (146|195) kbytes .*)$`, max: 10,
					plus: []string{"set qos-group 4", "pause pfc-cos 4", "minimum-threshold 195 kbytes"}, minus: []string{"pause pfc-cos 3", "minimum-threshold 146 kbytes"},
					cmds: []string{`^no pause pfc-cos 3$`, `^no random-detect minimum-threshold 146 kbytes`, `^random-detect minimum-threshold 195 kbytes`},
					gone: []string{`c-out-8q-q3 > random-detect `, `c-8q-nq3 > pause pfc-cos 3$`},
					now:  []string{`c-out-8q-q4 > random-detect minimum-threshold 195 kbytes`}},
				mJunos: {lines: `forwarding-classes class (roce|prio3|prio4) |flow-control-queue [34]$|FABRICGEN-Q[34]|FABRICGEN-ECN-roce interpolate fill-level (55|60)$`, max: 18,
					plus: []string{"class roce queue-num 4 no-loss", "fill-level 60"}, minus: []string{"class roce queue-num 3 no-loss", "fill-level 55"},
					cmds: []string{`^delete class-of-service forwarding-classes class roce queue-num 3 no-loss$`, `^delete class-of-service drop-profiles FABRICGEN-ECN-roce interpolate fill-level 55$`},
					gone: []string{`schedulers FABRICGEN-Q3 `, `fill-level 55$`},
					now:  []string{`schedulers FABRICGEN-Q4 drop-profile-map `, `fill-level 60$`}},
				mNVUE: {lines: `default-global traffic-class [34] |dscp 26 switch-priority [34]$|pfc default-global switch-priority [34]$`, max: 18,
					plus: []string{"traffic-class 4 min-threshold 200000"}, minus: []string{"traffic-class 3 min-threshold 150000"},
					cmds: []string{`^nv unset qos congestion-control default-global traffic-class 3 min-threshold 150000$`, `^nv set qos congestion-control default-global traffic-class 4 min-threshold 200000$`},
					gone: []string{`congestion-control default-global traffic-class 3 `, `min-threshold 150000$`},
					now:  []string{`traffic-class 4 min-threshold 200000$`}},
				mSONiC: {lines: `^(DSCP_TO_TC_MAP\|FABRICGEN\|26|PFC_PRIORITY_TO_PRIORITY_GROUP_MAP\|FABRICGEN\|[34]|BUFFER_PG\|\w+\|[34]\|profile|PORT_QOS_MAP\|\w+\|(pfc_enable|pfcwd_sw_enable)|QUEUE\|\w+\|[34]\|\w+|SCHEDULER\|fabricgen\.[34]\|\w+|TC_TO_PRIORITY_GROUP_MAP\|FABRICGEN\|[34]|WRED_PROFILE\|roce\|(green|yellow|red)_min_threshold) = `, max: 68,
					plus: []string{"QUEUE|Ethernet0|4|wred_profile = roce", "WRED_PROFILE|roce|green_min_threshold = 200000"}, minus: []string{"QUEUE|Ethernet0|3|wred_profile = roce", "WRED_PROFILE|roce|green_min_threshold = 150000"},
					cmds: []string{`^\{"op":"remove","path":"/QUEUE/Ethernet0\|3"\}$`, `^\{"op":"replace","path":"/WRED_PROFILE/roce/green_min_threshold","value":"200000"\}$`},
					gone: []string{`^QUEUE\|Ethernet(0|8|56|240|248)\|3\|`, `^WRED_PROFILE\|roce\|green_min_threshold = 150000$`},
					now:  []string{`^QUEUE\|Ethernet0\|4\|wred_profile = roce$`, `^WRED_PROFILE\|roce\|green_min_threshold = 200000$`}},
				// The ECN curve is switch-side: the NICs see the priority move.
				mMLNX: {lines: `^\S+ (dscp2prio 26|pfc|tcbw) = |/ecn/roce_[nr]p/enable/3 value = `, max: 16,
					plus: []string{"dscp2prio 26 = 4"}, minus: []string{"dscp2prio 26 = 3"},
					cmds: []string{`^mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,1,0,0,0$`, `^mlnx_qos -i ens1f0np0 --tsa \S+ --tcbw 50,0,0,0,50,0,0,0$`},
					gone: []string{`^netdev ens1f0np0 > pfc 0,0,0,1,0,0,0,0$`},
					now:  []string{`^netdev ens1f0np0 > pfc 0,0,0,0,1,0,0,0$`}, touched: []string{`> (pfc|dscp-prio|tc-bw) `, `> ecn roce_[nr]p enable `}},
				mDCB: {lines: `^\S+ (app dscp-prio 26|ets tc-bw [34]|pfc prio-pfc [34]) = `, max: 20,
					plus: []string{"pfc prio-pfc 4 = on"}, minus: []string{"pfc prio-pfc 3 = on"},
					cmds: []string{`^dcb pfc set dev enp65s0f0np0 prio-pfc 0:off 1:off 2:off 3:off 4:on `},
					gone: []string{`^netdev enp65s0f0np0 > pfc 0,0,0,1,0,0,0,0$`},
					now:  []string{`^netdev enp65s0f0np0 > pfc 0,0,0,0,1,0,0,0$`}, touched: []string{`> (pfc|dscp-prio|tc-bw) `}},
			}},
		// Rules 10 and 20 swap their matches and rule 30 goes: the order
		// left on the device is 10 (DSCP 26), 20 (DSCP 48), 100.
		{name: "acl-reorder+removal", edits: append(matrixEdits(t, "acl-entry-reordered"), matrixEdits(t, "acl-entry-removed")...),
			by: map[schema.Platform]matrixExpect{
				mEOS: {lines: `^\s+((10|20) permit udp any any eq 4791 dscp (26|48)|30 deny udp any any eq 4791)$`, max: 5,
					plus: []string{"10 permit udp any any eq 4791 dscp 26"}, minus: []string{"10 permit udp any any eq 4791 dscp 48", "30 deny udp any any eq 4791"},
					cmds:  []string{`^no 30 deny udp any any eq 4791$`, `^10 permit udp any any eq 4791 dscp 26$`},
					gone:  []string{`^ip access-list roce-mark > 30 `, `^ip access-list roce-mark > 10 permit .* dscp 48$`},
					order: []string{`^ip access-list roce-mark > 10 permit .* dscp 26$`, `^ip access-list roce-mark > 20 permit .* dscp 48$`, `^ip access-list roce-mark > 100 permit ip any any$`}},
				mNXOS: {lines: `^\s+((10|20) permit udp any any eq 4791 dscp (26|48)|30 deny udp any any eq 4791)$`, max: 5,
					plus: []string{"10 permit udp any any eq 4791 dscp 26"}, minus: []string{"10 permit udp any any eq 4791 dscp 48", "30 deny udp any any eq 4791"},
					cmds:  []string{`^no 30 deny udp any any eq 4791$`, `^10 permit udp any any eq 4791 dscp 26$`},
					gone:  []string{`^ip access-list roce-mark > 30 `, `^ip access-list roce-mark > 10 permit .* dscp 48$`},
					order: []string{`^ip access-list roce-mark > 10 permit .* dscp 26$`, `^ip access-list roce-mark > 20 permit .* dscp 48$`, `^ip access-list roce-mark > 100 permit ip any any$`}},
				mJunos: {lines: `filter roce-mark term ((10|20) from dscp (26|48)|30 .*)$`, max: 7,
					plus: []string{"term 10 from dscp 26"}, minus: []string{"term 10 from dscp 48", "term 30 then discard"},
					cmds:  []string{`^delete firewall family inet filter roce-mark term 30 `, `^set firewall family inet filter roce-mark term 10 from dscp 26$`},
					gone:  []string{`filter roce-mark term 30 `, `term 10 from dscp 48$`},
					order: []string{`filter roce-mark term 10 from dscp 26$`, `filter roce-mark term 20 from dscp 48$`, `filter roce-mark term 100 `}},
				mNVUE: {lines: `acl roce-mark rule ((10|20) match ip dscp (26|48)|30 .*)$`, max: 7,
					plus: []string{"rule 10 match ip dscp 26"}, minus: []string{"rule 10 match ip dscp 48", "rule 30 action deny"},
					cmds: []string{`^nv unset acl roce-mark rule 30 `, `^nv set acl roce-mark rule 10 match ip dscp 26$`},
					gone: []string{`acl roce-mark rule 30 `, `rule 10 match ip dscp 48$`}, now: []string{`rule 10 match ip dscp 26$`}},
				mSONiC: {lines: `^ACL_RULE\|ROCE_MARK_IN\|RULE_((10|20)\|DSCP = (26|48)|30\|.*)$`, max: 9,
					plus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_10|DSCP = 26"}, minus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_10|DSCP = 48", "ACL_RULE|ROCE_MARK_IN|RULE_30|PACKET_ACTION = DROP"},
					cmds: []string{`^\{"op":"remove","path":"/ACL_RULE/ROCE_MARK_IN\|RULE_30"\}$`, `^\{"op":"replace","path":"/ACL_RULE/ROCE_MARK_IN\|RULE_10/DSCP","value":"26"\}$`},
					gone: []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_30\|`, `^ACL_RULE\|ROCE_MARK_IN\|RULE_10\|DSCP = 48$`}, now: []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_10\|DSCP = 26$`}},
				mMLNX: {unchanged: hostsNoACL}, mDCB: {unchanged: hostsNoACL},
			}},
		// The device's policy is swapped and the new policy's MTU changes
		// too: the MTU lands on the swapped policy's value.
		{name: "mtu+policy-swap", edits: append(matrixEdits(t, "policy-swapped"),
			fixtureEdit{"qos.fab.hcl", "mtu              = 9000", "mtu              = 9100"},
			fixtureEdit{"qos.fab.hcl", "mtu = 4400", "mtu = 4300"}),
			by: map[schema.Platform]matrixExpect{
				mEOS: {lines: `^\s+(mtu (9214|9100)|bandwidth percent (40|50|60)|random-detect ecn .*)$`, max: 40,
					plus: []string{"mtu 9100", "minimum-threshold 300000 bytes"}, minus: []string{"mtu 9214", "minimum-threshold 150000 bytes"},
					cmds: []string{`^no mtu 9214$`, `^mtu 9100$`, `^no random-detect ecn minimum-threshold 150000 bytes`},
					gone: []string{eosMatrixIfs + `mtu 9214$`, `tx-queue 3 > random-detect ecn minimum-threshold 150000 bytes`},
					now:  []string{eosMatrixIfs + `mtu 9100$`, eosMatrixIfs + `tx-queue 3 > random-detect ecn minimum-threshold 300000 bytes`}},
				mNXOS: {lines: `^\s+(mtu (9214|9100)|bandwidth remaining percent (40|50|60)|random-detect minimum-threshold .*)$`, max: 32,
					plus: []string{"mtu 9100", "minimum-threshold 292 kbytes"}, minus: []string{"mtu 9214", "minimum-threshold 146 kbytes"},
					cmds: []string{`^no mtu 9214$`, `^mtu 9100$`},
					gone: []string{`> mtu 9214$`, `c-out-8q-q3 > random-detect minimum-threshold 146 kbytes`},
					now:  []string{nxosMatrixIfs + `mtu 9100$`, `c-8q-nq3 > mtu 9100$`}},
				mJunos: {lines: `FABRICGEN-ECN-(roce|deep)|transmit-rate percent (40|50|60)$|mtu (9214|9100)$`, max: 26,
					plus: []string{"drop-profile FABRICGEN-ECN-deep", "et-0/0/0 mtu 9100"}, minus: []string{"drop-profile FABRICGEN-ECN-roce", "mtu 9214"},
					cmds: []string{`^delete interfaces et-0/0/0 mtu 9214$`, `^set interfaces et-0/0/0 mtu 9100$`},
					gone: []string{`drop-profiles FABRICGEN-ECN-roce `, `mtu 9214$`},
					now:  []string{`^set interfaces et-0/0/0 mtu 9100$`}},
				mNVUE: {lines: `congestion-control default-global traffic-class 3 (min-threshold|max-threshold|probability) |bw-percent (40|50|60)$|link mtu (9214|9100)$`, max: 20,
					plus: []string{"min-threshold 300000", "link mtu 9100"}, minus: []string{"link mtu 9214"},
					cmds: []string{`^nv unset interface swp1 link mtu 9214$`, `^nv set interface swp1 link mtu 9100$`},
					gone: []string{`link mtu 9214$`}, now: []string{`^nv set interface swp1 link mtu 9100$`}},
				mSONiC: {lines: `^(PORT\|\w+\|mtu|QUEUE\|\w+\|3\|wred_profile|SCHEDULER\|fabricgen\.[03]\|weight|WRED_PROFILE\|(roce|deep)\|\w+) = `, max: 50,
					plus: []string{"PORT|Ethernet0|mtu = 9100", "QUEUE|Ethernet0|3|wred_profile = deep"}, minus: []string{"PORT|Ethernet0|mtu = 9214"},
					cmds: []string{`^\{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9100"\}$`, `^\{"op":"remove","path":"/WRED_PROFILE/roce"\}$`},
					gone: []string{`^PORT\|Ethernet\d+\|mtu = 9214$`, `^WRED_PROFILE\|roce\|`},
					now:  []string{`^PORT\|Ethernet0\|mtu = 9100$`, `^WRED_PROFILE\|deep\|green_min_threshold = 300000$`}},
				mMLNX: {lines: `^\S+ (mtu|tcbw) = `, max: 8,
					plus: []string{"mtu = 4300", "tcbw = 40,0,0,60,0,0,0,0"}, minus: []string{"mtu = 4200"},
					cmds: []string{`^ip link set dev ens1f0np0 mtu 4300$`, `^mlnx_qos -i ens1f0np0 --tsa \S+ --tcbw 40,0,0,60,0,0,0,0$`},
					gone: []string{`^netdev \S+ > mtu 4200$`}, now: []string{`^netdev ens1f0np0 > mtu 4300$`}, touched: []string{`> (mtu|tc-bw) `}},
				mDCB: {lines: `^\S+ (mtu|ets tc-bw [03]) = `, max: 12,
					plus: []string{"mtu = 4300", "ets tc-bw 3 = 60"}, minus: []string{"mtu = 4200"},
					cmds: []string{`^ip link set dev enp65s0f0np0 mtu 4300$`, `^dcb ets set dev enp65s0f0np0 .* tc-bw 0:40 1:0 2:0 3:60 `},
					gone: []string{`^netdev \S+ > mtu 4200$`}, now: []string{`^netdev enp65s0f0np0 > mtu 4300$`}, touched: []string{`> (mtu|tc-bw) `}},
			}},
	}
}
