package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// storeUnderTest is what the suite needs: bot.Store's methods.
type storeUnderTest interface {
	LoadTable(ctx context.Context, channel string) ([]byte, int64, bool, error)
	SaveTable(ctx context.Context, s table.Save) (int64, bool, error)
	Tally(ctx context.Context, scope, player string) (table.Tally, error)
	Leaderboard(ctx context.Context, scope string, limit int) ([]table.Tally, error)
}

// newSQLite opens a fresh SQLite database in a temp dir.
func newSQLite(tb testing.TB) *SQL {
	tb.Helper()
	s, err := OpenSQLite(context.Background(), filepath.Join(tb.TempDir(), "sub", "tttbot.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func newPostgres(tb testing.TB) *SQL {
	tb.Helper()
	s, err := OpenPostgres(context.Background(), storetest.PostgresURL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// backends are every store, run through one suite.
var backends = []struct {
	name string
	open func(testing.TB) storeUnderTest
}{
	{"memory", func(testing.TB) storeUnderTest { return NewMemory() }},
	{"sqlite", func(tb testing.TB) storeUnderTest { return newSQLite(tb) }},
	{"postgres", func(tb testing.TB) storeUnderTest { return newPostgres(tb) }},
}

func TestStore(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			s := be.open(t)
			t.Run("Missing", func(t *testing.T) {
				if _, _, found, err := s.LoadTable(ctx, "nowhere"); found || err != nil {
					t.Fatalf("found %v, err %v", found, err)
				}
			})
			t.Run("CompareAndSwap", func(t *testing.T) {
				v, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":1}`), Now: at})
				if err != nil || !ok || v != 1 {
					t.Fatalf("first save: %d %v %v", v, ok, err)
				}
				if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":2}`), Now: at}); ok || err != nil {
					t.Fatalf("second insert: saved %v err %v", ok, err)
				}
				if v, ok, _ = s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":3}`), Version: 1, Now: at}); !ok || v != 2 {
					t.Fatalf("update: %d %v", v, ok)
				}
				if _, ok, _ := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":4}`), Version: 1, Now: at}); ok {
					t.Fatal("a stale version was saved")
				}
				data, version, found, err := s.LoadTable(ctx, "c1")
				if err != nil || !found || version != 2 || string(data) != `{"a":3}` {
					t.Fatalf("load: %s v%d %v %v", data, version, found, err)
				}
			})
			t.Run("ConcurrentWriters", func(t *testing.T) {
				var wins atomic.Int32
				var wg sync.WaitGroup
				for i := range 8 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(fmt.Sprintf(`{"w":%d}`, i)), Version: 2, Now: at})
						if err != nil {
							t.Error(err)
						}
						if ok {
							wins.Add(1)
						}
					}()
				}
				wg.Wait()
				if wins.Load() != 1 {
					t.Fatalf("%d writers won, want 1", wins.Load())
				}
			})
			t.Run("Standings", func(t *testing.T) {
				rules := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}
				results := []table.Result{
					{Scope: "g1", Players: []string{"ann", "ben"}, Winner: 0, Rules: rules, Moves: 5},
					{Scope: "g1", Players: []string{"ben", "ann"}, Winner: 1, Rules: rules, Moves: 7},
					{Scope: "g1", Players: []string{"cat", "ben"}, Winner: game.NoPlayer, Rules: rules, Moves: 9},
					{Scope: "g1", Players: []string{"dan", "cat", "ann"}, Winner: 0, Rules: rules, Moves: 6},
					{Scope: "g2", Players: []string{"ann", "zed"}, Winner: 1, Rules: rules, Moves: 5},
				}
				version := int64(0)
				for i, r := range results {
					v, ok, err := s.SaveTable(ctx, table.Save{Channel: "c-standings", Guild: r.Scope, Data: []byte(fmt.Sprint(i)), Version: version, Now: at, Result: &r})
					if err != nil || !ok {
						t.Fatalf("result %d: %v %v", i, ok, err)
					}
					version = v
				}
				ann, err := s.Tally(ctx, "g1", "ann")
				if err != nil || ann != (table.Tally{Player: "ann", Wins: 2, Losses: 1}) {
					t.Fatalf("ann: %+v %v", ann, err)
				}
				if none, err := s.Tally(ctx, "g1", "nobody"); err != nil || none.Games() != 0 || none.Player != "nobody" {
					t.Fatalf("nobody: %+v %v", none, err)
				}
				top, err := s.Leaderboard(ctx, "g1", 3)
				if err != nil {
					t.Fatal(err)
				}
				want := []table.Tally{{Player: "ann", Wins: 2, Losses: 1}, {Player: "dan", Wins: 1}, {Player: "cat", Losses: 1, Draws: 1}}
				if fmt.Sprint(top) != fmt.Sprint(want) {
					t.Fatalf("leaderboard %+v, want %+v", top, want)
				}
				if g2, _ := s.Leaderboard(ctx, "g2", 10); len(g2) != 2 || g2[0].Player != "zed" {
					t.Fatalf("scopes leak: %+v", g2)
				}
			})
			t.Run("ConflictRecordsNoResult", func(t *testing.T) {
				r := table.Result{Scope: "g3", Players: []string{"x", "y"}, Winner: 0, Rules: game.Classic()}
				if _, ok, _ := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g3", Data: []byte("{}"), Version: 99, Now: at, Result: &r}); ok {
					t.Fatal("stale save succeeded")
				}
				if x, _ := s.Tally(ctx, "g3", "x"); x.Games() != 0 {
					t.Fatalf("a refused save recorded a result: %+v", x)
				}
			})
		})
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("kept"), Now: at})
	s.Close()
	s, err = OpenSQLite(ctx, path) // reopening applies nothing twice
	if err != nil {
		t.Fatal(err)
	}
	if data, _, _, _ := s.LoadTable(ctx, "c"); string(data) != "kept" {
		t.Fatalf("data after reopen: %q", data)
	}
	if _, err := s.wdb.Exec(`INSERT INTO schema_migrations (version, name) VALUES (99, '0099_future.sql')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenSQLite(ctx, path); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("opening a newer schema: %v", err)
	}
	for _, d := range []dialect{sqlite, postgres} {
		if _, err := loadMigrations(d.dir); err != nil {
			t.Errorf("%s: %v", d.name, err)
		}
	}
}

func TestPostgresMigrationsTooNew(t *testing.T) {
	url := storetest.PostgresURL(t)
	s, err := OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`INSERT INTO schema_migrations (version, name) VALUES (99, 'future')`)
	s.Close()
	if _, err := OpenPostgres(context.Background(), url); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("opening a newer schema: %v", err)
	}
}

func TestDialectPlaceholders(t *testing.T) {
	if got := postgres.q("SELECT ? , ?"); got != "SELECT $1 , $2" {
		t.Errorf("postgres: %q", got)
	}
	if got := sqlite.q("SELECT ?"); got != "SELECT ?" {
		t.Errorf("sqlite: %q", got)
	}
}

// at is the application's time the tests save at: the store keeps no clock.
var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// TestStampsAreTheApplicationsTime: the store keeps the time it is given
// (one clock for the whole application), not the database's.
func TestStampsAreTheApplicationsTime(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *SQL{"sqlite": newSQLite, "postgres": newPostgres} {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			past := time.Date(2001, 2, 3, 4, 5, 6, 789_000_000, time.UTC)
			r := table.Result{Scope: "g", Players: []string{"a", "b"}, Winner: 0, Rules: game.Classic(), Moves: 5}
			if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c-clock", Guild: "g", Data: []byte("{}"), Now: past, Result: &r}); !ok || err != nil {
				t.Fatalf("save: %v %v", ok, err)
			}
			for _, q := range []string{`SELECT updated_at FROM channel_tables WHERE channel = ?`, `SELECT finished_at FROM results WHERE scope = ?`} {
				arg := "c-clock"
				if strings.Contains(q, "results") {
					arg = "g"
				}
				var got any
				if err := s.db.QueryRowContext(ctx, s.d.q(q), arg).Scan(&got); err != nil {
					t.Fatal(err)
				}
				switch v := got.(type) {
				case string:
					if v != "2001-02-03T04:05:06.789Z" {
						t.Errorf("%s: %q", q, v)
					}
				case time.Time:
					if !v.Equal(past) {
						t.Errorf("%s: %v", q, v)
					}
				default:
					t.Errorf("%s: %T %v", q, got, got)
				}
			}
		})
	}
}

// TestLoadTableHandled: the table and an interaction's record in one read,
// for a channel with a table and one without, an ID handled and one not.
func TestLoadTableHandled(t *testing.T) {
	stores := []struct {
		name string
		open func(testing.TB) table.Store
	}{{"memory", func(testing.TB) table.Store { return NewMemory() }}}
	for _, o := range sqlOpeners {
		stores = append(stores, struct {
			name string
			open func(testing.TB) table.Store
		}{o.name, func(tb testing.TB) table.Store { return o.open(tb, nil) }})
	}
	for _, o := range stores {
		t.Run(o.name, func(t *testing.T) {
			ctx := context.Background()
			st := o.open(t)
			hl := st.(table.HandledLoader)
			if _, _, err := st.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("table"), Now: at, Delivery: "seen"}); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				channel, id    string
				found, handled bool
			}{{"c", "seen", true, true}, {"c", "new", true, false}, {"none", "seen", false, true}, {"none", "new", false, false}} {
				data, v, found, handled, err := hl.LoadTableHandled(ctx, tc.channel, tc.id)
				if err != nil || found != tc.found || handled != tc.handled || found && (string(data) != "table" || v != 1) {
					t.Errorf("%s, %s: %q v%d found %v handled %v %v; want found %v handled %v", tc.channel, tc.id, data, v, found, handled, err, tc.found, tc.handled)
				}
			}
		})
	}
}
