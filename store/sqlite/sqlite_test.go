package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/sqlread"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// at is the application's time the tests save at: the store keeps no clock.
var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// openTest opens a fresh database in a temp dir, with a hook called before
// every COMMIT.
func openTest(tb testing.TB, beforeCommit func(int)) *Store {
	tb.Helper()
	return mustOpen(tb, filepath.Join(tb.TempDir(), "sub", "tttbot.db"), options{beforeCommit: beforeCommit})
}

// mustOpen opens the database at path, closed when the test ends.
func mustOpen(tb testing.TB, path string, opt options) *Store {
	tb.Helper()
	s, err := open(context.Background(), path, opt)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// plan is the detail column of what EXPLAIN QUERY PLAN says of query run
// with args on db, a step of the plan a line.
func plan(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestConformance(t *testing.T) {
	storetest.RunDurable(t, func(tb testing.TB, hook func(int)) storetest.Durable { return openTest(tb, hook) })
}

// TestTwoProcesses: two handles on one file, as two bots started on it by
// mistake, still agree.
func TestTwoProcesses(t *testing.T) {
	storetest.RunReplicas(t, func(tb testing.TB) (storetest.Store, storetest.Store) {
		path := filepath.Join(tb.TempDir(), "shared.db")
		return mustOpen(tb, path, options{}), mustOpen(tb, path, options{})
	})
}

// TestOpensTheFirstReleasedSchema: a database written by the store as it was
// before it was split by database (testdata/v5.db: a finished rated game, a
// game on a clock, handled interactions) opens, migrates, and reads back.
func TestOpensTheFirstReleasedSchema(t *testing.T) {
	data, err := os.ReadFile("testdata/v5.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v5.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, path, options{})
	storetest.CheckFirstReleased(t, s)
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("kept"), Now: at})
	s.Close()
	s, err = Open(ctx, path) // reopening applies nothing twice
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
	if _, err := Open(ctx, path); !errors.Is(err, store.ErrSchemaTooNew) {
		t.Fatalf("opening a newer schema: %v", err)
	}
}

// TestMigrationsWithGaps: a migration numbered past a missing one applies,
// and the missing one still applies when it lands later.
func TestMigrationsWithGaps(t *testing.T) {
	ms, err := migrations.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ms, func(m os.DirEntry) bool { return strings.HasPrefix(m.Name(), "0004_") }) {
		t.Fatal("0004 (clock deadlines) is not embedded")
	}
	s := openTest(t, nil)
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Fatalf("%d migrations recorded (%v), want %d", n, err, len(ms))
	}
	// A database that has every migration but one (as when a lower number
	// lands after a higher one) gets exactly that one on the next open.
	last := ms[len(ms)-1].Name()
	// The writer's connection: the read pool is query-only.
	if _, err := s.wdb.Exec(`DROP TABLE clock_deadlines`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.wdb.Exec(`DELETE FROM schema_migrations WHERE version = 4`); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlread.Migrate(context.Background(), s.wdb, schema); err != nil {
		t.Fatalf("migrate after a gap: %v (last is %s)", err, last)
	}
	if _, err := s.db.Exec(`SELECT channel FROM clock_deadlines`); err != nil {
		t.Fatalf("0004 not reapplied: %v", err)
	}
}

// TestStampsAreTheApplicationsTime: the store keeps the time it is given
// (one clock for the whole application), not the database's.
func TestStampsAreTheApplicationsTime(t *testing.T) {
	s := openTest(t, nil)
	storetest.StampsAreTheApplicationsTime(t, s, func(ctx context.Context, query string, arg any) (any, error) {
		var got any
		err := s.db.QueryRowContext(ctx, query, arg).Scan(&got)
		return got, err
	})
}

