package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// A tournament in play. What the bot must do for a tournament (post a
// round's pairings, open each game in its thread, post the final
// standings) is kept in its document, which keeps a deadline while work is
// left, so the store-driven scheduler does it once across restarts and
// replicas, and retries it with backoff when Discord refuses. One process
// at a time works on a tournament: it takes a lease (the document's Lease,
// compare-and-swap) and records each step as it is done:
//
//   - a round's pairings are posted, then Announced is saved;
//   - a game's thread is started, then its ID is saved (Threads); the board
//     is posted in it, then the game's table is saved in the thread, then
//     the game is saved as Opened.
//
// A crash (or a lost lease) between a Discord call and the save after it
// repeats that call on the next try: a round's pairings posted twice, a
// second, empty thread for a game (the first is left behind, and Discord
// archives it after a day), or the board posted twice in its thread. A game
// is never opened twice: its table is saved once, in the one thread its
// document names. Results come back through each game's table (its report,
// table/tournament.go), recorded by reportGame with the tournament's
// idempotent Record; the Record that completes a round pairs the next one
// in the same compare-and-swap, so two replicas pair it once.

// play is the part of a tourney about its games' threads and the bot's
// work on them.
type play struct {
	// Threads are the threads games are played in, by game key, saved as
	// soon as each is started.
	Threads map[string]string `json:"threads,omitempty"`
	// Opened are the games whose tables are saved in their threads.
	Opened map[string]bool `json:"opened,omitempty"`
	// Announced is the last round whose pairings were posted (or shown by
	// /ttt tournament start's reply).
	Announced int `json:"announced,omitempty"`
	// Final: the final standings were posted.
	Final bool `json:"final,omitempty"`
	// Lease and LeaseBy: a process is at work on the tournament until
	// Lease; another waits for it to end.
	Lease   time.Time `json:"lease,omitzero"`
	LeaseBy string    `json:"lease_by,omitempty"`
	// Retry is when work Discord refused is tried again; Tries counts the
	// refusals in a row, Why is the last one's reason (a ThreadReason),
	// for standings.
	Retry time.Time `json:"retry,omitzero"`
	Tries int       `json:"tries,omitempty"`
	Why   string    `json:"why,omitempty"`
}

// Timing of the work on a tournament.
const (
	// leaseFor is how long a process may work on a tournament before
	// another may take over: enough for a round's threads.
	leaseFor = 2 * time.Minute
	// retryFirst is the pause after Discord's first refusal, doubled with
	// each refusal in a row up to retryMost.
	retryFirst = 30 * time.Second
	retryMost  = 30 * time.Minute
)

// waiting are the games to open: undecided games not opened yet.
func (d *tourney) waiting() []tournament.Game {
	var out []tournament.Game
	for _, g := range d.T.Games {
		if g.Outcome == tournament.Pending && !d.Opened[g.Key()] {
			out = append(out, g)
		}
	}
	return out
}

// work reports whether the bot has something left to do for d.
func (d *tourney) work() bool {
	return d.T.Started && (d.Announced < d.T.Round || len(d.waiting()) > 0 || d.T.Finished && !d.Final)
}

// due is the deadline to keep with d: when the scheduler should look at
// it (zero: nothing to do). That is the earlier of its work's and, before
// the start, its lapse (idle after the last join).
func (d *tourney) due(now time.Time, idle time.Duration) time.Time {
	return earliest(d.workDue(now), d.lapseAt(idle))
}

// workDue is when the bot's work on d is next due (zero: none left).
func (d *tourney) workDue(now time.Time) time.Time {
	switch {
	case !d.work():
		return time.Time{}
	case d.Lease.After(now):
		return d.Lease // if its holder dies, the work is taken over then
	case d.Retry.After(now):
		return d.Retry
	}
	return now
}

// lapseAt is when d, not started, lapses: idle after it was opened or last
// joined (zero: it does not, started or closed, or stored before it kept
// Since).
func (d *tourney) lapseAt(idle time.Duration) time.Time {
	if d.T.Started || d.T.Finished || d.Closed != "" || d.Since.IsZero() {
		return time.Time{}
	}
	return d.Since.Add(idle)
}

// earliest is the earlier of two deadlines, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// errLeaseLost: another process took over the work on a tournament.
var errLeaseLost = errors.New("tournament: lease lost")

