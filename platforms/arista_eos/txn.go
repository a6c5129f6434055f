package aristaeos

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/driver/network"

	"github.com/fabricgen/fabricgen/internal/push/config"
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/push/txn"
)

// transaction is Arista EOS's configuration session.
func transaction() txn.Transaction {
	return txn.Transaction{
		Kind:      pushdialect.TxnSession,
		Run:       eosSession,
		Named:     true,
		Leftovers: eosLeftovers,
		TimerNote: func(timer string) string {
			return fmt.Sprintf("configuration session %s is waiting for its commit timer: another change is in flight; wait until it is confirmed or rolled back (or abort it on the device: configure session %s abort)", timer, timer)
		},
		NameNote: func(n string) string {
			return fmt.Sprintf("fabricgen configuration session %s is open on the device: another fabricgen run is changing it, or a killed run left it (once sure, remove it with: no configure session %s)", n, n)
		},
		Remove: func(conn *session.Conn, name string) { _, _ = conn.Command("no configure session " + name) },
		Interrupted: func(in txn.Stopped) (string, string) {
			switch in.Step {
			case "stage":
				return "stopped while staging configuration session " + in.Name + ": nothing was committed, the running config is unchanged", "configure session " + in.Name + " abort"
			case "commit", "verify":
				return "stopped after committing session " + in.Name + " with a commit timer: the device rolls it back by itself " + in.Wait + " unless confirmed", "configure session " + in.Name + " abort"
			}
			return "", ""
		},
		Cleanup: func(rec *state.InFlight, left txn.Leftovers) []string {
			if rec.Txn != "" && (left.Timer == rec.Txn || txn.Contains(left.Names, rec.Txn)) {
				return []string{"configure session " + rec.Txn + " abort"}
			}
			return nil
		},
	}
}

