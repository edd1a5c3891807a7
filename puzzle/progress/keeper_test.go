package progress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// newKeeper is a Keeper on a memory store, its clock at now.
func newKeeper(now time.Time) (*Keeper, *table.Tables) {
	ts := table.NewTables(table.Options{Store: store.NewMemory(), Now: func() time.Time { return now }})
	return New(ts, ts.Now, nil), ts
}

// solve plays try a along the puzzle's main line and returns the last step.
func solve(t *testing.T, k *Keeper, user string, a Attempt, next *int) Step {
	t.Helper()
	for {
		*next++
		s, _, err := k.Press(context.Background(), Request{User: user, Interaction: fmt.Sprint(*next)}, a.N, len(a.Played), a.Puzzle.Line[len(a.Played)])
		if err != nil {
			t.Fatal(err)
		}
		if a = s.Attempt; a.Over {
			return s
		}
	}
}

func puzzleRatingOf(t *testing.T, ts *table.Tables, id string) PuzzleRating {
	t.Helper()
	data, found, err := ts.LoadDocument(context.Background(), puzzleRatingKey(id))
	if err != nil || !found {
		t.Fatalf("rating of %s: found %v, %v", id, found, err)
	}
	var pr PuzzleRating
	if err := json.Unmarshal(data, &pr); err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestPuzzleRatingMovesOnce: a counted solve moves the person's rating up
// and the puzzle's down, once; a practice solve of the same puzzle moves
// neither.
func TestPuzzleRatingMovesOnce(t *testing.T) {
	k, ts := newKeeper(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	n := 0
	a, _, err := k.Start(ctx, Request{User: "1", Interaction: "start1"}, puzzle.Classic, "")
	if err != nil || !a.Counted {
		t.Fatalf("start: %+v, %v", a, err)
	}
	s := solve(t, k, "1", a, &n)
	if !s.Rated || s.After <= s.Before || !s.Attempt.Solved {
		t.Fatalf("a counted solve: %+v", s)
	}
	pr := puzzleRatingOf(t, ts, a.Puzzle.ID)
	if pr.Tries != 1 || pr.Rating.Mu >= initialRating(a.Puzzle).Mu {
		t.Fatalf("the puzzle's rating after one solve: %+v (from %v)", pr, initialRating(a.Puzzle))
	}
	again, _, err := k.Start(ctx, Request{User: "1", Interaction: "start2"}, puzzle.Classic, "")
	if err != nil || again.Counted || again.Puzzle.ID != a.Puzzle.ID || again.N == a.N {
		t.Fatalf("a second try at the daily puzzle: %+v, %v", again, err)
	}
	if s := solve(t, k, "1", again, &n); s.Rated {
		t.Fatalf("a practice solve was rated: %+v", s)
	}
	if pr2 := puzzleRatingOf(t, ts, a.Puzzle.ID); pr2 != pr {
		t.Fatalf("a practice solve moved the puzzle's rating: %+v → %+v", pr, pr2)
	}
	if r, _ := k.Load(ctx, "1"); r.Solved != 1 || r.Rated != 1 {
		t.Fatalf("record %+v", r)
	}
}

// TestStartShowsUnfinishedTry: asking again for a kind and difficulty
// whose try is unfinished shows it again, moves and all, instead of
// handing out a fresh puzzle.
func TestStartShowsUnfinishedTry(t *testing.T) {
	k, _ := newKeeper(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	a, _, err := k.Start(ctx, Request{User: "1", Interaction: "a"}, puzzle.ConnectFour, puzzle.Easy)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := k.Press(ctx, Request{User: "1", Interaction: "b"}, a.N, 0, a.Puzzle.Line[0])
	if err != nil || s.Attempt.Over {
		t.Fatalf("first move: %+v, %v", s, err)
	}
	b, _, err := k.Start(ctx, Request{User: "1", Interaction: "c"}, puzzle.ConnectFour, puzzle.Easy)
	if err != nil || b.N != a.N || len(b.Played) != 2 {
		t.Fatalf("asked again: try %d with %d moves (want try %d with 2), %v", b.N, len(b.Played), a.N, err)
	}
}

// TestPressRefusesAnImpossibleMove: a forged button into a full column or a
// taken cell is refused and changes nothing.
func TestPressRefusesAnImpossibleMove(t *testing.T) {
	k, _ := newKeeper(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	a, _, err := k.Start(ctx, Request{User: "1", Interaction: "a"}, puzzle.Classic, puzzle.Easy)
	if err != nil {
		t.Fatal(err)
	}
	taken := a.Puzzle.Moves[0]
	if _, _, err := k.Press(ctx, Request{User: "1", Interaction: "b"}, a.N, 0, taken); !errors.Is(err, game.ErrCellTaken) {
		t.Fatalf("a press on a taken cell: %v", err)
	}
	if r, _ := k.Load(ctx, "1"); len(r.Open[0].Played) != 0 {
		t.Fatal("a refused press moved the try")
	}
}

// TestBeyondThePool: a person who has met every pool puzzle of a kind and
// difficulty is told that one is being made (never kept waiting for it),
// and then gets a puzzle made in the background, which counts.
func TestBeyondThePool(t *testing.T) {
	k, _ := newKeeper(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	defer k.Wait()
	ctx := context.Background()
	n := 0
	start := func() (Attempt, error) {
		n++
		a, _, err := k.Start(ctx, Request{User: "1", Interaction: fmt.Sprint("start", n)}, puzzle.Classic, puzzle.Easy)
		return a, err
	}
	pool := map[string]bool{}
	for _, p := range puzzle.Pool(puzzle.Classic, puzzle.Easy) {
		pool[p.ID] = true
	}
	for range pool {
		a, err := start()
		if err != nil || !pool[a.Puzzle.ID] {
			t.Fatalf("a pool puzzle: %+v, %v", a, err)
		}
		solve(t, k, "1", a, &n)
	}
	// No spare is ready before the first person past the pool asks: the
	// answer is the refusal, not a wait for puzzle.Pick's generation.
	if _, err := start(); !errors.Is(err, ErrNoPuzzle) {
		t.Fatalf("past the pool: %v, want ErrNoPuzzle", err)
	}
	k.Wait() // the spare being made
	a, err := start()
	if err != nil || pool[a.Puzzle.ID] || !a.Counted {
		t.Fatalf("a spare: %+v, %v", a, err)
	}
	if s := solve(t, k, "1", a, &n); !s.Rated || !s.Attempt.Solved {
		t.Fatalf("a spare's solve: %+v", s)
	}
}