// advanceLater does the tournament's work in the background, at once
// rather than at the scheduler's next look.
func (b *Bot) advanceLater(ctx context.Context, channel string) {
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		if _, err := b.advanceTournament(context.WithoutCancel(ctx), channel); err != nil {
			b.log.Warn("tournament: work failed; the scheduler tries again", "channel", channel, "err", err)
		}
	}()
}

// tournamentDue is the scheduler's way in (table.DocumentDueFunc): the work
// runs in the background, so a round's threads (many calls to Discord) do
// not hold up the clocks the scheduler enforces; the lease keeps it to one
// worker, and the document stays due until one has taken it.
//
// A tournament not started within the idle timeout lapses here first.
func (b *Bot) tournamentDue(ctx context.Context, key string) (bool, error) {
	channel := key[len(tournamentPrefix):]
	if lapsed, err := b.lapseTourney(ctx, channel); err != nil || lapsed {
		return lapsed, err
	}
	b.advanceLater(ctx, channel)
	return true, nil
}

// lapseTourney closes channel's tournament if it is past its lapse, and
// says so in the channel. The close is one compare-and-swap, so of
// replicas running it at once one closes it and posts; the post is the
// best Discord allows, after the close, so a refusal never keeps the
// channel held.
func (b *Bot) lapseTourney(ctx context.Context, channel string) (bool, error) {
	idle := b.tables.IdleTimeout()
	d, err := b.updateTourney(ctx, channel, func(cur *tourney) (*tourney, error) {
		if cur == nil {
			return nil, nil
		}
		at := cur.lapseAt(idle)
		if at.IsZero() || b.tables.Now().Before(at) {
			return nil, nil
		}
		cur.Closed = closedLapsed
		return cur, nil
	})
	if err != nil || d == nil {
		return false, err
	}
	b.log.InfoContext(ctx, "tournament lapsed", "channel", channel, "tournament", d.ID)
	if b.threads == nil {
		return true, nil // no token: nothing can be posted
	}
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		w := b.words.For(d.Locale)
		if _, err := b.post(context.WithoutCancel(ctx), channel, public(w.Say("tournament.lapsed", nil))); err != nil {
			b.log.Warn("tournament: the lapse notice was refused; the tournament is closed all the same", "channel", channel, "err", err)
		}
	}()
	return true, nil
}

// advancePasses bounds the leases one advanceTournament takes: work that
// came while it worked (a round paired meanwhile) is done in the same call.
const advancePasses = 4

// advanceTournament does what is left to do for channel's tournament, under
// a lease: post the round's pairings, open its games, post the final
// standings. When Discord refuses, the work waits with backoff.
func (b *Bot) advanceTournament(ctx context.Context, channel string) (worked bool, err error) {
	for range advancePasses {
		did, more, err := b.advanceOnce(ctx, channel)
		worked = worked || did
		if err != nil || !more {
			return worked, err
		}
	}
	return worked, nil
}

// advanceOnce is one lease's work on channel's tournament; more says that
// work is left which no refusal holds back (it came in meanwhile).
func (b *Bot) advanceOnce(ctx context.Context, channel string) (worked, more bool, err error) {
	var raw [8]byte
	rand.Read(raw[:])
	me := hex.EncodeToString(raw[:])
	d, err := b.updateTourney(ctx, channel, func(cur *tourney) (*tourney, error) {
		now := b.tables.Now()
		if cur == nil || !cur.work() || cur.Lease.After(now) || cur.Retry.After(now) {
			return nil, nil
		}
		cur.Lease, cur.LeaseBy = now.Add(leaseFor), me
		return cur, nil
	})
	if err != nil || d == nil {
		return false, false, err
	}
	err = b.tournamentWork(ctx, d, me)
	if errors.Is(err, errLeaseLost) {
		return true, false, nil
	}
	released, serr := b.updateTourney(ctx, channel, func(cur *tourney) (*tourney, error) {
		if cur == nil || cur.ID != d.ID || cur.LeaseBy != me {
			return nil, nil
		}
		cur.Lease, cur.LeaseBy = time.Time{}, ""
		if err != nil {
			cur.Tries++
			cur.Retry = b.tables.Now().Add(retryAfter(cur.Tries, err))
			why := ThreadFailed
			if te := threadErrorOf(err); te != nil {
				why = te.Reason
			}
			cur.Why = why.String()
		} else {
			cur.Tries, cur.Retry, cur.Why = 0, time.Time{}, ""
		}
		return cur, nil
	})
	if err != nil {
		b.log.WarnContext(ctx, "tournament: Discord refused; trying again later", "channel", channel, "err", err)
		return true, false, serr
	}
	return true, released != nil && released.work(), serr
}

