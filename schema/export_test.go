package schema

// WithFuzzLimits returns opts with load-wide totals twenty times smaller
// than the documented ones, so that every input a fuzzer makes up loads
// in a fraction of a second (the full totals are tested by
// TestBoundedEvaluation).
func WithFuzzLimits(opts Options) Options {
	opts.limits = &evalLimits{elems: MaxEvalElements / 20, bytes: MaxEvalBytes / 16, walk: MaxEvalWalk / 20}
	return opts
}

// ProbeCatalog is testCatalog for the external tests: probe platforms
// named like no platform folder (probe_a, probe_b, probe_asic,
// probe_host), to load next to the registry's catalog.
func ProbeCatalog() []PlatformSpec { return probeCatalog() }
