package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// CheckFirstReleased checks a database that the first released schema's
// store wrote (each store package's testdata), now opened as s: two
// channels' tables (200000000000000001, whose game X won along the top row
// at 12:00:05; 200000000000000002, an open game on a 30-second clock, due
// at 12:00:36, 2026-11-22 UTC), the finished game's result and ratings,
// and the interactions handled. It then plays on, to show the old rows take
// new writes.
func CheckFirstReleased(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	const done, clocked = "200000000000000001", "200000000000000002"
	const x, o = "100000000000000001", "100000000000000002"
	now := time.Date(2026, 11, 22, 12, 0, 10, 0, time.UTC)
	ts := table.NewTables(table.Options{Store: s, Now: func() time.Time { return now }})
	over, err := ts.Load(ctx, done)
	if err != nil || over == nil || over.Phase != table.Over || len(over.Game().Moves()) != 5 {
		t.Fatalf("the finished game's table: %v (%v)", over, err)
	}
	open, err := ts.Load(ctx, clocked)
	if err != nil || open == nil || !open.Phase.Open() || len(open.Game().Moves()) != 1 {
		t.Fatalf("the clocked game's table: %v (%v)", open, err)
	}
	due := time.Date(2026, 11, 22, 12, 0, 36, 0, time.UTC)
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(due) {
		t.Errorf("next deadline %v %v %v, want %v", next, ok, err, due)
	}
	last, found, err := s.LastFinished(ctx, done)
	if err != nil || !found || last.Result.Winner != 0 || !slices.Equal(last.Result.Players, []string{x, o}) ||
		!last.At.Equal(time.Date(2026, 11, 22, 12, 0, 5, 0, time.UTC)) || fmt.Sprint(last.Result.Record) != fmt.Sprint(mustHistory(t, ClassicWin)) {
		t.Errorf("the finished game: %+v %v %v", last, found, err)
	}
	for _, scope := range []string{"g", table.Everywhere} {
		if rs, err := s.Ratings(ctx, scope, x); err != nil || len(rs) != 1 || rs[0].Games != 1 || rs[0].Kind != table.KindClassic {
			t.Errorf("the winner's ratings in %s: %+v %v", scope, rs, err)
		}
	}
	if h, err := s.History(ctx, table.HistoryQuery{Player: o, Scope: table.Everywhere, Limit: 10}); err != nil || len(h) != 1 || h[0].ID != last.ID {
		t.Errorf("the loser's history: %+v %v", h, err)
	}
	for _, id := range []string{"1574031694233600000", "1574031694233601000"} {
		if handled, err := s.Handled(ctx, id); !handled || err != nil {
			t.Errorf("interaction %s handled: %v %v", id, handled, err)
		}
	}
	PlaysOnReleased(t, s)
}

// PlaysOnReleased plays on in the game the released fixtures hold open
// (channel 200000000000000002, a 3×3 game with X's first move, on a
// 30-second clock): a move by O, whose clock deadline the store then keeps.
// It is what every released schema, upgraded, must still take. Before the
// move, the store counts that game as the one open, the finished game
// 200000000000000001 not: a schema from before games open were kept
// (migration 0011) is filled in from the tables themselves.
func PlaysOnReleased(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	const clocked, o = "200000000000000002", "100000000000000002"
	if n, err := s.GamesOpen(ctx); n != 1 || err != nil {
		t.Errorf("games open %d (%v), want 1: the clocked game", n, err)
	}
	now := time.Date(2026, 11, 22, 12, 0, 10, 0, time.UTC)
	ts := table.NewTables(table.Options{Store: s, Now: func() time.Time { return now }})
	err := ts.Do(ctx, clocked, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		tb, err := table.Current(cur)
		if err != nil {
			return nil, err
		}
		_, _, err = tb.Move(o, "0,0")
		return tb, err
	})
	if err != nil {
		t.Fatalf("a move in the clocked game: %v", err)
	}
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(now.Add(30*time.Second)) {
		t.Errorf("next deadline after the move %v %v %v, want %v", next, ok, err, now.Add(30*time.Second))
	}
}

// mustHistory reads a game record ("seat.row.col" moves).
func mustHistory(tb testing.TB, record string) game.History {
	tb.Helper()
	var h game.History
	if err := h.UnmarshalText([]byte(record)); err != nil {
		tb.Fatal(err)
	}
	return h
}
