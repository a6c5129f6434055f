package cli

// Term is the per-session terminal state a CLI may change.
type Term struct {
	// Length is the page length in lines; 0 disables paging.
	Length int
	// Width is the terminal width in columns.
	Width int
	// More is the pager prompt; empty means the CLI never pages.
	More string
}

// Reply is the result of one input line.
type Reply struct {
	Out string
	// Exit ends the session after out is written.
	Exit bool
	// Config marks a command that changes (or stages) configuration; it
	// counts for Fault.DropAfter.
	Config bool
	// Status is the exit status (shells).
	Status int
	// Secret makes the terminal read the next line without echo.
	Secret bool
	// Endless, when not nil, makes the terminal write Out again and
	// again, with no prompt, until Endless is closed or the connection
	// ends: output that never ends (the lab's stream fault).
	Endless <-chan struct{}
}

// Session is one interactive login on a device. Every method is called
// with the device lock held.
type Session interface {
	Greeting() string
	Prompt() string
	Handle(line string) Reply
	// Changes reports whether the line would change the device: its
	// configuration, staged configuration or transaction state (sessions,
	// checkpoints, candidates, revisions, NIC settings). Show commands,
	// read-backs and navigation do not; Fault.Reject refuses only lines
	// that do.
	Changes(line string) bool
	// Reject answers a line refused by Fault.Reject with the vendor's error.
	Reject(line string) Reply
	// Disconnect runs when the connection ends, however it ends.
	Disconnect()
}
