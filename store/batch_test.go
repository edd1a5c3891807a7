package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// sqlOpeners open each SQL dialect with a hook called before every COMMIT.
var sqlOpeners = []struct {
	name string
	open func(tb testing.TB, beforeCommit func(int)) *SQL
}{
	{"sqlite", func(tb testing.TB, hook func(int)) *SQL {
		s, err := openSQLite(context.Background(), filepath.Join(tb.TempDir(), "t.db"), sqliteOptions{beforeCommit: hook})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(tb testing.TB, hook func(int)) *SQL {
		s, err := openPostgres(context.Background(), storetest.PostgresURL(tb), hook)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { s.Close() })
		return s
	}},
}

// waitQueued waits until n writes are queued behind the batch being
// committed.
func waitQueued(tb testing.TB, s *SQL, n int) {
	tb.Helper()
	for len(s.queue) < n {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// TestGroupCommit holds the first COMMIT until every other save has queued
// behind it: they must then share one COMMIT, each answered after it, each
// with its own compare-and-swap outcome, one failing save failing alone.
func TestGroupCommit(t *testing.T) {
	for _, o := range sqlOpeners {
		t.Run(o.name, func(t *testing.T) {
			var (
				batches  []int // batch sizes, in COMMIT order (written by the writer only)
				answered atomic.Int32
				release  = make(chan struct{})
				early    atomic.Value
				hooked   atomic.Int32
			)
			hook := func(items int) {
				prior := 0
				for _, b := range batches {
					prior += b
				}
				if got := int(answered.Load()); got > prior {
					early.Store(fmt.Sprintf("%d callers answered before COMMIT %d; only %d saves were committed", got, len(batches)+1, prior))
				}
				batches = append(batches, items)
				hooked.Add(1)
				if len(batches) == 1 {
					<-release
				}
			}
			s := o.open(t, hook)

			// The first save's caller gives up while its COMMIT is held: it
			// must still learn that its save committed.
			firstCtx, cancelFirst := context.WithCancel(context.Background())
			first := make(chan error, 1)
			go func() {
				_, ok, err := s.SaveTable(firstCtx, table.Save{Channel: "held", Data: []byte("0"), Now: at})
				answered.Add(1)
				if err == nil && !ok {
					err = errors.New("lost its swap")
				}
				if s.commits.Load() < 1 {
					err = errors.New("answered before its COMMIT")
				}
				first <- err
			}()
			for hooked.Load() == 0 {
				runtime.Gosched()
				time.Sleep(time.Millisecond)
			}

			type want int
			const (
				saved want = iota
				lost
				failed
			)
			saves := []struct {
				save table.Save
				want want
			}{
				{table.Save{Channel: "held", Data: []byte("x")}, lost},              // version 0 again, but "held" exists
				{table.Save{Channel: "bad", Data: nil}, failed},                     // NOT NULL: fails alone
				{table.Save{Channel: "stale", Data: []byte("x"), Version: 7}, lost}, // no such version
			}
			for i := range 12 {
				saves = append(saves, struct {
					save table.Save
					want want
				}{table.Save{Channel: fmt.Sprintf("c%d", i), Data: []byte("x")}, saved})
			}
			var dupWins atomic.Int32
			results := make([]error, len(saves))
			var wg sync.WaitGroup
			for i, sv := range saves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sv.save.Now = at
					v, ok, err := s.SaveTable(context.Background(), sv.save)
					answered.Add(1)
					switch {
					case s.commits.Load() < 2:
						results[i] = fmt.Errorf("%s: answered before the COMMIT that covers it", sv.save.Channel)
					case sv.want == saved && (err != nil || !ok || v != 1):
						results[i] = fmt.Errorf("%s: want saved at version 1, got %d %v %v", sv.save.Channel, v, ok, err)
					case sv.want == lost && (err != nil || ok):
						results[i] = fmt.Errorf("%s: want a lost swap, got %v %v", sv.save.Channel, ok, err)
					case sv.want == failed && err == nil:
						results[i] = fmt.Errorf("%s: want an error, got saved=%v", sv.save.Channel, ok)
					}
				}()
			}
			// Two saves of one new channel in the same batch: exactly one wins.
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, ok, err := s.SaveTable(context.Background(), table.Save{Channel: "dup", Data: []byte("d"), Now: at})
					answered.Add(1)
					if err != nil {
						t.Error(err)
					}
					if ok {
						dupWins.Add(1)
					}
				}()
			}
			waitQueued(t, s, len(saves)+2)
			cancelFirst()
			close(release)
			wg.Wait()
			if err := <-first; err != nil {
				t.Errorf("held save, its caller gone: %v", err)
			}
			for _, err := range results {
				if err != nil {
					t.Error(err)
				}
			}
			if msg := early.Load(); msg != nil {
				t.Error(msg)
			}
			if dupWins.Load() != 1 {
				t.Errorf("%d saves of one new channel won, want 1", dupWins.Load())
			}
			total := len(saves) + 3
			if len(batches) != 2 || batches[1] != total-1 {
				t.Errorf("%d saves committed in batches %v, want [1 %d]", total, batches, total-1)
			}
			if _, _, found, _ := s.LoadTable(context.Background(), "bad"); found {
				t.Error("the failed save left a row")
			}
			if data, v, _, _ := s.LoadTable(context.Background(), "c3"); string(data) != "x" || v != 1 {
				t.Errorf("c3 after the batch: %q v%d", data, v)
			}
		})
	}
}

