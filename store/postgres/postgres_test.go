package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// at is the application's time the tests save at: the store keeps no clock.
var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// openTest opens a store on a fresh schema of TEST_DATABASE_URL (skipping
// without one), with a hook called before every COMMIT.
func openTest(tb testing.TB, beforeCommit func(int)) *Store {
	tb.Helper()
	return mustOpen(tb, storetest.PostgresURL(tb), beforeCommit)
}

// mustOpen opens a store on url, closed when the test ends.
func mustOpen(tb testing.TB, url string, beforeCommit func(int)) *Store {
	tb.Helper()
	s, err := open(context.Background(), url, beforeCommit)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// plan is what EXPLAIN says of query run with args on q (the read pool, or
// one connection such as the writer's), a line of the plan a line.
func plan(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		b.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestConformance(t *testing.T) {
	storetest.RunDurable(t, func(tb testing.TB, hook func(int)) storetest.Durable { return openTest(tb, hook) })
}

func TestReplicas(t *testing.T) {
	storetest.RunReplicas(t, func(tb testing.TB) (storetest.Store, storetest.Store) {
		url := storetest.PostgresURL(tb)
		return mustOpen(tb, url, nil), mustOpen(tb, url, nil)
	})
}

// TestOpensTheFirstReleasedSchema: a schema written by the store as it was
// before it was split by database (testdata/v5.sql, pg_dump of a finished
// rated game, a game on a clock, handled interactions) opens, migrates, and
// reads back.
func TestOpensTheFirstReleasedSchema(t *testing.T) {
	dump, err := os.ReadFile("testdata/v5.sql")
	if err != nil {
		t.Fatal(err)
	}
	u := storetest.PostgresURL(t)
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The dump names no schema: it lands in the test's own (search_path).
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	storetest.CheckFirstReleased(t, mustOpen(t, u, nil))
}

// TestRounds: a batch's ops go into rounds the batch statement can take,
// each channel and interaction ID once a round, in their order.
func TestRounds(t *testing.T) {
	save := func(channel, id string) *groupcommit.Op {
		return &groupcommit.Op{Kind: groupcommit.Save, Save: table.Save{Channel: channel, Delivery: id}}
	}
	first := &groupcommit.Op{Kind: groupcommit.Delivery, ID: "i1"}
	ops := []*groupcommit.Op{save("a", "i1"), save("a", "i2"), save("b", "i2"), save("c", ""), first, save("a", "")}
	got := roundsOf(ops)
	want := [][]*groupcommit.Op{{ops[0], ops[3]}, {ops[1], first}, {ops[2], ops[5]}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rounds %v, want %v", got, want)
	}
}

func TestPostgresMigrationsTooNew(t *testing.T) {
	url := storetest.PostgresURL(t)
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`INSERT INTO schema_migrations (version, name) VALUES (99, 'future')`)
	s.Close()
	if _, err := Open(context.Background(), url); !errors.Is(err, store.ErrSchemaTooNew) {
		t.Fatalf("opening a newer schema: %v", err)
	}
}

// TestStampsAreTheApplicationsTime: the store keeps the time it is given
// (one clock for the whole application), not the database's.
func TestStampsAreTheApplicationsTime(t *testing.T) {
	s := openTest(t, nil)
	storetest.StampsAreTheApplicationsTime(t, s, func(ctx context.Context, query string, arg any) (any, error) {
		var got any
		err := s.db.QueryRowContext(ctx, strings.ReplaceAll(query, "?", "$1"), arg).Scan(&got)
		return got, err
	})
}

// TestPostgresTerminatedBackends: pg_terminate_backend kills every
// connection of the store (pooled readers and the writer's); the next
// requests still succeed.
func TestPostgresTerminatedBackends(t *testing.T) {
	ctx := context.Background()
	url := storetest.PostgresURL(t)
	// Other tests share the server: mark this store's connections so only
	// they are killed.
	app := fmt.Sprintf("tttbot_kill_%d", time.Now().UnixNano())
	s, err := Open(ctx, url+"&application_name="+app)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	admin, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	version := int64(0)
	for round := range 3 {
		// Fill the pool: several readers at once, and the writer.
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, _, err := s.LoadTable(ctx, "c"); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		v, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte{byte(round)}, Version: version, Now: at})
		if err != nil || !ok {
			t.Fatalf("round %d, save: %v %v", round, ok, err)
		}
		version = v
		// Kill every backend of the store. Pooled connections are reused at
		// once, well within the idle time after which they are pinged.
		var killed int
		err = admin.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&killed)
		if err != nil {
			t.Fatal(err)
		}
		if killed == 0 {
			t.Fatal("no backend terminated")
		}
		if _, got, _, err := s.LoadTable(ctx, "c"); err != nil || got != version {
			t.Fatalf("round %d, load after pg_terminate_backend: v%d %v", round, got, err)
		}
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("x"), Version: version, Now: at}); err != nil || !ok {
			t.Fatalf("round %d, save after pg_terminate_backend: %v %v", round, ok, err)
		}
		version++
	}
}

