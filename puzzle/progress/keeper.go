package progress

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/rating"
)

// Documents is what the Keeper needs of the session store (table.Tables
// offers it): read a document, and rewrite one by compare-and-swap,
// recording the interaction it answers.
type Documents interface {
	LoadDocument(ctx context.Context, key string) (data []byte, found bool, err error)
	UpdateDocument(ctx context.Context, key, interactionID string, change func(data []byte, found bool) ([]byte, error)) (recorded bool, err error)
}

// Keeper starts, plays and records people's puzzle tries. Records live in
// the store, so replicas sharing it share every record; a Keeper keeps
// only spare puzzles made in the background (spares.go).
type Keeper struct {
	docs   Documents
	now    func() time.Time
	log    *slog.Logger
	spares spares // puzzles made in the background (spares.go)
}

// New returns a Keeper over docs with the application's clock now, logging
// to log (nil discards).
func New(docs Documents, now func() time.Time, log *slog.Logger) *Keeper {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Keeper{docs: docs, now: now, log: log}
}

// Request is who asks, and the interaction that asks.
type Request struct {
	User        string
	Interaction string // its ID: kept in the record, so a replay is refused
	// Deliver asks the store to record Interaction as handled with the
	// change, as table.Tables.Deliver does (the HTTP endpoint's dedupe).
	Deliver bool
}

func (q Request) delivery() string {
	if q.Deliver {
		return q.Interaction
	}
	return ""
}

// Load returns user's record (a new one when they never tried a puzzle).
func (k *Keeper) Load(ctx context.Context, user string) (Record, error) {
	data, found, err := k.docs.LoadDocument(ctx, recordKey(user))
	if err != nil {
		return Record{}, err
	}
	return decodeRecord(data, found)
}

// Start opens the person's try at the puzzle asked for: kind's daily
// puzzle of today (d "") or one of kind and difficulty d they have not
// met. A try still being played in that slot is shown again rather than
// replaced (so a hard puzzle cannot be swapped for another unfinished);
// a daily try is replaced only by the next day's puzzle. recorded reports
// whether the store recorded the interaction (Request.Deliver).
func (k *Keeper) Start(ctx context.Context, q Request, kind puzzle.Kind, d puzzle.Difficulty) (a Attempt, recorded bool, err error) {
	now := k.now()
	slot := slotOf(kind, d)
	recorded, err = k.docs.UpdateDocument(ctx, recordKey(q.User), q.delivery(), func(data []byte, found bool) ([]byte, error) {
		r, err := decodeRecord(data, found)
		if err != nil {
			return nil, err
		}
		if r.applied(q.Interaction) {
			return nil, ErrDuplicate
		}
		var p puzzle.Puzzle
		day := ""
		cur := r.inSlot(slot)
		switch {
		case d == "":
			day = dayOf(now)
			p = puzzle.Daily(kind, now.UTC())
			if cur >= 0 && r.Open[cur].Puzzle.ID == p.ID && !r.Open[cur].Over {
				a = r.Open[cur]
				return json.Marshal(r)
			}
		case cur >= 0 && !r.Open[cur].Over:
			a = r.Open[cur]
			return json.Marshal(r)
		default:
			seen := func(id string) bool { return r.spent(id, "") }
			if p, err = k.pick(kind, d, seen, pickSeed(q.User, r.Tries)); err != nil {
				return nil, err
			}
		}
		r.Tries++
		a = Attempt{N: r.Tries, Slot: slot, Day: day, Puzzle: p, Counted: !r.spent(p.ID, slot)}
		r.put(a)
		return json.Marshal(r)
	})
	return a, recorded, err
}

// pickSeed varies the pick by person and try, and repeats it for the same
// ones, so a retried request picks the same puzzle.
func pickSeed(user string, tries int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", user, tries)
	return h.Sum64()
}

// Step is what one press did.
type Step struct {
	Attempt Attempt    // the try after the press
	Move    game.Coord // where the person's token landed
	// Reply is where the solver's defence landed, when the try goes on.
	Reply game.Coord
	// Before and After are the person's puzzle rating as shown
	// (rating.Display) around the try's end, when it counted (Rated);
	// Streak is their daily streak after it.
	Rated         bool
	Before, After int
	Streak        int
	// was is the person's rating before a counted try, which the
	// puzzle's own is rated against.
	was rating.Rating
}