// TestClosed: Close answers what is queued, and later writes fail.
func TestClosed(t *testing.T) {
	s := sqlOpeners[0].open(t, nil)
	if _, ok, err := s.SaveTable(context.Background(), table.Save{Channel: "c", Data: []byte("x"), Now: at}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	s.Close()
	if _, _, err := s.SaveTable(context.Background(), table.Save{Channel: "c", Data: []byte("y"), Version: 1, Now: at}); !errors.Is(err, ErrClosed) {
		t.Fatalf("save after Close: %v", err)
	}
}

// deduper is what bot/httpapi needs of a store.
type deduper interface {
	FirstDelivery(ctx context.Context, interactionID string, now time.Time) (bool, error)
}

// TestPruneFindsOldIDsByKey: the prune of handled interactions reads the
// primary key's range of old snowflakes, not the whole table, and nothing
// indexes handled_at any more (it cost a write a move).
func TestPruneFindsOldIDsByKey(t *testing.T) {
	s := newSQLite(t)
	var plan strings.Builder
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN DELETE FROM handled_interactions WHERE id < ? AND handled_at < ?`, snowflakeAt(at), sqliteStamp(at))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if !strings.Contains(plan.String(), "USING PRIMARY KEY (id<?)") {
		t.Errorf("the prune's plan:\n%s", plan.String())
	}
	var indexes int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'handled_interactions' AND sql LIKE '%handled_at%'`).Scan(&indexes); err != nil || indexes != 0 {
		t.Errorf("%d indexes on handled_at (%v)", indexes, err)
	}
	// 2026-11-22T12:00Z is 1795348800000 ms since 1970, 375278400000 since
	// Discord's epoch; shifted left by 22 bits, 1574031694233600000.
	if got, want := snowflakeAt(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), "1574031694233600000"; got != want {
		t.Errorf("snowflakeAt = %s, want %s", got, want)
	}
}