// TestPruneFindsOldIDsByKey: the prune of handled interactions reads the
// primary key's range of old snowflakes, not the whole table, and nothing
// indexes handled_at any more (it cost a write a move).
func TestPruneFindsOldIDsByKey(t *testing.T) {
	s := openTest(t, nil)
	if got := plan(t, s.db, `DELETE FROM handled_interactions WHERE id < ? AND handled_at < ?`, groupcommit.SnowflakeAt(at), stamp(at)); !strings.Contains(got, "USING PRIMARY KEY (id<?)") {
		t.Errorf("the prune's plan:\n%s", got)
	}
	var indexes int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'handled_interactions' AND sql LIKE '%handled_at%'`).Scan(&indexes); err != nil || indexes != 0 {
		t.Errorf("%d indexes on handled_at (%v)", indexes, err)
	}
	// 2026-11-22T12:00Z is 1795348800000 ms since 1970, 375278400000 since
	// Discord's epoch; shifted left by 22 bits, 1574031694233600000.
	if got, want := groupcommit.SnowflakeAt(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), "1574031694233600000"; got != want {
		t.Errorf("snowflakeAt = %s, want %s", got, want)
	}
}

// faultDriver wraps SQLite's driver: while readOnly is set, it opens
// connections read-only (mode=ro), as SQLite itself does when it finds its
// file not writable. Such a connection stays read-only for its whole life,
// whatever happens to the file later: only reopening recovers. (Tests run as
// root here, so chmod would not take write permission away.)
type faultDriver struct {
	base     driver.Driver
	readOnly atomic.Bool
}

func (f *faultDriver) Open(name string) (driver.Conn, error) {
	if f.readOnly.Load() {
		name += "&mode=ro"
	}
	return f.base.Open(name)
}

var faultDrivers atomic.Int32

// newFaultDriver registers a fresh fault driver under a name of its own.
func newFaultDriver(tb testing.TB) (*faultDriver, string) {
	tb.Helper()
	db, err := sql.Open("sqlite", "")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	f := &faultDriver{base: db.Driver()}
	name := fmt.Sprintf("sqlite-fault-%d", faultDrivers.Add(1))
	sql.Register(name, f)
	return f, name
}

// TestReadyRecoversFromReadOnly: when the writer's connection can no longer
// write, Ready says so, and once the file is writable again the store
// recovers without a restart.
func TestReadyRecoversFromReadOnly(t *testing.T) {
	ctx := context.Background()
	f, name := newFaultDriver(t)
	s, err := open(ctx, filepath.Join(t.TempDir(), "ro.db"), options{driver: name})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("fresh store not ready: %v", err)
	}
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("1"), Now: at}); !ok || err != nil {
		t.Fatal(ok, err)
	}

	// The file turns read-only under the bot; the writer's next connection
	// (forced by a lifetime, once) opens read-only.
	f.readOnly.Store(true)
	s.wdb.SetConnMaxLifetime(time.Nanosecond)
	s.w.ForgetHealth()
	if err := s.Ready(ctx); err == nil {
		t.Fatal("Ready on a read-only file: nil")
	}
	s.wdb.SetConnMaxLifetime(0) // from here on only the writer's own reopening helps
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("2"), Version: 1, Now: at}); err == nil || ok {
		t.Fatalf("save on a read-only file: saved=%v err=%v", ok, err)
	}
	if err := s.Ready(ctx); err == nil {
		t.Fatal("Ready right after a failed save: nil")
	}

	f.readOnly.Store(false)
	s.w.ForgetHealth()
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("not ready after the file is writable again: %v", err)
	}
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("2"), Version: 1, Now: at}); !ok || err != nil {
		t.Fatalf("save after recovery: saved=%v err=%v", ok, err)
	}
}

// TestClockRunsOutWhileDown: a game's clock runs out while no process runs;
// the next one to start applies it in its first pass.
func TestClockRunsOutWhileDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "down.db")
	now := at
	clock := func() time.Time { return now }
	st := mustOpen(t, path, options{})
	tables := table.NewTables(table.Options{Store: st, Now: clock})
	storetest.OpenClockedGame(t, tables, "c")
	st.Close() // the process stops

	now = now.Add(2 * time.Hour)
	st = mustOpen(t, path, options{})
	tables = table.NewTables(table.Options{Store: st, Now: clock})
	sched, err := table.NewScheduler(tables, table.SchedulerOptions{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := sched.RunDue(context.Background()); n != 1 || err != nil {
		t.Fatalf("first pass applied %d (%v), want 1", n, err)
	}
	storetest.CheckLostOnTimeOnce(t, st)
	tbl, _ := tables.Load(context.Background(), "c")
	if tbl.Phase != table.Over || tbl.EndReason != table.OnTime {
		t.Fatalf("phase %s, reason %s", tbl.Phase, tbl.EndReason)
	}
}

// TestDeliveryAcrossRestarts: an interaction ID recorded by a save is still
// recorded after the process is gone (SQLite file reopened), so a retry
// after a restart is a duplicate.
func TestDeliveryAcrossRestarts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	for i, want := range []error{nil, table.ErrDuplicate} {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("r", i), Data: []byte("x"), Now: at, Delivery: "7"})
		s.Close()
		if !errors.Is(err, want) {
			t.Fatalf("open %d: %v, want %v", i, err, want)
		}
	}
}

// BenchmarkDurableSaves: SQLite in a temp dir on the real disk (set TMPDIR
// to move it).
func BenchmarkDurableSaves(b *testing.B) {
	storetest.BenchDurableSaves(b, func(tb testing.TB) storetest.Durable { return openTest(tb, nil) })
}

// BenchmarkRewriteVsAppend is the experiment behind keeping one row per
// channel: a batch of 64 moves either rewrites 64 channels' rows (600 bytes
// each, as SaveTable does) or appends 64 small rows to a moves table, in one
// transaction with SQLite's durable commit. If appending were much cheaper,
// a moves log would pay for its extra read work; it is not (see the closing
// note of the group-commit change), since the fsync dominates either way.
func BenchmarkRewriteVsAppend(b *testing.B) {
	const batch = 64
	data := make([]byte, 600)
	for _, mode := range []string{"rewrite", "append"} {
		b.Run(mode, func(b *testing.B) {
			s := openTest(b, nil)
			ctx := context.Background()
			if _, err := s.wdb.ExecContext(ctx, `CREATE TABLE moves (channel TEXT NOT NULL, seq INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (channel, seq)) WITHOUT ROWID`); err != nil {
				b.Fatal(err)
			}
			for c := range batch {
				if _, err := s.wdb.ExecContext(ctx, `INSERT INTO channel_tables (channel, guild, data, version, updated_at) VALUES (?, 'g', ?, 1, 'now')`, fmt.Sprint("c", c), data); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := range b.N {
				tx, err := s.wdb.BeginTx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				for c := range batch {
					if mode == "rewrite" {
						_, err = tx.ExecContext(ctx, `UPDATE channel_tables SET data = ?, version = version + 1 WHERE channel = ?`, data, fmt.Sprint("c", c))
					} else {
						_, err = tx.ExecContext(ctx, `INSERT INTO moves (channel, seq, move) VALUES (?, ?, '3.4.1')`, fmt.Sprint("c", c), i)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// TestGamesOpenReadsItsIndex: the dashboard's count of games open (read at
// every scrape) walks the partial index of open games, not every table.
func TestGamesOpenReadsItsIndex(t *testing.T) {
	s := openTest(t, nil)
	if got := plan(t, s.db, `SELECT COUNT(*) FROM channel_tables WHERE open_game`); !strings.Contains(got, "INDEX channel_tables_open") {
		t.Errorf("the count of games open does not read its index:\n%s", got)
	}
}
