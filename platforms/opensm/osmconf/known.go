package osmconf

import "strings"

// knownTable lists, one per line and in the order of OpenSM's option table,
// every key that osm_subn_parse_conf_file of OpenSM 3.3.23 recognises (the
// opt_tbl of opensm/osm_subnet.c as built by Debian bookworm's opensm
// 3.3.23-2+b1, performance manager included). It is the key set of the
// real `opensm -c DUMP` output plus "dimn_ports_file", the older alias of
// port_search_ordering_file that the table accepts but the dump never writes.
// Only key names are listed; OpenSM is dual-licensed GPL-2.0/BSD.
const knownTable = `
guid
m_key
sm_key
sa_key
subnet_prefix
m_key_lease_period
m_key_protection_level
m_key_lookup
sweep_interval
max_wire_smps
max_wire_smps2
max_smps_timeout
console
console_port
transaction_timeout
transaction_retries
long_transaction_timeout
max_msg_fifo_timeout
sm_priority
lmc
lmc_esp0
max_op_vls
force_link_speed
force_link_speed_ext
force_link_width
fdr10
reassign_lids
ignore_other_sm
single_thread
disable_multicast
subnet_timeout
packet_life_time
vl_stall_count
leaf_vl_stall_count
head_of_queue_lifetime
leaf_head_of_queue_lifetime
local_phy_errors_threshold
overrun_errors_threshold
use_mfttop
sminfo_polling_timeout
polling_retry_number
force_heavy_sweep
port_prof_ignore_file
hop_weights_file
dimn_ports_file
port_search_ordering_file
port_profile_switch_nodes
sweep_on_trap
routing_engine
avoid_throttled_links
connect_roots
use_ucast_cache
log_file
log_max_size
log_flags
force_log_flush
accum_log_file
partition_config_file
no_partition_enforcement
part_enforce
allow_both_pkeys
keep_pkey_indexes
sm_assigned_guid
qos
qos_policy_file
suppress_sl2vl_mad_status_errors
dump_files_dir
lid_matrix_dump_file
lfts_file
root_guid_file
cn_guid_file
io_guid_file
port_shifting
scatter_ports
max_reverse_hops
ids_guid_file
guid_routing_order_file
guid_routing_order_no_scatter
sa_db_file
sa_db_dump
torus_config
do_mesh_analysis
exit_on_fatal
honor_guid2lid_file
daemon
sm_inactive
babbling_port_policy
drop_event_subscriptions
ipoib_mcgroup_creation_validation
mcgroup_join_validation
use_original_extended_sa_rates_only
use_optimized_slvl
fsync_high_avail_files
perfmgr
perfmgr_redir
perfmgr_sweep_time_s
perfmgr_max_outstanding_queries
perfmgr_ignore_cas
event_db_dump_file
perfmgr_rm_nodes
perfmgr_log_errors
perfmgr_query_cpi
perfmgr_xmit_wait_log
perfmgr_xmit_wait_threshold
event_plugin_name
event_plugin_options
node_name_map_name
qos_max_vls
qos_high_limit
qos_vlarb_high
qos_vlarb_low
qos_sl2vl
qos_ca_max_vls
qos_ca_high_limit
qos_ca_vlarb_high
qos_ca_vlarb_low
qos_ca_sl2vl
qos_sw0_max_vls
qos_sw0_high_limit
qos_sw0_vlarb_high
qos_sw0_vlarb_low
qos_sw0_sl2vl
qos_swe_max_vls
qos_swe_high_limit
qos_swe_vlarb_high
qos_swe_vlarb_low
qos_swe_sl2vl
qos_rtr_max_vls
qos_rtr_high_limit
qos_rtr_vlarb_high
qos_rtr_vlarb_low
qos_rtr_sl2vl
congestion_control
cc_key
cc_max_outstanding_mads
cc_sw_cong_setting_control_map
cc_sw_cong_setting_victim_mask
cc_sw_cong_setting_credit_mask
cc_sw_cong_setting_threshold
cc_sw_cong_setting_packet_size
cc_sw_cong_setting_credit_starvation_threshold
cc_sw_cong_setting_credit_starvation_return_delay
cc_sw_cong_setting_marking_rate
cc_ca_cong_setting_port_control
cc_ca_cong_setting_control_map
cc_ca_cong_setting_ccti_timer
cc_ca_cong_setting_ccti_increase
cc_ca_cong_setting_trigger_threshold
cc_ca_cong_setting_ccti_min
cc_cct
enable_quirks
no_clients_rereg
prefix_routes_file
consolidate_ipv6_snm_req
lash_start_vl
sm_sl
nue_max_num_vls
nue_include_switches
log_prefix
per_module_logging_file
quasi_ftree_indexing
`

// aliasKeys are the recognised keys that `opensm -c` does not write.
const aliasKeys = "dimn_ports_file"

// Known reports whether OpenSM 3.3.23 recognises key in opensm.conf; an
// unknown key makes it print `Unrecognized token: "KEY"` and ignore the line.
func Known(key string) bool {
	if key == "" || strings.ContainsAny(key, "\n") {
		return false
	}
	return strings.Contains(knownTable, "\n"+key+"\n")
}

// KnownKeys returns OpenSM 3.3.23's option keys in the order of its option
// table (a fresh slice).
func KnownKeys() []string {
	return strings.Fields(knownTable)
}

// IsAlias reports whether key is recognised by OpenSM but never written by
// `opensm -c` (it sets the same option as another key).
func IsAlias(key string) bool {
	for _, a := range strings.Fields(aliasKeys) {
		if a == key {
			return true
		}
	}
	return false
}
