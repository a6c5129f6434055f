package aristaeos

// ViewEOSSpeeds is the speed keyword table, for the external tests.
var ViewEOSSpeeds = viewEOSSpeeds
