package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"

	"github.com/tttbot/tttbot/game"
)

// openChallenge has challenger open a 3×3 game in channel that invites
// invitee, with clock (0: none), as /ttt new opponent: does.
func openChallenge(ts *Tables, channel, challenger, invitee string, clock time.Duration) error {
	ctx := context.Background()
	return ts.Do(ctx, channel, func(_ context.Context, cur *Table) (*Table, error) {
		t, err := New(cur, "g", channel, challenger, game.Classic(), game.Fast, ts.Now())
		if err != nil {
			return nil, err
		}
		if err := t.SetClock(clock); err != nil {
			return nil, err
		}
		if err := t.Join(challenger, "X"); err != nil {
			return nil, err
		}
		expires := ts.Now().Add(DefaultChallengeTimeout)
		if err := ts.ReserveChallenge(ctx, challenger, invitee, channel, expires); err != nil {
			return nil, err
		}
		return t, t.Invite([]string{invitee}, expires)
	})
}

// answer runs user's Accept (or Decline) on channel's challenge.
func answer(ts *Tables, channel, user string, accept bool) error {
	return ts.Do(context.Background(), channel, func(_ context.Context, cur *Table) (*Table, error) {
		if cur == nil {
			return nil, ErrNoGame
		}
		if accept {
			return cur, cur.Accept(user, "", ts.Now())
		}
		return cur, cur.Decline(user, ts.Now())
	})
}

func TestChallengeAnswers(t *testing.T) {
	ctx := context.Background()
	closedBy := func(why EndReason) func(error) bool {
		return func(err error) bool {
			var ce *ChallengeClosedError
			return errors.As(err, &ce) && ce.Why == why
		}
	}
	t.Run("AcceptStartsTheGameAndOnlyThenItsClock", func(t *testing.T) {
		st, c := newClockStore(), testkit.NewClock(start)
		ts := clockedTables(t, st, c)
		if err := openChallenge(ts, "c", "alice", "bob", 30*time.Second); err != nil {
			t.Fatal(err)
		}
		tbl := mustLoad(t, ts, "c")
		if tbl.Phase != Lobby || !tbl.Challenging() || !tbl.Deadline.IsZero() {
			t.Fatalf("before the answer: phase %s, challenging %v, clock deadline %v", tbl.Phase, tbl.Challenging(), tbl.Deadline)
		}
		if due := st.due["c"]; !due.Equal(start.Add(DefaultChallengeTimeout)) {
			t.Fatalf("stored deadline %v, want the invitation's expiry", due)
		}
		c.Advance(5 * time.Minute)
		if err := answer(ts, "c", "bob", true); err != nil {
			t.Fatal(err)
		}
		tbl = mustLoad(t, ts, "c")
		if tbl.Phase != Playing || tbl.Challenging() || !tbl.Deadline.Equal(c.Now().Add(30*time.Second)) {
			t.Fatalf("after accepting: phase %s, deadline %v", tbl.Phase, tbl.Deadline)
		}
		if err := answer(ts, "c", "bob", true); !closedBy(NotEnded)(err) {
			t.Fatalf("accepting twice: %v", err)
		}
	})
	for _, tc := range []struct {
		name   string
		act    func(ts *Tables, st *clockStore, c *clock) error
		reason EndReason
	}{
		{"Declined", func(ts *Tables, _ *clockStore, _ *clock) error { return answer(ts, "c", "bob", false) }, Declined},
		{"Withdrawn", func(ts *Tables, _ *clockStore, _ *clock) error {
			return ts.Do(ctx, "c", func(_ context.Context, cur *Table) (*Table, error) { return cur, cur.End("alice", false) })
		}, Withdrawn},
		{"LapsedByTheScheduler", func(ts *Tables, st *clockStore, c *clock) error {
			c.Advance(DefaultChallengeTimeout)
			s, err := NewScheduler(ts, SchedulerOptions{Store: st})
			if err != nil {
				return err
			}
			n, err := s.RunDue(ctx)
			if n != 1 {
				return fmt.Errorf("the scheduler applied %d lapses: %v", n, err)
			}
			return err
		}, Unanswered},
		{"LapsedFoundByTheAnswer", func(ts *Tables, _ *clockStore, c *clock) error {
			c.Advance(DefaultChallengeTimeout + time.Second)
			if err := answer(ts, "c", "bob", true); !closedBy(Unanswered)(err) {
				return fmt.Errorf("a late accept: %v", err)
			}
			return nil
		}, Unanswered},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, c := newClockStore(), testkit.NewClock(start)
			ts := clockedTables(t, st, c)
			if err := openChallenge(ts, "c", "alice", "bob", 30*time.Second); err != nil {
				t.Fatal(err)
			}
			if err := answer(ts, "c", "carol", true); !errors.Is(err, ErrNotInvited) {
				t.Fatalf("carol accepting bob's challenge: %v", err)
			}
			if err := tc.act(ts, st, c); err != nil {
				t.Fatal(err)
			}
			tbl := mustLoad(t, ts, "c")
			if tbl.Phase != Ended || tbl.EndReason != tc.reason || st.resultCount() != 0 {
				t.Fatalf("phase %s, reason %s, %d results; want ended %s with no result", tbl.Phase, tbl.EndReason, st.resultCount(), tc.reason)
			}
			if _, due := st.due["c"]; due {
				t.Fatal("a deadline is still stored for the ended challenge")
			}
			if err := answer(ts, "c", "bob", true); !closedBy(tc.reason)(err) {
				t.Fatalf("accepting afterwards: %v", err)
			}
		})
	}
}

