package lab

// term is the per-session terminal state a CLI may change.
type term struct {
	// length is the page length in lines; 0 disables paging.
	length int
	// width is the terminal width in columns.
	width int
	// more is the pager prompt; empty means the CLI never pages.
	more string
}

// reply is the result of one input line.
type reply struct {
	out string
	// exit ends the session after out is written.
	exit bool
	// config marks a command that changes (or stages) configuration; it
	// counts for Fault.DropAfter.
	config bool
	// status is the exit status (shells).
	status int
	// secret makes the terminal read the next line without echo.
	secret bool
}

// cliSession is one interactive login on a device. Every method is called
// with the device lock held.
type cliSession interface {
	greeting() string
	prompt() string
	handle(line string) reply
	// changes reports whether the line would change the device: its
	// configuration, staged configuration or transaction state (sessions,
	// checkpoints, candidates, revisions, NIC settings). Show commands,
	// read-backs and navigation do not; Fault.Reject refuses only lines
	// that do.
	changes(line string) bool
	// reject answers a line refused by Fault.Reject with the vendor's error.
	reject(line string) reply
	// disconnect runs when the connection ends, however it ends.
	disconnect()
}
