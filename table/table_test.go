package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

// memStore is the smallest Store: the real ones live in package store,
// which imports this package, so its tests cannot be used from here.
type memStore struct {
	mu      sync.Mutex
	data    map[string][]byte
	version map[string]int64
	results []Result
	saved   []time.Time
}

func newMemStore() *memStore {
	return &memStore{data: map[string][]byte{}, version: map[string]int64{}}
}

func (m *memStore) LoadTable(_ context.Context, ch string) ([]byte, int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.data[ch]
	return d, m.version[ch], ok, nil
}

func (m *memStore) SaveTable(_ context.Context, s Save) (int64, bool, error) {
	ch, data, version, now, r := s.Channel, s.Data, s.Version, s.Now, s.Result
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.version[ch] != version {
		return 0, false, nil
	}
	m.data[ch], m.version[ch] = data, version+1
	m.saved = append(m.saved, now)
	if r != nil {
		m.results = append(m.results, *r)
	}
	return version + 1, true, nil
}

// LoadTableHandled is LoadTable: memStore records no deliveries.
func (m *memStore) LoadTableHandled(ctx context.Context, ch, _ string) ([]byte, int64, bool, bool, error) {
	data, v, found, err := m.LoadTable(ctx, ch)
	return data, v, found, false, err
}

var start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// mustTables is Tables over a fresh memStore at a clock the test moves.
func mustTables(tb testing.TB) (*Tables, *memStore, *time.Time) {
	tb.Helper()
	st, now := newMemStore(), start
	return NewTables(Options{Store: st, Now: func() time.Time { return now }, IdleTimeout: time.Hour}), st, &now
}

// open starts a 3×3 game between alice (X) and bob (O) in channel.
func open(tb testing.TB, ts *Tables, channel string) { openGame(tb, ts, channel, nil, "alice", "bob") }