// retryAfter is the pause after the tries-th refusal in a row: doubling
// from retryFirst up to retryMost, and never before Discord's own
// retry_after.
func retryAfter(tries int, err error) time.Duration {
	d := retryMost
	if tries < 16 {
		d = min(retryFirst<<(tries-1), retryMost)
	}
	if te := threadErrorOf(err); te != nil && te.RetryAfter > d {
		d = te.RetryAfter
	}
	return d
}

// tournamentWork is one lease's work on d, step by step, each saved as done.
func (b *Bot) tournamentWork(ctx context.Context, d *tourney, me string) error {
	if b.threads == nil {
		return &ThreadError{Reason: ThreadNoToken}
	}
	w := b.words.For(d.Locale)
	if d.Announced < d.T.Round {
		if _, err := b.post(ctx, d.Channel, public(roundText(w, d, d.T.Round))); err != nil {
			return err
		}
		round := d.T.Round
		if err := b.markTourney(ctx, d, me, func(cur *tourney) { cur.Announced = max(cur.Announced, round) }); err != nil {
			return err
		}
	}
	for _, g := range d.waiting() {
		if err := b.openTournamentGame(ctx, d, me, g); err != nil {
			return err
		}
	}
	if d.T.Finished && !d.Final {
		if _, err := b.post(ctx, d.Channel, finalReply(w, d)); err != nil {
			return err
		}
		if err := b.markTourney(ctx, d, me, func(cur *tourney) { cur.Final = true }); err != nil {
			return err
		}
	}
	return nil
}

// markTourney saves what mark records of a step done, while me still holds
// the lease, and keeps d up to date with the stored tournament.
func (b *Bot) markTourney(ctx context.Context, d *tourney, me string, mark func(*tourney)) error {
	saved, err := b.updateTourney(ctx, d.Channel, func(cur *tourney) (*tourney, error) {
		if cur == nil || cur.ID != d.ID || cur.LeaseBy != me {
			return nil, errLeaseLost
		}
		mark(cur)
		return cur, nil
	})
	if err == nil {
		*d = *saved
	}
	return err
}

// openTournamentGame opens g in a thread of its own: the thread (unless one
// was started already), the board posted there mentioning both players,
// the game's table saved in the thread, and the game saved as opened.
func (b *Bot) openTournamentGame(ctx context.Context, d *tourney, me string, g tournament.Game) error {
	key := g.Key()
	if now, ok := d.T.Game(key); !ok || now.Outcome != tournament.Pending || d.Opened[key] {
		return nil // decided meanwhile (a player left), or opened
	}
	thread := d.Threads[key]
	if thread == "" {
		var err error
		if thread, err = b.startThread(ctx, d.Channel, tournamentThreadName(b.words.For(d.Locale), d, g)); err != nil {
			return err
		}
		err = b.markTourney(ctx, d, me, func(cur *tourney) {
			if cur.Threads == nil {
				cur.Threads = map[string]string{}
			}
			cur.Threads[key] = thread
		})
		if err != nil {
			b.deleteLeftThread(ctx, thread)
			return err
		}
	}
	t, err := b.tables.Load(ctx, thread)
	if err != nil {
		return err
	}
	if tg, ok := t.InTournament(); !ok || tg.Tournament != d.ID || tg.Game != key {
		if err := b.startTournamentGame(ctx, d, thread, g); err != nil {
			return err
		}
	}
	return b.markTourney(ctx, d, me, func(cur *tourney) {
		if cur.Opened == nil {
			cur.Opened = map[string]bool{}
		}
		cur.Opened[key] = true
	})
}

