package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Challenges: /ttt new opponent:@bob seats nobody by force. The table opens
// as a lobby whose seats for the invited people are held for them; the game
// starts when each has accepted (Join), and a decline, a withdrawal (End by
// the challenger) or the invitation's expiry ends the lobby before any game
// was played, so nothing is rated or kept in history. The expiry is one of
// the table's deadlines, applied by the scheduler like a move clock, so it
// happens once however many replicas notice it.

// DefaultChallengeTimeout is how long an invitation waits for its answer
// (CHALLENGE_TIMEOUT's default).
const DefaultChallengeTimeout = 10 * time.Minute

// Limits on a challenger's open invitations, so nobody can flood a person or
// a server with them.
const (
	// MaxOpenChallenges is how many open invitations one person may have.
	MaxOpenChallenges = 5
)

// Errors a challenge can meet.
var (
	ErrNotInvited        = errors.New("not invited to this game")
	ErrChallengeClosed   = errors.New("the challenge is no longer open")
	ErrSeatsReserved     = errors.New("the open seats are held for invited players")
	ErrAlreadyChallenged = errors.New("an invitation to that person is already open")
	ErrTooManyChallenges = errors.New("too many open invitations")
)

// ChallengeClosedError says why a challenge can no longer be answered: it
// was declined, withdrawn or left to expire (Why), or it was accepted and
// the game is on (Why is NotEnded). It matches ErrChallengeClosed.
type ChallengeClosedError struct{ Why EndReason }

// Error implements error.
func (e *ChallengeClosedError) Error() string {
	if e.Why == NotEnded {
		return "the challenge was accepted"
	}
	return "the challenge was " + e.Why.String()
}

// Is makes errors.Is(err, ErrChallengeClosed) true.
func (e *ChallengeClosedError) Is(target error) bool { return target == ErrChallengeClosed }

// NotInvitedError says the invitation is for Invitees, not the one who
// answered it. It matches ErrNotInvited.
type NotInvitedError struct{ Invitees []string }

// Error implements error.
func (e *NotInvitedError) Error() string { return fmt.Sprintf("the invitation is for %v", e.Invitees) }

// Is makes errors.Is(err, ErrNotInvited) true.
func (e *NotInvitedError) Is(target error) bool { return target == ErrNotInvited }

// challenge is the part of a Table about its invitations, kept with it.
type challenge struct {
	// Invitees are the people invited who have not answered yet; a seat is
	// held for each.
	Invitees []string `json:"invitees,omitempty"`
	// InviteExpires is when an unanswered invitation lapses; zero when
	// none is waiting.
	InviteExpires time.Time `json:"invite_expires,omitzero"`
	// Challenged are everyone the challenge was made to, answered or not:
	// for the words of its end, and to tell them from strangers.
	Challenged []string `json:"challenged,omitempty"`
}

// Challenging reports whether the table is a lobby waiting for an invited
// person's answer.
func (t *Table) Challenging() bool { return t.Phase == Lobby && len(t.Invitees) > 0 }

// Invited reports whether user is invited and has not answered yet.
func (t *Table) Invited(user string) bool { return slices.Contains(t.Invitees, user) }

// Invite holds a seat in the lobby for each of users until expires; each
// takes it by accepting. The creator must already be seated.
func (t *Table) Invite(users []string, expires time.Time) error {
	switch {
	case t.Phase != Lobby:
		return ErrStarted
	case len(users) > t.openSeats():
		return ErrSeatsReserved
	}
	for _, u := range users {
		if t.SeatOf(u) >= 0 || t.Invited(u) {
			return ErrSeated
		}
	}
	t.Invitees = append(t.Invitees, users...)
	t.Challenged = append(t.Challenged, users...)
	t.InviteExpires = expires
	return nil
}

// answerable checks that user may answer the table's challenge now.
func (t *Table) answerable(user string, now time.Time) error {
	switch {
	case t.Phase == Ended && (t.EndReason == Declined || t.EndReason == Withdrawn || t.EndReason == Unanswered):
		return &ChallengeClosedError{Why: t.EndReason}
	case !slices.Contains(t.Challenged, user) && len(t.Challenged) > 0:
		return &NotInvitedError{Invitees: slices.Clone(t.Challenged)}
	case len(t.Challenged) == 0:
		return ErrNotInvited
	case t.Phase != Lobby || !t.Invited(user):
		return &ChallengeClosedError{Why: NotEnded} // accepted already
	case t.InvitationDue(now):
		return &ChallengeClosedError{Why: Unanswered}
	}
	return nil
}

// Accept seats the invited user with token tok ("": the next free one); the
// game starts when the last invited person accepts and every seat is taken.
func (t *Table) Accept(user string, tok string, now time.Time) error {
	if err := t.answerable(user, now); err != nil {
		return err
	}
	return t.Join(user, tok)
}

// Decline ends the challenge for everyone: no game is played.
func (t *Table) Decline(user string, now time.Time) error {
	if err := t.answerable(user, now); err != nil {
		return err
	}
	t.Invitees = slices.DeleteFunc(t.Invitees, func(u string) bool { return u == user })
	t.Phase, t.EndReason, t.InviteExpires = Ended, Declined, time.Time{}
	return nil
}

// InvitationDue reports whether the table's challenge has gone unanswered
// past its expiry at now.
func (t *Table) InvitationDue(now time.Time) bool {
	return t.Challenging() && !t.InviteExpires.IsZero() && !now.Before(t.InviteExpires)
}

// lapse ends a challenge left unanswered past its expiry.
func (t *Table) lapse() {
	t.Phase, t.EndReason, t.InviteExpires = Ended, Unanswered, time.Time{}
}