// openGame starts a 3×3 game among players in channel (tokens X, O, … in
// their order; the first creates it), once prepare (nil: nothing) has set
// up the new table.
func openGame(tb testing.TB, ts *Tables, channel string, prepare func(*Table) error, players ...string) {
	tb.Helper()
	err := ts.Do(context.Background(), channel, func(_ context.Context, cur *Table) (*Table, error) {
		t, err := New(cur, "g", channel, players[0], game.Rules{Rows: 3, Cols: 3, Win: 3, Players: len(players)}, game.Fast, ts.Now())
		if err != nil {
			return nil, err
		}
		if prepare != nil {
			if err := prepare(t); err != nil {
				return nil, err
			}
		}
		for _, p := range players {
			if err := t.Join(p, ""); err != nil {
				return nil, err
			}
		}
		return t, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func move(ts *Tables, channel, user, typed string) error {
	err := ts.Do(context.Background(), channel, func(_ context.Context, cur *Table) (*Table, error) {
		t, err := Current(cur)
		if err != nil {
			return nil, err
		}
		if _, _, err := t.Move(user, typed); err != nil {
			return nil, err
		}
		t.FinishIfOver()
		return t, nil
	})
	return err
}

func TestGameToAWinSavesTheResult(t *testing.T) {
	ts, st, _ := mustTables(t)
	open(t, ts, "c")
	for i, typed := range []string{"0,0", "1,0", "0,1", "1,1", "0,2"} {
		if err := move(ts, "c", []string{"alice", "bob"}[i%2], typed); err != nil {
			t.Fatalf("move %s: %v", typed, err)
		}
	}
	tbl, _ := ts.Load(context.Background(), "c")
	if tbl.Phase != Over || tbl.Game().Winner() != 0 {
		t.Fatalf("phase %s, winner %d", tbl.Phase, tbl.Game().Winner())
	}
	if len(st.results) != 1 || st.results[0].Outcome(0) != Win || st.results[0].Outcome(1) != Loss {
		t.Fatalf("results %+v", st.results)
	}
	for _, at := range st.saved {
		if !at.Equal(start) {
			t.Fatalf("saved at %v, not the application's clock", at)
		}
	}
}

func TestRefusals(t *testing.T) {
	ts, _, now := mustTables(t)
	open(t, ts, "c")
	t.Run("TurnError", func(t *testing.T) {
		var te *TurnError
		if err := move(ts, "c", "bob", "1,1"); !errors.As(err, &te) || te.Next.Token != "X" || !errors.Is(err, game.ErrNotYourTurn) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrNotSeated", func(t *testing.T) {
		if err := move(ts, "c", "carol", "1,1"); !errors.Is(err, ErrNotSeated) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("PositionError", func(t *testing.T) {
		var pe *PositionError
		if err := move(ts, "c", "alice", "3,3"); !errors.As(err, &pe) || !errors.Is(err, game.ErrOutOfBounds) || pe.Rules != game.Classic() {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("NotAllowedError", func(t *testing.T) {
		err := ts.Do(context.Background(), "c", func(_ context.Context, cur *Table) (*Table, error) { return cur, cur.End("bob", false) })
		var na *NotAllowedError
		if !errors.As(err, &na) || na.Creator != "alice" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		*now = now.Add(2 * time.Hour)
		if err := move(ts, "c", "alice", "1,1"); !errors.Is(err, ErrExpired) || !errors.Is(err, ErrNoGame) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestTokenTakenSuggestsAFreeOne(t *testing.T) {
	tbl, _ := New(nil, "g", "c", "alice", game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 4}, game.Fast, start)
	tbl.Join("alice", "X")
	var tt *token.Error
	if err := tbl.Join("bob", "X"); !errors.As(err, &tt) || tt.Rule != token.NotTaken || tt.Suggest != "O" {
		t.Fatalf("got %v", err)
	}
	// A look-alike of a seat's token is as taken as the token: Cyrillic Х.
	if err := tbl.Join("bob", "Х"); !errors.As(err, &tt) || tt.Rule != token.NotConfusable || tt.Clash != "X" {
		t.Fatalf("Cyrillic Х next to X: %v", err)
	}
	// The computer's token is never a look-alike of a person's either.
	tbl.Join("bob", "О") // Cyrillic О
	if err := tbl.SeatComputer(ComputerEasy); err != nil || tbl.Seats[2].Token == "O" {
		t.Fatalf("computer seated as %q next to Cyrillic О: %v", tbl.Seats[2].Token, err)
	}
	if _, ok := tbl.Resign("carol"); !errors.Is(ok, ErrLobby) {
		t.Fatalf("a stranger leaving the lobby: %v", ok)
	}
}

// TestStoredFormat: seats, end reasons and moves keep the format tables were
// stored in before this package existed.
func TestStoredFormat(t *testing.T) {
	tbl := &Table{Seats: []Seat{{User: "u", Token: "X"}, {Kind: ComputerHard, Token: "O"}}, Phase: Ended, EndReason: Expired,
		Moves: game.History{{Player: 0, At: game.Coord{Row: 1, Col: 1}}}}
	data, _ := json.Marshal(tbl)
	want := `{"guild":"","channel":"","creator":"","rules":{"Rows":0,"Cols":0,"Win":0,"Gravity":false,"Players":0},"engine":0,` +
		`"seats":[{"user":"u","token":"X"},{"ai":"hard","token":"O"}],"phase":"ended","moves":"0.1.1","end_reason":"expired",` +
		`"number":0,"created":"0001-01-01T00:00:00Z","updated":"0001-01-01T00:00:00Z"}`
	if string(data) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", data, want)
	}
	back, err := decode(data, 1)
	if err != nil || back.Seats[1].Kind != ComputerHard || back.EndReason != Expired {
		t.Fatalf("decoded %+v (%v)", back, err)
	}
}

// TestLocksAndCacheDoNotGrow: locks are dropped when unused, and finished
// tables leave the cache.
func TestLocksAndCacheDoNotGrow(t *testing.T) {
	ts, _, _ := mustTables(t)
	for c := range 50 {
		ch := fmt.Sprint("c", c)
		open(t, ts, ch)
		ts.Do(context.Background(), ch, func(_ context.Context, cur *Table) (*Table, error) { return cur, cur.End("alice", false) })
	}
	ts.mu.Lock()
	locks, cached := len(ts.locks), len(ts.cache)
	ts.mu.Unlock()
	if locks != 0 || cached != 0 {
		t.Fatalf("%d locks and %d cached tables left after 50 finished games", locks, cached)
	}
}

func TestEnumStrings(t *testing.T) {
	for got, want := range map[fmt.Stringer]string{Human: "human", ComputerEasy: "easy", ComputerHard: "hard",
		Win: "win", Loss: "loss", Draw: "draw", Expired: "expired", EndedByPlayer: "ended", Playing: "playing",
		OnTime: "on_time", KindClassic: "classic", KindConnectFour: "connect4", KindOther: "other", FinishWonOnTime: "won_on_time", FinishResigned: "resigned"} {
		if got.String() != want {
			t.Errorf("%#v.String() = %q, want %q", got, got.String(), want)
		}
	}
}

// TestComputersListsEveryLevel: Computers (the /ttt new ai: menu) is every
// named seat kind but Human, each read back from its name.
func TestComputersListsEveryLevel(t *testing.T) {
	var named []SeatKind
	for k := range SeatKind(16) {
		if k.Computer() && k.String() != fmt.Sprintf("SeatKind(%d)", uint8(k)) {
			named = append(named, k)
		}
	}
	if fmt.Sprint(Computers()) != fmt.Sprint(named) {
		t.Errorf("Computers() = %v, named computer kinds %v", Computers(), named)
	}
	for _, k := range Computers() {
		if got, ok := ParseComputer(k.String()); !ok || got != k {
			t.Errorf("ParseComputer(%q) = %v, %v", k.String(), got, ok)
		}
	}
}
