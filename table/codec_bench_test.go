package table

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
)

// benchTable is a table in the middle of a game under r among players
// (tokens X, O, A, …), moves placed at random from a fixed seed: with a
// clock, in a thread, its board message recorded, as a busy bot saves them.
func benchTable(tb testing.TB, r game.Rules, moves int, players ...string) *Table {
	tb.Helper()
	t, err := New(nil, "1180000000000000001", "1180000000000000002", players[0], r, game.Fast, start)
	if err != nil {
		tb.Fatal(err)
	}
	t.PlaceInThread("1180000000000000003")
	if err := t.SetClock(time.Minute); err != nil {
		tb.Fatal(err)
	}
	for _, p := range players {
		if err := t.Join(p, ""); err != nil {
			tb.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range moves {
		if t.game.Over() {
			break
		}
		c := game.Coord{Row: rng.IntN(r.Rows), Col: rng.IntN(r.Cols)}
		if _, _, err := t.Place(players[t.game.Turn()], c); err != nil {
			continue // taken (or a full column): another try
		}
	}
	t.ShowBoard(Shown{App: "1180000000000000004", Token: "aW50ZXJhY3Rpb246MTE4MDAwMDAwMDAwMDAwMDA1", At: start, Locale: "en-US"})
	t.ArmClock(start)
	return t
}

// benchTables are the tables the codec is measured on: Connect Four in
// mid-game, and a three-player game on 15×15.
func benchTables(tb testing.TB) []struct {
	name string
	t    *Table
} {
	return []struct {
		name string
		t    *Table
	}{
		{"ConnectFour", benchTable(tb, game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, 20,
			"1180000000000000010", "1180000000000000011")},
		{"Free15x15x3", benchTable(tb, game.Rules{Rows: 15, Cols: 15, Win: 5, Players: 3}, 60,
			"1180000000000000010", "1180000000000000011", "1180000000000000012")},
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, c := range benchTables(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.t.encode(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, c := range benchTables(b) {
		data, err := c.t.encode()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decode(data, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSoleWriterMove is a sole writer's move path in this package:
// Deliver with a fresh interaction ID (snowflake-like, as Discord's), the
// cached table, the move and its save, over a store that only keeps the
// bytes, so what it measures is the package's own work. A game that ends
// starts again in the same channel.
func BenchmarkSoleWriterMove(b *testing.B) {
	ts := NewTables(Options{Store: &lastStore{}, Now: func() time.Time { return start }, IdleTimeout: time.Hour, SoleWriter: true})
	ctx := context.Background()
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	players := []string{"1180000000000000010", "1180000000000000011"}
	id := uint64(1180000000000100000)
	deliver := func(act Action) error {
		id++
		_, err := ts.Deliver(ctx, "c", strconv.FormatUint(id, 10), act)
		return err
	}
	newGame := func() {
		err := deliver(func(_ context.Context, cur *Table) (*Table, error) {
			t, err := New(cur, "g", "c", players[0], r, game.Fast, ts.Now())
			if err != nil {
				return nil, err
			}
			for _, p := range players {
				if err := t.Join(p, ""); err != nil {
					return nil, err
				}
			}
			return t, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	newGame()
	b.ReportAllocs()
	for b.Loop() {
		over := false
		err := deliver(func(_ context.Context, cur *Table) (*Table, error) {
			t, err := Current(cur)
			if err != nil {
				return nil, err
			}
			col := rng.IntN(r.Cols)
			for t.Game().ColumnFull(col) {
				col = rng.IntN(r.Cols)
			}
			if _, _, err := t.Move(players[t.Game().Turn()], strconv.Itoa(col)); err != nil {
				return nil, err
			}
			t.FinishIfOver()
			over = !t.Phase.Open()
			return t, nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if over {
			newGame()
		}
	}
}

// lastStore keeps the last save of one channel, and records nothing else:
// the store a benchmark of this package's own work needs.
type lastStore struct {
	data    []byte
	version int64
}

func (s *lastStore) LoadTable(context.Context, string) ([]byte, int64, bool, error) {
	return s.data, s.version, s.version > 0, nil
}

func (s *lastStore) LoadTableHandled(ctx context.Context, ch, _ string) ([]byte, int64, bool, bool, error) {
	data, version, found, err := s.LoadTable(ctx, ch)
	return data, version, found, false, err
}

func (s *lastStore) SaveTable(_ context.Context, save Save) (int64, bool, error) {
	if save.Version != s.version {
		return 0, false, nil
	}
	s.data = save.Data
	s.version++
	return s.version, true, nil
}