// ChallengeLapsedFunc runs when a challenge in t lapsed unanswered, under
// the channel's lock before t is saved. It returns what to do once the save
// is durable (edit the invitation message), or nil.
type ChallengeLapsedFunc func(ctx context.Context, t *Table) (after func(context.Context), err error)

// OnChallengeLapsed sets what runs when a challenge lapses (the bot's: edit
// the invitation to say so). Call it before the tables are used.
func (ts *Tables) OnChallengeLapsed(f ChallengeLapsedFunc) {
	ts.clocks.mu.Lock()
	ts.clocks.lapsed = f
	ts.clocks.mu.Unlock()
}

// applyLapse ends t's unanswered challenge and saves it; it returns what to
// run once saved (or nil).
func (ts *Tables) applyLapse(ctx context.Context, t *Table) (func(context.Context), error) {
	t.lapse()
	var after func(context.Context)
	ts.clocks.mu.Lock()
	f := ts.clocks.lapsed
	ts.clocks.mu.Unlock()
	if f != nil {
		a, err := f(ctx, t)
		if err != nil {
			return nil, err
		}
		after = a
	}
	if err := ts.save(ctx, t, nil); err != nil {
		return nil, err
	}
	ts.log.Info("challenge lapsed", "channel", t.Channel, "challenger", t.Creator)
	return after, nil
}

// The ledger of a person's open challenges lives in the store beside the
// channels' tables, under a key no channel ID can take, and is written with
// the same compare-and-swap: two replicas opening challenges for one person
// at once cannot both pass the limits. An entry stands only while the
// channel it names still holds that challenge; entries whose challenge was
// answered, withdrawn, lapsed or never saved are dropped when next read.
type ledgerEntry struct {
	Channel string    `json:"channel"`
	Invitee string    `json:"invitee"`
	Made    time.Time `json:"made"`
	Expires time.Time `json:"expires"`
}

// ledgerGrace is how long a new entry counts before its channel shows the
// challenge: the action that reserved it saves the table just after.
const ledgerGrace = 30 * time.Second

func ledgerKey(challenger string) string { return "challenges:" + challenger }

// ReserveChallenge records that challenger is inviting invitee in channel
// until expires, or refuses: ErrAlreadyChallenged when an invitation from
// challenger to invitee is open in another channel, ErrTooManyChallenges
// past MaxOpenChallenges. Call it from the action that opens the challenge,
// before saving the table; running it again for the same channel and
// invitee only renews the entry.
func (ts *Tables) ReserveChallenge(ctx context.Context, challenger, invitee, channel string, expires time.Time) error {
	return ts.updateLedger(ctx, challenger, func(open []ledgerEntry) ([]ledgerEntry, error) {
		open = slices.DeleteFunc(open, func(e ledgerEntry) bool {
			return e.Channel == channel || !ts.stillOpen(ctx, challenger, e)
		})
		for _, e := range open {
			if e.Invitee == invitee {
				return nil, ErrAlreadyChallenged
			}
		}
		if len(open) >= MaxOpenChallenges {
			return nil, ErrTooManyChallenges
		}
		return append(open, ledgerEntry{Channel: channel, Invitee: invitee, Made: ts.now(), Expires: expires}), nil
	})
}

// MoveChallenge records that challenger's open challenge to invitee,
// reserved in channel from, now lives in channel to (a thread the game was
// opened in). Nothing is changed when no such challenge is recorded.
func (ts *Tables) MoveChallenge(ctx context.Context, challenger, invitee, from, to string) error {
	return ts.updateLedger(ctx, challenger, func(open []ledgerEntry) ([]ledgerEntry, error) {
		i := slices.IndexFunc(open, func(e ledgerEntry) bool { return e.Channel == from && e.Invitee == invitee })
		if i < 0 {
			return nil, nil
		}
		open[i].Channel = to
		return open, nil
	})
}

// updateLedger rewrites challenger's ledger with change, compare-and-swap
// (UpdateDocument): a lost swap is another change by the same person, so
// it reads again. change returns nil entries (and no error) to leave the
// ledger as it is.
func (ts *Tables) updateLedger(ctx context.Context, challenger string, change func([]ledgerEntry) ([]ledgerEntry, error)) error {
	key := ledgerKey(challenger)
	_, err := ts.UpdateDocument(ctx, key, "", func(data []byte, found bool) ([]byte, error) {
		var open []ledgerEntry
		if found {
			if err := json.Unmarshal(data, &open); err != nil {
				return nil, fmt.Errorf("decode %s: %w", key, err)
			}
		}
		next, err := change(open)
		if err != nil || next == nil {
			return nil, err
		}
		return json.Marshal(next)
	})
	return err
}

// stillOpen reports whether e's channel still holds challenger's unexpired
// invitation to e's invitee, or may be about to (an entry made within
// ledgerGrace). It reads the store without the channel's lock (the caller
// may hold another channel's): an entry is only ever dropped when its
// challenge is over or never came to be, and a challenge is never reopened.
func (ts *Tables) stillOpen(ctx context.Context, challenger string, e ledgerEntry) bool {
	now := ts.now()
	if !now.Before(e.Expires) {
		return false
	}
	data, version, found, err := ts.store.LoadTable(ctx, e.Channel)
	if err != nil {
		return true // unknown: keep counting it rather than let a flood through
	}
	if found {
		t, err := decode(data, version)
		if err != nil {
			return true
		}
		if t.Creator == challenger && slices.Contains(t.Challenged, e.Invitee) && !t.Created.Before(e.Made.Add(-ledgerGrace)) {
			return t.Challenging() // this challenge came to be: it counts while it waits
		}
	}
	return now.Sub(e.Made) < ledgerGrace // not saved yet, or its action failed
}
