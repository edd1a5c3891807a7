package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// deadlineStore is what the clock scheduler needs beyond table.Store.
type deadlineStore interface {
	storeUnderTest
	table.DeadlineStore
}

var (
	_ table.DeadlineStore = (*Memory)(nil)
	_ table.DeadlineStore = (*SQL)(nil)
)

// TestDeadlines: a save keeps its table's deadline in the same write, a
// refused save changes none, a zero deadline removes it, and the scheduler's
// two questions (the earliest; the due ones) are answered in order.
func TestDeadlines(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			s := be.open(t).(deadlineStore)
			if _, ok, err := s.NextDeadline(ctx); ok || err != nil {
				t.Fatalf("an empty store has a deadline: %v %v", ok, err)
			}
			versions := map[string]int64{}
			save := func(ch string, version int64, due time.Time) bool {
				t.Helper()
				v, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: []byte("{}"), Version: version, Now: at, Deadline: due})
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					versions[ch] = v
				}
				return ok
			}
			save("a", 0, at.Add(90*time.Second))
			save("b", 0, at.Add(30*time.Second+250*time.Millisecond))
			save("c", 0, time.Time{}) // no clock
			save("d", 0, at.Add(time.Hour))

			next, ok, err := s.NextDeadline(ctx)
			if err != nil || !ok || !next.Equal(at.Add(30*time.Second+250*time.Millisecond)) {
				t.Fatalf("next deadline %v %v %v, want b's", next, ok, err)
			}
			due, err := s.DueChannels(ctx, at.Add(90*time.Second), 10)
			if err != nil || !slices.Equal(due, []string{"b", "a"}) {
				t.Fatalf("due %v %v, want [b a]", due, err)
			}
			if due, _ := s.DueChannels(ctx, at.Add(2*time.Hour), 1); !slices.Equal(due, []string{"b"}) {
				t.Fatalf("limit 1: %v", due)
			}
			if save("b", versions["b"]+5, time.Time{}) {
				t.Fatal("a stale save was accepted")
			}
			if next, _, _ := s.NextDeadline(ctx); !next.Equal(at.Add(30*time.Second + 250*time.Millisecond)) {
				t.Fatalf("a refused save moved the deadline to %v", next)
			}
			save("b", versions["b"], time.Time{}) // b's game ended
			save("a", versions["a"], at.Add(3*time.Hour))
			if next, _, _ := s.NextDeadline(ctx); !next.Equal(at.Add(time.Hour)) {
				t.Fatalf("next deadline %v, want d's", next)
			}
			if due, _ := s.DueChannels(ctx, at.Add(time.Hour), 10); !slices.Equal(due, []string{"d"}) {
				t.Fatalf("due %v, want [d]", due)
			}
		})
	}
}

// TestMigrationsWithGaps: a migration numbered past a missing one applies,
// and the missing one still applies when it lands later.
func TestMigrationsWithGaps(t *testing.T) {
	ms, err := loadMigrations(sqlite.dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ms, func(m migration) bool { return m.version == 4 }) {
		t.Fatal("0004 (clock deadlines) is not embedded")
	}
	s := newSQLite(t)
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Fatalf("%d migrations recorded (%v), want %d", n, err, len(ms))
	}
	// A database that has every migration but one (as when a lower number
	// lands after a higher one) gets exactly that one on the next open.
	last := ms[len(ms)-1]
	// The writer's connection: the read pool is query-only.
	if _, err := s.wdb.Exec(`DROP TABLE clock_deadlines`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.wdb.Exec(`DELETE FROM schema_migrations WHERE version = 4`); err != nil {
		t.Fatal(err)
	}
	if _, err := migrate(context.Background(), s.wdb, sqlite); err != nil {
		t.Fatalf("migrate after a gap: %v (last is %s)", err, last.name)
	}
	if _, err := s.db.Exec(`SELECT channel FROM clock_deadlines`); err != nil {
		t.Fatalf("0004 not reapplied: %v", err)
	}
}