func TestFirstDelivery(t *testing.T) {
	ctx := context.Background()
	for _, be := range []struct {
		name string
		open func(testing.TB) deduper
	}{
		{"memory", func(testing.TB) deduper { return NewMemory() }},
		{"sqlite", func(tb testing.TB) deduper { return newSQLite(tb) }},
		{"postgres", func(tb testing.TB) deduper { return newPostgres(tb) }},
	} {
		t.Run(be.name, func(t *testing.T) {
			s := be.open(t)
			// Interaction IDs are snowflakes of the time they were made,
			// which is how old ones are found.
			first, second, third := snowflakeAt(at), snowflakeAt(at.Add(time.Minute)), snowflakeAt(at.Add(25*time.Hour))
			steps := []struct {
				id   string
				at   time.Time
				want bool
			}{
				{first, at, true},
				{first, at, false},                     // a retry
				{second, at.Add(time.Minute), true},    // another interaction
				{first, at.Add(23 * time.Hour), false}, // still remembered within the day
				// An ID that sorts with the old ones but was handled
				// within the day (no Discord ID does): kept by its time.
				{"100", at.Add(24*time.Hour + time.Minute), true},
				{third, at.Add(25 * time.Hour), true},  // prunes first and second
				{first, at.Add(25 * time.Hour), true},  // forgotten after a day
				{"100", at.Add(25 * time.Hour), false}, // not yet a day old
				{second, at.Add(25 * time.Hour), true}, // forgotten too
				{third, at.Add(25 * time.Hour), false}, // the new one stays
			}
			for i, st := range steps {
				if got, err := s.FirstDelivery(ctx, st.id, st.at); err != nil || got != st.want {
					t.Fatalf("step %d, %s: first=%v err=%v, want %v", i, st.id, got, err, st.want)
				}
			}
			var firsts atomic.Int32
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if first, err := s.FirstDelivery(ctx, "race", at.Add(26*time.Hour)); err != nil {
						t.Error(err)
					} else if first {
						firsts.Add(1)
					}
				}()
			}
			wg.Wait()
			if firsts.Load() != 1 {
				t.Fatalf("%d concurrent deliveries of one ID were first, want 1", firsts.Load())
			}
		})
	}
	t.Run("sqlite/AcrossRestarts", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "d.db")
		for i, want := range []bool{true, false} {
			s, err := OpenSQLite(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			first, err := s.FirstDelivery(ctx, "7", at)
			s.Close()
			if err != nil || first != want {
				t.Fatalf("open %d: first=%v err=%v, want %v", i, first, err, want)
			}
		}
	})
	t.Run("postgres/AcrossReplicas", func(t *testing.T) {
		replicas := postgresReplicas(t, 2)
		var firsts atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if first, err := replicas[i%2].FirstDelivery(ctx, "shared", at); err != nil {
					t.Error(err)
				} else if first {
					firsts.Add(1)
				}
			}()
		}
		wg.Wait()
		if firsts.Load() != 1 {
			t.Fatalf("%d deliveries to two replicas were first, want 1", firsts.Load())
		}
	})
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
	s, err := openSQLite(ctx, filepath.Join(t.TempDir(), "ro.db"), sqliteOptions{driver: name})
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
	s.health.forget()
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
	s.health.forget()
	if err := s.Ready(ctx); err != nil {
		t.Fatalf("not ready after the file is writable again: %v", err)
	}
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("2"), Version: 1, Now: at}); !ok || err != nil {
		t.Fatalf("save after recovery: saved=%v err=%v", ok, err)
	}
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
	s, err := OpenPostgres(ctx, url+"&application_name="+app)
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
func postgresReplicas(t *testing.T, n int) []*SQL {
	t.Helper()
	url := storetest.PostgresURL(t)
	var replicas []*SQL
	for range n {
		s, err := OpenPostgres(context.Background(), url)
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

// What main wires into bot/httpapi: every store can dedupe and say whether
// it is ready.
var (
	_ interface {
		deduper
		Ready(context.Context) error
	} = (*SQL)(nil)
	_ interface {
		deduper
		Ready(context.Context) error
	} = (*Memory)(nil)
)

// TestInBatch: a write that is no table save rides the writer's batch; its
// failure is its own.
func TestInBatch(t *testing.T) {
	for _, o := range sqlOpeners {
		t.Run(o.name, func(t *testing.T) {
			s := o.open(t, nil)
			ctx := context.Background()
			if err := s.inBatch(ctx, func(ctx context.Context, tx *sql.Tx) error {
				_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO handled_interactions (id, handled_at) VALUES (?, ?)`), "via-batch", s.d.stamp(at))
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if first, err := s.FirstDelivery(ctx, "via-batch", at); first || err != nil {
				t.Fatalf("the batch write was not durable: first=%v err=%v", first, err)
			}
			boom := errors.New("boom")
			if err := s.inBatch(ctx, func(ctx context.Context, tx *sql.Tx) error {
				if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO handled_interactions (id, handled_at) VALUES (?, ?)`), "rolled-back", s.d.stamp(at)); err != nil {
					return err
				}
				return boom
			}); !errors.Is(err, boom) {
				t.Fatalf("failing write: %v", err)
			}
			if first, err := s.FirstDelivery(ctx, "rolled-back", at); !first || err != nil {
				t.Fatalf("a failed write left its row: first=%v err=%v", first, err)
			}
		})
	}
}

