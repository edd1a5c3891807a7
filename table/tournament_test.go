package table

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/testkit"
)

// openTournamentGame saves a tournament game between alice (first) and
// bob in thread.
func openTournamentGame(tb testing.TB, ts *Tables, thread string) {
	tb.Helper()
	act(tb, ts, thread, func(cur *Table) (*Table, error) {
		return NewTournamentGame("g", thread, "hall", TournamentGame{Channel: "hall", Tournament: "t1", Game: "r1b1"},
			game.Rules{Rows: 3, Cols: 3, Win: 3}, 30*time.Second, "alice", "bob", start)
	})
}

func TestNewTournamentGame(t *testing.T) {
	tbl, err := NewTournamentGame("g", "th", "hall", TournamentGame{Channel: "hall", Tournament: "t1", Game: "r1b1"},
		game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 5}, 30*time.Second, "alice", "bob", start)
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := tbl.InTournament()
	parent, inThread := tbl.InThread()
	switch {
	case tbl.Phase != Playing || len(tbl.Seats) != 2 || tbl.Rules.Players != 2:
		t.Fatalf("not a started two-player game: %v, %+v", tbl.Phase, tbl.Seats)
	case !tbl.Seats[0].Agreed || !tbl.Seats[1].Agreed || tbl.Seats[0].User != "alice":
		t.Fatalf("seats %+v: both agreed by joining, the first moves first", tbl.Seats)
	case tbl.MoveClock() != 30*time.Second || !ok || tg.Game != "r1b1" || !inThread || parent != "hall":
		t.Fatalf("clock %v, tournament %+v, thread %q", tbl.MoveClock(), tg, parent)
	}
	if err := tbl.End("alice", true); !errors.Is(err, ErrTournamentGame) {
		t.Fatalf("End: %v", err)
	}
}

// reporter is a ReportFunc that counts its reports, failing while fail is
// set.
type reporter struct {
	n    atomic.Int32
	fail atomic.Bool
}

func (r *reporter) report(_ context.Context, t *Table) (func(context.Context), error) {
	if r.fail.Load() {
		return nil, errors.New("the tournament's store is down")
	}
	if t.Phase.Open() || t.Reported {
		return nil, errors.New("reported a game that is not ended, or again")
	}
	r.n.Add(1)
	return nil, nil
}

// reportingTournamentGame opens a tournament game between alice and bob
// in thread "th", on clocked tables whose reports r counts.
func reportingTournamentGame(t *testing.T) (*clockStore, *clock, *Tables, *reporter) {
	t.Helper()
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	r := &reporter{}
	ts.OnReport(r.report)
	openTournamentGame(t, ts, "th")
	return st, c, ts, r
}

// TestReportDue: a tournament game's end makes its report due at once;
// the scheduler applies it through the ReportFunc and saves the table as
// reported, once; a report that fails stays due.
func TestReportDue(t *testing.T) {
	st, c, ts, r := reportingTournamentGame(t)
	if at := mustLoad(t, ts, "th").reportAt(); !at.IsZero() {
		t.Fatalf("a game in play is due for report at %v", at)
	}
	resign(t, ts, "th")
	if d := mustLoad(t, ts, "th").DueNow(c.Now()); d != ReportDue {
		t.Fatalf("after the end: %v due", d)
	}
	r.fail.Store(true)
	s := mustScheduler(t, ts, st)
	if _, err := s.RunDue(context.Background()); err == nil {
		t.Fatal("a failed report was not an error")
	}
	if tbl := mustLoad(t, ts, "th"); tbl.Reported || tbl.DueNow(c.Now()) != ReportDue {
		t.Fatal("a failed report was saved as done")
	}
	r.fail.Store(false)
	for range 3 {
		if _, err := s.RunDue(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if tbl := mustLoad(t, ts, "th"); !tbl.Reported || r.n.Load() != 1 {
		t.Fatalf("reported %v, %d reports", tbl.Reported, r.n.Load())
	}
}

// TestReportBeforeRematch: an action at an ended tournament game that has
// not been reported (a rematch that would replace it) reports it first.
func TestReportBeforeRematch(t *testing.T) {
	_, c, ts, r := reportingTournamentGame(t)
	resign(t, ts, "th")
	act(t, ts, "th", func(cur *Table) (*Table, error) { return Rematch(cur, "bob", c.Now()) })
	ts.Wait()
	if tbl := mustLoad(t, ts, "th"); r.n.Load() != 1 || tbl.Number != 2 {
		t.Fatalf("%d reports; game %d", r.n.Load(), tbl.Number)
	}
}

// TestClockRunOutReportsInOnePass: a clock that runs out ends the game and
// its report is applied by the same scheduler pass.
func TestClockRunOutReportsInOnePass(t *testing.T) {
	st, c, ts, r := reportingTournamentGame(t)
	c.Advance(31 * time.Second)
	n, err := mustScheduler(t, ts, st).RunDue(context.Background())
	if err != nil || n != 1 || r.n.Load() != 1 {
		t.Fatalf("one pass: %d applied, %d reports, %v", n, r.n.Load(), err)
	}
}

// TestDocuments: a document's update is a compare-and-swap that reads
// again when another wrote first, and its deadline hands its key to the
// function registered for its prefix.
func TestDocuments(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	var wg sync.WaitGroup
	var saved atomic.Int32
	for range 10 {
		wg.Go(func() {
			ok, err := ts.UpdateDocumentDue(context.Background(), "count:x", "", func(data []byte, found bool) ([]byte, time.Time, error) {
				return append(data[:len(data):len(data)], 'x'), c.Now(), nil // the store's bytes are shared: never append in place
			})
			switch {
			case ok:
				saved.Add(1)
			case !errors.Is(err, ErrConflict):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	data, found, err := ts.LoadDocument(context.Background(), "count:x")
	if err != nil || !found || len(data) != int(saved.Load()) || saved.Load() == 0 {
		t.Fatalf("document %q (%v, %v) after %d saves: an update was lost", data, found, err, saved.Load())
	}
	var due []string
	ts.OnDocumentDue("count:", func(_ context.Context, key string) (bool, error) {
		due = append(due, key)
		_, err := ts.UpdateDocumentDue(context.Background(), key, "", func(data []byte, _ bool) ([]byte, time.Time, error) {
			return data, time.Time{}, nil // done: no deadline
		})
		return true, err
	})
	if n, err := mustScheduler(t, ts, st).RunDue(context.Background()); err != nil || n != 1 || len(due) != 1 || due[0] != "count:x" {
		t.Fatalf("due documents %q (%d applied, %v)", due, n, err)
	}
	if _, ok, _ := st.NextDeadline(context.Background()); ok {
		t.Fatal("the document's deadline was not cleared")
	}
}

func mustScheduler(tb testing.TB, ts *Tables, st DeadlineStore) *Scheduler {
	tb.Helper()
	s, err := NewScheduler(ts, SchedulerOptions{Store: st})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