// postgresReplicas opens n stores on TEST_DATABASE_URL, as n replicas of
// the bot would, closed when the test ends; the test is skipped without one.
func postgresReplicas(t *testing.T, n int) []*Store {
	t.Helper()
	url := storetest.PostgresURL(t)
	var replicas []*Store
	for range n {
		s, err := Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		replicas = append(replicas, s)
	}
	return replicas
}

// TestPostgresReplicas: two stores (replicas) on one database, many
// writers each incrementing shared channels by load and compare-and-swap:
// every won swap is counted once, none is lost, none doubled.
func TestPostgresReplicas(t *testing.T) {
	ctx := context.Background()
	replicas := postgresReplicas(t, 2)
	channels := []string{"a", "b", "c"}
	const writers, each = 6, 15
	var wins [3]atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := replicas[w%2]
			for n := range each {
				i := (w + n) % len(channels) // each writer visits the channels in its own order
				for {
					_, v, _, err := s.LoadTable(ctx, channels[i])
					if err != nil {
						t.Error(err)
						return
					}
					_, ok, err := s.SaveTable(ctx, table.Save{Channel: channels[i], Data: []byte(fmt.Sprint(v + 1)), Version: v, Now: at})
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						wins[i].Add(1)
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	var total int64
	for i, ch := range channels {
		data, v, _, err := replicas[0].LoadTable(ctx, ch)
		if err != nil || v != wins[i].Load() || string(data) != fmt.Sprint(v) {
			t.Errorf("%s: version %d data %q err %v, but %d swaps won", ch, v, data, err, wins[i].Load())
		}
		total += v
	}
	if total != writers*each {
		t.Errorf("%d saves stored, want %d", total, writers*each)
	}
}

// TestPipelinedResultFailsAlone (PostgreSQL): when a finished game's
// result is refused in the batch's second round trip (a token PostgreSQL
// cannot store as text), nothing of that pipeline commits; the batch runs
// again with a savepoint an op, and only that game's save fails: the other
// game is recorded and rated, the moves beside it saved.
func TestPipelinedResultFailsAlone(t *testing.T) {
	ctx := context.Background()
	s, release, held := storetest.HoldingCommit(t, func(tb testing.TB, hook func(int)) storetest.Durable { return openTest(tb, hook) }, "p", 3, "g")
	good := storetest.Finished(t, "g", "p0", game.Classic(), []string{"ann", "ben"}, storetest.ClassicWin)
	bad := storetest.Finished(t, "g", "p1", game.Classic(), []string{"cat", "dan"}, storetest.ClassicWin)
	bad.Tokens = []string{"X\x00", "O"}
	saves := []table.Save{
		{Channel: "p0", Result: good},
		{Channel: "p1", Result: bad},
		{Channel: "p2"},
	}
	errs := make([]error, len(saves))
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Go(func() {
			sv.Guild, sv.Data, sv.Version, sv.Now = "g", []byte("1"), 1, at
			var ok bool
			_, ok, errs[i] = s.SaveTable(ctx, sv)
			if errs[i] == nil && !ok {
				errs[i] = errors.New("lost its swap")
			}
		})
	}
	storetest.WaitQueued(t, s, len(saves))
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("the saves beside the refused result: %v, %v", errs[0], errs[2])
	}
	if errs[1] == nil {
		t.Error("the save whose result was refused succeeded")
	}
	for ch, want := range map[string]int64{"p0": 2, "p1": 1, "p2": 2} {
		if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
			t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
		}
	}
	storetest.CheckRated(t, s, "g", map[string]int{"ann": 1, "cat": 0})
}

