package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// gamesOpen: the store counts the tables Tables saved as open games (a
// lobby, a game being played), and stops counting one when it finishes or
// is ended; a document is never a game, and a save that lost its swap
// changes no count.
func gamesOpen(t *testing.T, s Store) {
	ctx := context.Background()
	ts := table.NewTables(table.Options{Store: s, Now: func() time.Time { return at }})
	want := func(n int64, when string) {
		t.Helper()
		if got, err := s.GamesOpen(ctx); err != nil || got != n {
			t.Fatalf("%s: %d games open (%v), want %d", when, got, err, n)
		}
	}
	do := func(channel string, f func(*table.Table) error) {
		t.Helper()
		err := ts.Do(ctx, channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
			tb, err := table.Current(cur)
			if err != nil {
				return nil, err
			}
			return tb, f(tb)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want(0, "an empty store")

	lobby := func(channel string) {
		t.Helper()
		err := ts.Do(ctx, channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
			tb, err := table.New(cur, "g", channel, "alice", game.Classic(), game.Fast, at)
			if err != nil {
				return nil, err
			}
			return tb, tb.Join("alice", "X")
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	lobby("1")
	want(1, "a lobby")
	do("1", func(tb *table.Table) error { return tb.Join("bob", "O") })
	want(1, "the lobby's game started")
	lobby("2")
	want(2, "a second lobby")

	for _, mv := range []struct{ who, at string }{{"alice", "0,0"}, {"bob", "1,0"}, {"alice", "0,1"}, {"bob", "1,1"}, {"alice", "0,2"}} {
		do("1", func(tb *table.Table) error {
			_, _, err := tb.Move(mv.who, mv.at)
			tb.FinishIfOver()
			return err
		})
	}
	if tb, err := ts.Load(ctx, "1"); err != nil || tb.Phase != table.Over {
		t.Fatalf("the first game did not finish: %v %v", tb, err)
	}
	want(1, "the first game finished")
	do("2", func(tb *table.Table) error { return tb.End("alice", false) })
	want(0, "the lobby ended")
	lobby("1")
	want(1, "a new lobby where a game finished")

	if _, err := ts.UpdateDocument(ctx, "challenges:alice", "", func([]byte, bool) ([]byte, error) {
		return []byte(`{"phase":"lobby"}`), nil
	}); err != nil {
		t.Fatal(err)
	}
	want(1, "a document saved")

	data, version, _, err := s.LoadTable(ctx, "2")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "2", Guild: "g", Data: data, Version: version + 5, Now: at, Open: true}); ok || err != nil {
		t.Fatalf("a stale save: %v %v", ok, err)
	}
	want(1, "a stale save of an open game")
}