// TestOnlyConsentingPlayersAreRated: a seat whose person never chose the game
// (seated by force, as /ttt new opponent: did before challenges, or a
// rematch's other player) and never moved in it is never rated for it, even
// when they lose on time; the same game between two who agreed is rated.
func TestOnlyConsentingPlayersAreRated(t *testing.T) {
	ctx := context.Background()
	forced := func(agreed bool) []byte {
		return fmt.Appendf(nil, `{"guild":"g","channel":"c","creator":"alice","rules":{"Rows":3,"Cols":3,"Win":3,"Gravity":false,"Players":2},
			"engine":0,"seats":[{"user":"alice","token":"X","agreed":true},{"user":"bob","token":"O","agreed":%v}],
			"phase":"playing","moves":"","number":1,"clock":30,"created":"2026-11-22T12:00:00Z","updated":"2026-11-22T12:00:00Z"}`, agreed)
	}
	for _, tc := range []struct {
		name      string
		bobAgreed bool
		rated     bool
	}{{"ForcedSeat", false, false}, {"BothAgreed", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			st, c := newClockStore(), testkit.NewClock(start)
			if _, _, err := st.SaveTable(ctx, Save{Channel: "c", Guild: "g", Data: forced(tc.bobAgreed), Now: start}); err != nil {
				t.Fatal(err)
			}
			ts := clockedTables(t, st, c)
			if err := move(ts, "c", "alice", "0,0"); err != nil {
				t.Fatal(err)
			}
			c.Advance(31 * time.Second)
			if err := move(ts, "c", "bob", "1,1"); !errors.Is(err, ErrTimeUp) {
				t.Fatalf("bob's late move: %v", err)
			}
			r := st.lastResult()
			if r == nil || r.Rated() != tc.rated {
				t.Fatalf("result %+v: rated %v, want %v", r, r != nil && r.Rated(), tc.rated)
			}
		})
	}
	t.Run("RematchUntilTheyMove", func(t *testing.T) {
		st, c := newClockStore(), testkit.NewClock(start)
		ts := clockedTables(t, st, c)
		openClocked(t, ts, "c", "alice", "bob")
		for i, typed := range []string{"0,0", "1,0", "0,1", "1,1", "0,2"} {
			if err := move(ts, "c", []string{"alice", "bob"}[i%2], typed); err != nil {
				t.Fatal(err)
			}
		}
		if r := st.lastResult(); r == nil || !r.Rated() {
			t.Fatalf("the first game, both agreed: %+v", r)
		}
		err := ts.Do(ctx, "c", func(_ context.Context, cur *Table) (*Table, error) { return Rematch(cur, "alice", ts.Now()) })
		if err != nil {
			t.Fatal(err)
		}
		c.Advance(31 * time.Second) // bob starts the rematch and never moves
		if _, err := ts.ApplyDue(ctx, "c"); err != nil {
			t.Fatal(err)
		}
		if r := st.lastResult(); r == nil || r.Rated() || len(r.Unconsenting) != 1 || r.Players[r.Unconsenting[0]] != "bob" {
			t.Fatalf("the rematch bob never played: %+v", r)
		}
	})
}

func TestChallengeLimits(t *testing.T) {
	ts, _, now := mustTables(t)
	if err := openChallenge(ts, "c1", "alice", "bob", 0); err != nil {
		t.Fatal(err)
	}
	if err := openChallenge(ts, "c2", "alice", "bob", 0); !errors.Is(err, ErrAlreadyChallenged) {
		t.Fatalf("a second open challenge to bob: %v", err)
	}
	if tbl, _ := ts.Load(context.Background(), "c2"); tbl != nil {
		t.Fatalf("the refused challenge left a table: %+v", tbl)
	}
	for i := 2; i <= MaxOpenChallenges; i++ {
		if err := openChallenge(ts, fmt.Sprintf("c%d", i), "alice", fmt.Sprintf("user%d", i), 0); err != nil {
			t.Fatalf("challenge %d: %v", i, err)
		}
	}
	if err := openChallenge(ts, "c9", "alice", "zoe", 0); !errors.Is(err, ErrTooManyChallenges) {
		t.Fatalf("challenge %d: %v", MaxOpenChallenges+1, err)
	}
	if err := openChallenge(ts, "c9", "bob", "zoe", 0); err != nil {
		t.Fatalf("another challenger is not limited by alice's: %v", err)
	}
	// An answered challenge frees its place, and bob may be challenged again.
	if err := answer(ts, "c1", "bob", false); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Minute) // past the grace a new entry has before its table is saved
	if err := openChallenge(ts, "c10", "alice", "bob", 0); err != nil {
		t.Fatalf("after bob declined: %v", err)
	}
	// Lapsed challenges free theirs too.
	*now = now.Add(DefaultChallengeTimeout)
	if err := openChallenge(ts, "c11", "alice", "zoe", 0); err != nil {
		t.Fatalf("after the others lapsed: %v", err)
	}
}

// TestReplicasRaceAcceptAndDecline: two replicas receive bob's Accept and
// Decline at once; exactly one applies, and the other is told the challenge
// is closed.
func TestReplicasRaceAcceptAndDecline(t *testing.T) {
	for round := range 50 {
		st := newReplicaStore()
		a, b := replica(st), replica(st)
		if err := openChallenge(a, "c", "alice", "bob", 0); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, ts := range []*Tables{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = answer(ts, "c", "bob", i == 0)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrChallengeClosed) && !errors.Is(err, ErrConflict):
				t.Fatalf("round %d: %v", round, err)
			}
		}
		tbl := mustLoad(t, a, "c")
		if won != 1 || tbl.Phase == Lobby {
			t.Fatalf("round %d: %d answers applied (%v), phase %s", round, won, errs, tbl.Phase)
		}
	}
}

// lastResult is the result the store saved last, or nil.
func (c *clockStore) lastResult() *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.results) == 0 {
		return nil
	}
	r := c.results[len(c.results)-1]
	return &r
}