// TestPostgresPlans: the read pool plans every run for the tables as they
// are; the writer keeps generic plans with seq scans off; a URL that sets
// either keeps its own, and then the writer plans as the read pool does.
func TestPostgresPlans(t *testing.T) {
	ctx := context.Background()
	show := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) string {
		var mode, scans string
		if err := q.QueryRowContext(ctx, "SELECT current_setting('plan_cache_mode'), current_setting('enable_seqscan')").Scan(&mode, &scans); err != nil {
			t.Fatal(err)
		}
		return mode + " seqscan=" + scans
	}
	writer := func(s *Store) string {
		conn, err := s.wdb.Conn(ctx) // the writer is idle: its one connection
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return show(conn)
	}
	for _, tc := range []struct {
		name, query, reads, writes string
	}{
		{"defaults", "", "force_custom_plan seqscan=on", "force_generic_plan seqscan=off"},
		{"URL sets plan_cache_mode", "&plan_cache_mode=auto", "auto seqscan=on", "auto seqscan=on"},
		{"URL sets enable_seqscan", "&enable_seqscan=off", "force_custom_plan seqscan=off", "force_custom_plan seqscan=off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(ctx, storetest.PostgresURL(t)+tc.query)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := show(s.db); got != tc.reads {
				t.Errorf("read pool: %s, want %s", got, tc.reads)
			}
			if got := writer(s); got != tc.writes {
				t.Errorf("writer: %s, want %s", got, tc.writes)
			}
		})
	}
}

// TestPostgresWriterPlanWalksKeys: the writer's generic plan for the batch
// statement, made while the tables are empty, still finds rows by key once
// they hold thousands: no sequential scan of a table the bot grows.
func TestPostgresWriterPlanWalksKeys(t *testing.T) {
	ctx := context.Background()
	s := postgresReplicas(t, 1)[0]
	conn, err := s.wdb.Conn(ctx) // the writer is idle: its one connection
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PREPARE walk AS "+batchStatement); err != nil {
		t.Fatal(err)
	}
	const args = `('{c1}', '{g}', '{"\\x00"}', '{1}', '{2026-11-25T00:00:00Z}', '{d1}', '{NULL}', '{f1}', '{2026-11-25T00:00:00Z}', '{true}')`
	// Run it on the empty tables (a generic plan is made at once), then
	// grow them as a long-running bot does, with no ANALYZE.
	if _, err := conn.ExecContext(ctx, "EXECUTE walk"+args); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO channel_tables (channel, guild, data, version, updated_at) SELECT 'c' || n, 'g', '\x00', 1, now() FROM generate_series(2, 20000) n`,
		`INSERT INTO handled_interactions (id, handled_at) SELECT 'd' || n, now() FROM generate_series(2, 50000) n`,
		`INSERT INTO clock_deadlines (channel, due_at) SELECT 'c' || n, now() FROM generate_series(2, 20000) n`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	got := plan(t, conn, "EXECUTE walk"+args)
	for _, table := range []string{"channel_tables", "handled_interactions", "clock_deadlines"} {
		if strings.Contains(got, "Seq Scan on "+table) {
			t.Errorf("the writer's plan scans %s whole:\n%s", table, got)
		}
	}
}

// BenchmarkDurableSaves: on TEST_DATABASE_URL.
func BenchmarkDurableSaves(b *testing.B) {
	storetest.BenchDurableSaves(b, func(tb testing.TB) storetest.Durable { return openTest(tb, nil) })
}

// TestGamesOpenReadsItsIndex: the dashboard's count of games open (read at
// every scrape) walks the partial index of open games, not every table,
// once the store holds many more finished tables than open ones.
func TestGamesOpenReadsItsIndex(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	for _, q := range []string{
		`INSERT INTO channel_tables (channel, guild, data, version, updated_at, open_game)
			SELECT 'c' || n, 'g', '\x00', 1, now(), n % 100 = 0 FROM generate_series(1, 20000) n`,
		`ANALYZE channel_tables`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.GamesOpen(ctx); n != 200 || err != nil {
		t.Fatalf("games open %d (%v), want 200", n, err)
	}
	if got := plan(t, s.db, `SELECT COUNT(*) FROM channel_tables WHERE open_game`); !strings.Contains(got, "channel_tables_open") {
		t.Errorf("the count of games open does not read its index:\n%s", got)
	}
}