// holdingCommit opens a store, saves channels prefix0…prefix(n−1) at
// version 1 in guild (a COMMIT each), then starts a save whose COMMIT is
// held until release is closed, so the saves a test queues meanwhile share
// the next batch. held answers the held save.
func holdingCommit(t *testing.T, open func(testing.TB, func(int)) *SQL, prefix string, n int, guild string) (s *SQL, release chan struct{}, held chan error) {
	t.Helper()
	var hooked atomic.Int32
	release = make(chan struct{})
	s = open(t, func(int) {
		if hooked.Add(1) == int32(n+1) {
			<-release
		}
	})
	ctx := context.Background()
	for i := range n {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint(prefix, i), Guild: guild, Data: []byte("0"), Now: at}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	held = make(chan error, 1)
	go func() {
		_, ok, err := s.SaveTable(ctx, table.Save{Channel: "other", Data: []byte("0"), Now: at})
		if !ok && err == nil {
			err = errors.New("lost")
		}
		held <- err
	}()
	for hooked.Load() < int32(n+1) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	return s, release, held
}

// TestBatchedUpdates: a batch of updates (one statement on PostgreSQL)
// answers each save by its own swap: winners, a stale version, a channel's
// second save in the batch, a winner that also records a result.
func TestBatchedUpdates(t *testing.T) {
	for _, o := range sqlOpeners {
		t.Run(o.name, func(t *testing.T) {
			ctx := context.Background()
			s, release, held := holdingCommit(t, o.open, "u", 6, "g")
			r := table.Result{Scope: "g", Players: []string{"ann", "ben"}, Winner: 0, Rules: game.Classic(), Moves: 5}
			saves := []struct {
				save  table.Save
				saved bool
			}{
				{table.Save{Channel: "u0", Version: 1}, true},
				{table.Save{Channel: "u1", Version: 1}, true},
				{table.Save{Channel: "u2", Version: 1, Result: &r}, true},
				{table.Save{Channel: "u3", Version: 9}, false},
				{table.Save{Channel: "u4", Version: 1}, true},
				{table.Save{Channel: "u4", Version: 1}, false}, // the same channel again: one of the two wins
			}
			var wins [6]atomic.Bool
			var wg sync.WaitGroup
			for i, sv := range saves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sv.save.Guild, sv.save.Data, sv.save.Now = "g", []byte(fmt.Sprint("new", i)), at
					v, ok, err := s.SaveTable(ctx, sv.save)
					if err != nil || (ok && v != sv.save.Version+1) {
						t.Errorf("%s: v%d %v %v", sv.save.Channel, v, ok, err)
					}
					wins[i].Store(ok)
				}()
			}
			waitQueued(t, s, len(saves))
			close(release)
			wg.Wait()
			if err := <-held; err != nil {
				t.Fatal(err)
			}
			for i, sv := range saves[:4] {
				if wins[i].Load() != sv.saved {
					t.Errorf("%s at v%d: saved %v, want %v", sv.save.Channel, sv.save.Version, wins[i].Load(), sv.saved)
				}
			}
			if wins[4].Load() == wins[5].Load() {
				t.Errorf("two saves of u4 at one version: saved %v and %v, want exactly one", wins[4].Load(), wins[5].Load())
			}
			for ch, want := range map[string]int64{"u0": 2, "u2": 2, "u3": 1, "u4": 2} {
				if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
					t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
				}
			}
			if ann, err := s.Tally(ctx, "g", "ann"); ann.Wins != 1 || err != nil {
				t.Errorf("the grouped winner's result: %+v %v", ann, err)
			}
		})
	}
}