// startTournamentGame posts g's board in thread and saves its table there.
func (b *Bot) startTournamentGame(ctx context.Context, d *tourney, thread string, g tournament.Game) error {
	w := b.words.For(d.Locale)
	tg := table.TournamentGame{Channel: d.Channel, Tournament: d.ID, Game: g.Key()}
	t, err := table.NewTournamentGame(d.Guild, thread, d.Channel, tg, d.Rules, time.Duration(d.Clock)*time.Second, g.First, g.Second, b.tables.Now())
	if err != nil {
		return err
	}
	t.ArmClock(b.tables.Now()) // the deadline the board shows is the one saved
	headline := w.Say("tournament.game", locales.Data{"Round": g.Round, "Board": g.Board, "First": mention(g.First), "Second": mention(g.Second)})
	resp := b.decorate(w, boardReply(w, t, headline+"\n"+headlineStart(w, t)), t, false)
	resp.Ping = []string{g.First, g.Second} // both are told their game is on
	message, err := b.post(ctx, thread, resp)
	if err != nil {
		return err
	}
	return b.tables.Do(ctx, thread, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		if tg, ok := cur.InTournament(); ok && tg == *t.Tournament {
			return nil, nil // saved by an earlier try
		}
		if cur != nil && cur.Phase.Open() {
			return nil, table.ErrGameOpen // someone else's game in the thread: wait
		}
		t.ShowBoard(table.Shown{Message: message, Locale: d.Locale})
		return t, nil
	})
}

// deleteLeftThread deletes a thread started for a game another process
// opened meanwhile.
func (b *Bot) deleteLeftThread(ctx context.Context, thread string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupWithin)
	defer cancel()
	if err := b.threads.DeleteThread(cctx, thread); err != nil {
		b.log.WarnContext(ctx, "tournament: deleting a spare thread failed", "thread", thread, "err", err)
	}
}

// reportGame is table's ReportFunc: it records the ended game t in its
// tournament (idempotent: a second report of the same result changes
// nothing), and once t is saved as reported the tournament's work goes on.
func (b *Bot) reportGame(ctx context.Context, t *table.Table) (func(context.Context), error) {
	tg, ok := t.InTournament()
	if !ok {
		return nil, nil
	}
	o := tournamentOutcome(t)
	_, err := b.updateTourney(ctx, tg.Channel, func(cur *tourney) (*tourney, error) {
		if cur == nil || cur.ID != tg.Tournament {
			return nil, nil // that tournament is gone: nothing to record in
		}
		if g, ok := cur.T.Game(tg.Game); ok && g.Outcome == o {
			return nil, nil // recorded before
		}
		_, _, err := cur.T.Record(tg.Game, o)
		switch {
		case errors.Is(err, tournament.ErrAlreadyRecorded), errors.Is(err, tournament.ErrNoGame):
			// Decided otherwise already (the player left the tournament):
			// the tournament's result stands; this game is an ordinary one.
			b.log.InfoContext(ctx, "tournament: a game's result was decided before it ended", "channel", tg.Channel, "game", tg.Game, "err", err)
			return nil, nil
		case err != nil:
			return nil, err
		}
		return cur, nil
	})
	if err != nil {
		return nil, err
	}
	channel := tg.Channel
	return func(ctx context.Context) { b.advanceLater(ctx, channel) }, nil
}

// tournamentOutcome is how t's ended game counts in its tournament (seat 0
// is the game's First). A player who ran out of time without placing a
// token did not show up: they forfeit. A game ended unplayed (idle past
// the timeout) is forfeited by the player to move.
func tournamentOutcome(t *table.Table) tournament.Outcome {
	if loser, ok := t.Forfeit(); ok {
		return forfeitBy(loser)
	}
	g := t.Game()
	if to, ok := t.LastTimeout(); ok && t.EndReason == table.OnTime && !placed(g, to.Seat) {
		return forfeitBy(to.Seat)
	}
	switch g.Winner() {
	case 0:
		return tournament.FirstWon
	case 1:
		return tournament.SecondWon
	}
	return tournament.Draw
}

func forfeitBy(seat int) tournament.Outcome {
	if seat == 0 {
		return tournament.FirstForfeit
	}
	return tournament.SecondForfeit
}

// placed reports whether seat placed a token in g.
func placed(g *game.Game, seat int) bool {
	for _, m := range g.Moves() {
		if m.Player == seat && m.Kind != game.Resign {
			return true
		}
	}
	return false
}