// Press plays the person's move at (a column under gravity) in their try
// n, drawn after ply moves: the solver answers it with its best defence
// (puzzle.Judge), or the try ends, solved or failed. A press whose try is
// replaced or over, or that comes after another move (ply), is ErrStale,
// and changes nothing.
//
// The record is the try's one durable account: it is written first, with
// the interaction. The puzzle's own rating moves after it, by its own
// compare-and-swap. Should that second write be lost (the process stops
// between the two, or five other people's tries keep winning the swap),
// the puzzle's rating misses one game: it is an estimate that every other
// try goes on moving, and nobody's own record or rating is ever wrong or
// counted twice for it. Writing both in one transaction would need the
// store to take two documents at once, which no table save does.
func (k *Keeper) Press(ctx context.Context, q Request, n, ply int, at game.Coord) (s Step, recorded bool, err error) {
	recorded, err = k.docs.UpdateDocument(ctx, recordKey(q.User), q.delivery(), func(data []byte, found bool) ([]byte, error) {
		s = Step{}
		r, err := decodeRecord(data, found)
		if err != nil {
			return nil, err
		}
		if r.applied(q.Interaction) {
			return nil, ErrDuplicate
		}
		i := r.attempt(n)
		if i < 0 || r.Open[i].Over || len(r.Open[i].Played) != ply {
			return nil, ErrStale
		}
		a := r.Open[i]
		g, err := a.Position()
		if err != nil {
			return nil, err
		}
		if s.Move, err = g.Play(g.Turn(), at); err != nil {
			return nil, err // a column full or a cell taken: a forged button
		}
		a.Played = append(a.Played, s.Move)
		v, err := puzzle.Judge(ctx, a.Puzzle, a.Played)
		if err != nil {
			return nil, err
		}
		switch v.Outcome {
		case puzzle.Continue:
			if s.Reply, err = g.Play(g.Turn(), v.Reply); err != nil {
				return nil, fmt.Errorf("the solver's reply to try %d of puzzle %s: %w", a.N, a.Puzzle.ID, err)
			}
			a.Played = append(a.Played, s.Reply)
		default:
			a.Over, a.Solved, a.Line = true, v.Outcome == puzzle.Solved, v.Line
			if a.Counted {
				puz, err := k.loadPuzzleRating(ctx, a.Puzzle)
				if err != nil {
					return nil, err
				}
				if err := r.finishCounted(&s, a, puz.Rating); err != nil {
					return nil, err
				}
			}
		}
		s.Attempt, r.Open[i] = a, a
		return json.Marshal(r)
	})
	if err != nil || !s.Rated {
		return s, recorded, err
	}
	// The person's record is durable; the puzzle's rating follows (see above).
	if err := k.movePuzzleRating(context.WithoutCancel(ctx), s.Attempt.Puzzle, s.was, s.Attempt.Solved); err != nil {
		k.log.WarnContext(ctx, "puzzle rating not moved", "puzzle", s.Attempt.Puzzle.ID, "err", err)
	}
	return s, recorded, nil
}

// finishCounted records the end of a's counted try in r: the puzzle is
// spent, the person's rating moves against the puzzle's (puz), a solve is
// counted, and a daily one extends the streak.
func (r *Record) finishCounted(s *Step, a Attempt, puz rating.Rating) error {
	before := r.Rating
	if r.Rated == 0 || before.Sigma == 0 {
		before = model().New()
	}
	after, _, err := rate(before, puz, a.Solved)
	if err != nil {
		return err
	}
	r.spend(a.Puzzle.ID)
	r.Rating, r.Rated = after, r.Rated+1
	if a.Solved {
		r.Solved++
		if a.Daily() {
			r.solvedDaily(a.Day)
		}
	}
	s.Rated, s.was, s.Streak = true, before, r.Streak
	s.Before, s.After = rating.Display(before), rating.Display(after)
	return nil
}