// TestBatchOfMoves: a batch of moves and deliveries, which PostgreSQL
// writes as one statement (batch_statement.go), answers each op by its
// own outcome in one COMMIT: a won move with a clock, a won move that
// stops its clock, a stale version (whose interaction stays unrecorded, so
// a later delivery of it is not taken for a duplicate), a duplicate, and
// first and repeated deliveries. With finished games in it the batch is
// a transaction (their results and ratings take more statements; on
// PostgreSQL two pipelined round trips, pipeline.go), the moves in it must
// be answered the same, the game whose swap won must be recorded and rated
// once, and the one whose swap lost not at all.
func TestBatchOfMoves(t *testing.T) {
	for _, o := range sqlOpeners {
		for _, finished := range []bool{false, true} {
			t.Run(fmt.Sprint(o.name, "/finished=", finished), func(t *testing.T) { testBatchOfMoves(t, o.open, finished) })
		}
	}
}

// answer is what SaveTable returned.
type answer struct {
	version int64
	ok      bool
	err     error
}

func testBatchOfMoves(t *testing.T, open func(testing.TB, func(int)) *SQL, finished bool) {
	ctx := context.Background()
	var holding atomic.Bool
	release, blocked := make(chan struct{}), make(chan struct{}, 1)
	s := open(t, func(int) {
		if holding.CompareAndSwap(true, false) {
			blocked <- struct{}{}
			<-release
		}
	})
	due := at.Add(time.Minute)
	for i := range 6 {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("m", i), Guild: "g", Data: []byte("0"), Now: at}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	// m1 runs a clock that its move below stops; m3's interaction
	// was handled before.
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "m1", Guild: "g", Data: []byte("1"), Version: 1, Now: at, Deadline: due}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	for _, id := range []string{"handled-before", "handled-too"} {
		if first, err := s.FirstDelivery(ctx, id, at); !first || err != nil {
			t.Fatal(first, err)
		}
	}
	// Hold a COMMIT while the batch queues behind it.
	holding.Store(true)
	held := make(chan error, 1)
	go func() {
		_, _, err := s.SaveTable(ctx, table.Save{Channel: "other", Data: []byte("0"), Now: at})
		held <- err
	}()
	<-blocked
	commits := s.commits.Load()
	saves := []table.Save{
		{Channel: "m0", Version: 1, Delivery: "i0", Deadline: due.Add(time.Second)},
		{Channel: "m1", Version: 2, Delivery: "i1"},
		{Channel: "m2", Version: 7, Delivery: "i2"},
		{Channel: "m3", Version: 1, Delivery: "handled-before"},
	}
	want := []answer{{2, true, nil}, {3, true, nil}, {0, false, nil}, {0, false, table.ErrDuplicate}}
	if finished {
		r := table.Result{Scope: "g", Players: []string{"ann", "ben"}, Winner: 0, Places: []int{0, 1}, Rules: game.Classic(), Moves: 5}
		stale := table.Result{Scope: "g", Players: []string{"ann", "cat"}, Winner: 1, Places: []int{1, 0}, Rules: game.Classic(), Moves: 5}
		saves = append(saves, table.Save{Channel: "m4", Version: 1, Delivery: "i4", Result: &r},
			table.Save{Channel: "m5", Version: 4, Delivery: "i5", Result: &stale})
		want = append(want, answer{2, true, nil}, answer{0, false, nil})
	}
	answers := make([]answer, len(saves))
	firsts := make([]bool, 2)
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Go(func() {
			sv.Guild, sv.Data, sv.Now = "g", []byte(fmt.Sprint("moved", i)), at
			v, ok, err := s.SaveTable(ctx, sv)
			answers[i] = answer{v, ok, err}
		})
	}
	for i, id := range []string{"fresh", "handled-too"} {
		wg.Go(func() {
			first, err := s.FirstDelivery(ctx, id, at)
			if err != nil {
				t.Error(err)
			}
			firsts[i] = first
		})
	}
	waitQueued(t, s, len(saves)+2)
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, a := range answers {
		if a.version != want[i].version || a.ok != want[i].ok || !errors.Is(a.err, want[i].err) || (a.err == nil) != (want[i].err == nil) {
			t.Errorf("%s: v%d %v %v, want v%d %v %v", saves[i].Channel, a.version, a.ok, a.err, want[i].version, want[i].ok, want[i].err)
		}
	}
	if !firsts[0] || firsts[1] {
		t.Errorf("first deliveries: fresh %v, handled-too %v; want true, false", firsts[0], firsts[1])
	}
	if n := s.commits.Load() - commits; n != 2 {
		t.Errorf("%d COMMITs for the held save and the batch, want 2", n)
	}
	if ann, err := s.Tally(ctx, "g", "ann"); err != nil || ann.Wins != map[bool]int{true: 1}[finished] || ann.Losses != 0 {
		t.Errorf("the finished game's winner: %+v %v", ann, err)
	}
	if cat, err := s.Tally(ctx, "g", "cat"); err != nil || cat.Wins != 0 {
		t.Errorf("the game whose swap lost was recorded: %+v %v", cat, err)
	}
	if finished {
		checkRated(t, s, "g", map[string]int{"ann": 1, "ben": 1, "cat": 0})
	}
	for id, want := range map[string]bool{"i0": true, "i1": true, "i2": false, "fresh": true, "i4": finished, "i5": false} {
		if got, err := s.Handled(ctx, id); got != want || err != nil {
			t.Errorf("interaction %s handled: %v %v, want %v", id, got, err, want)
		}
	}
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(due.Add(time.Second)) {
		t.Errorf("next deadline %v %v %v, want m0's %v (m1's clock stopped)", next, ok, err, due.Add(time.Second))
	}
	for ch, want := range map[string]int64{"m0": 2, "m1": 3, "m2": 1, "m3": 1} {
		if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
			t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
		}
	}
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
	writer := func(s *SQL) string {
		var got string
		if err := s.inBatch(ctx, func(ctx context.Context, tx *sql.Tx) error { got = show(tx); return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, tc := range []struct {
		name, query, reads, writes string
	}{
		{"defaults", "", "force_custom_plan seqscan=on", "force_generic_plan seqscan=off"},
		{"URL sets plan_cache_mode", "&plan_cache_mode=auto", "auto seqscan=on", "auto seqscan=on"},
		{"URL sets enable_seqscan", "&enable_seqscan=off", "force_custom_plan seqscan=off", "force_custom_plan seqscan=off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenPostgres(ctx, storetest.PostgresURL(t)+tc.query)
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
	const args = `('{c1}', '{g}', '{"\\x00"}', '{1}', '{2026-11-25T00:00:00Z}', '{d1}', '{NULL}', '{f1}', '{2026-11-25T00:00:00Z}')`
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
	rows, err := conn.QueryContext(ctx, "EXPLAIN EXECUTE walk"+args)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"channel_tables", "handled_interactions", "clock_deadlines"} {
		if strings.Contains(plan.String(), "Seq Scan on "+table) {
			t.Errorf("the writer's plan scans %s whole:\n%s", table, plan.String())
		}
	}
}