// eosLeftovers lists the configuration sessions waiting for a commit
// timer, and fabricgen's pending sessions.
func eosLeftovers(conn *session.Conn, isOurs func(string) bool) (txn.Leftovers, error) {
	var l txn.Leftovers
	out, err := conn.Show("show configuration sessions | json")
	if err != nil {
		return l, fmt.Errorf("list configuration sessions: %w", err)
	}
	var doc struct {
		Sessions map[string]struct {
			State string `json:"state"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(txn.JSONPart(out)), &doc); err != nil {
		return l, fmt.Errorf("show configuration sessions | json: unexpected output: %w", err)
	}
	for _, name := range txn.SortedKeys(doc.Sessions) {
		if isOurs(name) {
			continue
		}
		switch st := doc.Sessions[name].State; {
		case st == "pendingCommitTimer":
			l.Timer = name
		case strings.HasPrefix(name, state.RunPrefix) && st == "pending":
			l.Names = append(l.Names, name)
		}
	}
	return l, nil
}

// eosSession stages the change in an EOS configuration session, shows the
// device's own diff, commits with a timer, verifies, then confirms. Any
// failure aborts the session (an uncommitted session is discarded by the
// device even when the connection drops) and checks the device is back to
// its backup. Commands per the EOS User Manual, "Configuration sessions":
// configure session NAME, show session-config diffs, commit timer
// hh:mm:ss, configure session NAME commit, configure session NAME abort.
func eosSession(a txn.Applier) txn.Outcome {
	name := a.Txn()
	level := &network.PrivilegeLevel{
		Name: name,
		// EOS shows a truncated session name: leaf1(config-s-fabric)#,
		// and sub-modes after it: leaf1(config-s-fabric-if-Et1)#.
		Pattern:      `(?im)^[\w.\-@()/: ]{1,63}\(config-s-[\w.\-@/:]{0,63}\)#\s?$`,
		PreviousPriv: "privilege-exec",
		Deescalate:   "end",
		Escalate:     "configure session " + name,
	}
	a.Conn().AddPrivilege(level)
	// committed is when commit timer took effect (zero before): from
	// then on the device runs our change and reverts it by itself when
	// the timer expires.
	var committed time.Time
	pending := func() string {
		return fmt.Sprintf("the commit timer is pending: the device runs our change and reverts it by itself at %s (%s after the commit) unless it is confirmed",
			committed.Add(a.CommitTimer()).UTC().Format(time.RFC3339), a.CommitTimer())
	}
	abort := func(why string) txn.Outcome {
		a.Mark("rollback")
		if !a.Conn().Alive() {
			if err := a.Reconnect(); err != nil {
				if committed.IsZero() {
					return txn.Outcome{Status: txn.StatusFailed, Restore: "configure session " + name + " abort",
						Reason: why + "; " + err.Error() + "; nothing was committed: the uncommitted session changes nothing (abort it on the device)"}
				}
				return txn.Outcome{Status: txn.StatusFailed, Restore: "configure session " + name + " abort",
					Reason: why + "; " + err.Error() + "; " + pending()}
			}
			a.Conn().AddPrivilege(level)
		}
		if !committed.IsZero() {
			// Aborting a session waiting on its commit timer puts back
			// the whole config from before the commit: a change someone
			// made since would go with ours.
			confirmThenUndo := func(cs *config.ChangeSet) error {
				// Confirm ours (the device then runs ours and
				// theirs), then undo ours in a session of its own.
				if r, err := a.Conn().Command("configure session " + name + " commit"); err != nil || r.Failed != nil {
					return fmt.Errorf("confirm the session to keep their change: %w", txn.FirstErr(err, txn.Rejection(r)))
				}
				if cs.Empty() {
					return nil
				}
				undo := name + "-undo"
				l2 := *level
				l2.Name, l2.Escalate = undo, "configure session "+undo
				a.Conn().AddPrivilege(&l2)
				_, rej, err := a.Conn().Configure(append(cs.Commands(), "commit"), undo)
				if err := txn.FirstErrOrNil(err, rej); err != nil {
					_, _ = a.Conn().Command("configure session " + undo + " abort")
					return err
				}
				return nil
			}
			// Their change to a line we manage, after our commit: the
			// abort would put back the backup's value over it.
			if their, err := a.TheirLines(); err == nil && len(their) > 0 {
				return a.KeepTheirLines(why, their, "configure session "+name+" abort", confirmThenUndo)
			}
			th, err := a.OthersSince()
			if err == nil && th.Some() {
				return a.KeepTheirs(why, th, "configure session "+name+" abort", confirmThenUndo)
			}
		}
		r, err := a.Conn().Command("configure session " + name + " abort")
		if (err != nil || r.Failed != nil) && !committed.IsZero() {
			// The session may be gone because its timer expired and the
			// device rolled back by itself.
			if ok, cerr := a.Restored(); cerr == nil && ok {
				return a.RolledBack(why + "; the session was gone (its commit timer expired and the device rolled the change back by itself)")
			}
			return txn.Outcome{Status: txn.StatusFailed, Restore: "configure session " + name + " abort",
				Reason: fmt.Sprintf("%s; configure session %s abort failed: %v; %s", why, name, txn.FirstErr(err, txn.Rejection(r)), pending())}
		}
		return a.RolledBack(why)
	}
	_, rej, err := a.Conn().Configure(a.Changes().Commands(), name)
	if err != nil {
		return abort(fmt.Sprintf("staging failed: %v", err))
	}
	if rej != nil {
		return abort(rej.Error())
	}
	// Another operator may have started while we staged: commit only
	// when no other session waits on a commit timer and no other
	// fabricgen session is open.
	if busy, err := a.Inspect(name, a.Ignore()); err != nil || busy != "" {
		out := abort(fmt.Sprintf("before commit: %s", txn.FirstNonEmpty(busy, fmt.Sprint(err))))
		if out.Status == txn.StatusRolledBack && busy != "" {
			out.Status = txn.StatusRefused
			out.Reason = busy + "; our staged session was aborted and nothing changed"
		}
		return out
	}
	diffs, rej, err := a.Conn().Configure([]string{"show session-config diffs"}, name)
	if err != nil {
		return abort(fmt.Sprintf("show session-config diffs: %v", err))
	}
	if rej != nil {
		return abort(rej.Error())
	}
	// A session commits a copy of the running config taken when it
	// started: a change someone made to the running config since would
	// be lost. The session's diff then shows lines we did not send.
	if extra := foreignEOS(diffs, a.Changes().Commands(), a.Dialect().Canonical); extra != "" {
		why := "the running config changed while the change was staged (another administrator?): the session diff also has " + extra
		if r, err := a.Conn().Command("configure session " + name + " abort"); err != nil || r.Failed != nil {
			return abort(why)
		}
		// Their change may be to a line we manage (an MTU we set too):
		// the device is then not at its backup, and rightly so.
		return a.RefusedForTheirs(why, "our session was aborted before its commit")
	}
	timer := fmtTimer(a.CommitTimer())
	a.Mark("commit")
	if _, rej, err = a.Conn().Configure([]string{"commit timer " + timer}, name); err != nil || rej != nil {
		if err != nil {
			// The commit may have taken effect before the connection
			// went: say so if the abort cannot be done.
			committed = a.Now()
		}
		return abort(fmt.Sprintf("commit timer %s: %v", timer, txn.FirstErr(err, rej)))
	}
	committed = a.Now()
	ok, left, err := a.Converged()
	if err != nil {
		return abort(fmt.Sprintf("verify after commit: %v", err))
	}
	if !ok {
		return abort(fmt.Sprintf("verify after commit: %d lines still differ from the rendered config", left))
	}
	a.Mark("confirm")
	applied := txn.Outcome{Status: txn.StatusApplied, DeviceDiff: strings.TrimSpace(diffs)}
	confirm := "the confirm (configure session " + name + " commit)"
	r, err := a.Conn().Command("configure session " + name + " commit")
	if err != nil {
		return a.LostConfirm(applied, confirm, eosConfirmed, func() txn.Outcome { return abort(fmt.Sprintf("confirm the commit: %v", err)) })
	}
	if r.Failed != nil {
		return abort(fmt.Sprintf("confirm the commit: %v", txn.Rejection(r)))
	}
	return a.ProveApplied(applied, confirm, eosConfirmed)
}

// fmtTimer prints a duration as EOS's hh:mm:ss.
func fmtTimer(d time.Duration) string {
	s := int(d.Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// foreignEOS returns the first line of an EOS session diff that none of
// our commands explains ("" when every changed line is ours). A line is
// ours when we sent it (an added line), or negated it (a removed line: no
// X, default X), or when it sits
// inside a stanza that is itself one of our changed lines on the same
// side of the diff: the children of a stanza we remove (no tx-queue 3)
// are removed with it, those of a stanza we add come with it. Ancestry is
// followed per side: a removed line's parents are the context and removed
// lines above it, an added line's the context and added lines, so when
// the diff lines up the children of a removed tx-queue 3 with those of
// an added tx-queue 4, the old child still belongs to tx-queue 3. Lines
// on both sides are compared in canon's form (nil: as they are), since the
// diff prints what EOS stores ("eq bgp") where we sent "eq 179".
func foreignEOS(diff string, cmds []string, canon func(string) string) string {
	if canon == nil {
		canon = func(s string) string { return s }
	}
	// sent: what our commands add; gone: what they remove.
	sent, gone := map[string]bool{}, map[string]bool{}
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		if rest, ok := strings.CutPrefix(c, "no "); ok {
			c = "no " + canon(rest)
		} else if rest, ok := strings.CutPrefix(c, "default "); ok {
			c = "default " + canon(rest)
		} else {
			c = canon(c)
		}
		sent[c] = true
		if rest, ok := strings.CutPrefix(c, "no "); ok {
			gone[rest] = true
		}
		if rest, ok := strings.CutPrefix(c, "default "); ok {
			gone[rest] = true
			gone["no "+rest] = true
		}
	}
	// frame is one open stanza on one side: its indent and whether it is
	// a changed line of ours (its children are ours too).
	type frame struct {
		indent  int
		covered bool
	}
	var oldSide, newSide []frame
	pop := func(st []frame, indent int) []frame {
		for len(st) > 0 && st[len(st)-1].indent >= indent {
			st = st[:len(st)-1]
		}
		return st
	}
	covered := func(st []frame) bool {
		for _, f := range st {
			if f.covered {
				return true
			}
		}
		return false
	}
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "@@") || l == "" {
			if !strings.HasPrefix(l, " ") {
				// A new hunk (or file): its first lines' parents are
				// not shown.
				oldSide, newSide = nil, nil
			}
			continue
		}
		sign, body := l[0], l[1:]
		if sign != '+' && sign != '-' && sign != ' ' {
			oldSide, newSide = nil, nil
			continue
		}
		indent := len(body) - len(strings.TrimLeft(body, " "))
		t := canon(strings.TrimSpace(body))
		switch sign {
		case ' ':
			oldSide, newSide = pop(oldSide, indent), pop(newSide, indent)
			oldSide, newSide = append(oldSide, frame{indent: indent}), append(newSide, frame{indent: indent})
			continue
		case '-':
			oldSide = pop(oldSide, indent)
			mine := t == "" || t == "!" || gone[t] || covered(oldSide)
			oldSide = append(oldSide, frame{indent: indent, covered: mine && t != "" && t != "!"})
			if !mine {
				return strings.TrimSpace(l)
			}
		case '+':
			newSide = pop(newSide, indent)
			mine := t == "" || t == "!" || sent[t] || covered(newSide)
			newSide = append(newSide, frame{indent: indent, covered: mine && t != "" && t != "!"})
			if !mine {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}

// eosConfirmed: our configuration session is completed in `show
// configuration sessions | json` (the device drops a session whose commit
// timer expired, and keeps it pendingCommitTimer until it is confirmed).
func eosConfirmed(a txn.Applier) (bool, string, error) {
	out, err := a.Conn().Show("show configuration sessions | json")
	if err != nil {
		return false, "", fmt.Errorf("list configuration sessions: %w", err)
	}
	var doc struct {
		Sessions map[string]struct {
			State string `json:"state"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(txn.JSONPart(out)), &doc); err != nil {
		return false, "", fmt.Errorf("show configuration sessions | json: unexpected output: %w", err)
	}
	s, ok := doc.Sessions[a.Txn()]
	switch {
	case !ok:
		return false, "session " + a.Txn() + " is gone (its commit timer expired, or it was aborted)", nil
	case s.State != "completed":
		return false, "session " + a.Txn() + " is " + s.State, nil
	}
	return true, "", nil
}
