package tournament

import (
	"errors"
	"math"
	"testing"
)

// TestRecordIsIdempotent: the same result again is no change and no new
// round; a different one is refused; the round is paired once.
func TestRecordIsIdempotent(t *testing.T) {
	tr, games := started(t, Swiss, 0, ids(4), nil)
	if len(games) != 2 {
		t.Fatalf("round 1 has %d games, want 2", len(games))
	}
	mustRecord(t, tr, games[0].Key(), FirstWon)
	if next := mustRecord(t, tr, games[0].Key(), FirstWon); next != nil {
		t.Fatalf("recording again paired %v", pairings(next))
	}
	if _, _, err := tr.Record(games[0].Key(), Draw); !errors.Is(err, ErrAlreadyRecorded) {
		t.Fatalf("a different result: %v, want ErrAlreadyRecorded", err)
	}
	next := mustRecord(t, tr, games[1].Key(), Draw)
	if len(next) != 2 || tr.Round != 2 {
		t.Fatalf("the round's last result paired %v (round %d)", pairings(next), tr.Round)
	}
	before := len(tr.Games)
	if again := mustRecord(t, tr, games[1].Key(), Draw); again != nil || len(tr.Games) != before {
		t.Fatalf("recording the last result again paired %v", pairings(again))
	}
	if _, _, err := tr.Record("r9b9", FirstWon); !errors.Is(err, ErrNoGame) {
		t.Errorf("unknown game: %v, want ErrNoGame", err)
	}
	if _, _, err := tr.Record(next[0].Key(), Pending); !errors.Is(err, ErrBadOutcome) {
		t.Errorf("Pending: %v, want ErrBadOutcome", err)
	}
}

// TestEntryErrors checks the refusals before and at the start.
func TestEntryErrors(t *testing.T) {
	if _, err := New("ladder", 8, 0); !errors.Is(err, ErrBadFormat) {
		t.Errorf("bad format: %v", err)
	}
	for _, size := range []int{-1, 2, 65} {
		if _, err := New(Swiss, size, 0); !errors.Is(err, ErrBadSize) {
			t.Errorf("size %d: %v", size, err)
		}
	}
	if _, err := New(Knockout, 8, 3); !errors.Is(err, ErrRoundsOnlySwiss) {
		t.Errorf("rounds for a knockout: %v", err)
	}
	if _, err := New(Swiss, 8, -1); !errors.Is(err, ErrBadRounds) {
		t.Errorf("negative rounds: %v", err)
	}
	tr, err := New(RoundRobin, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Join("a"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Join("a"); !errors.Is(err, ErrAlreadyJoined) {
		t.Errorf("joining twice: %v", err)
	}
	if _, err := tr.Start(nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("starting with one: %v", err)
	}
	if _, _, _, err := tr.Leave("b"); !errors.Is(err, ErrNotJoined) {
		t.Errorf("leaving unjoined: %v", err)
	}
	for _, id := range []string{"b", "c"} {
		if err := tr.Join(id); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Join("d"); !errors.Is(err, ErrFull) {
		t.Errorf("joining a full one: %v", err)
	}
	if _, _, _, err := tr.Leave("c"); err != nil || len(tr.Players) != 2 {
		t.Errorf("leaving before the start: %v, %d left", err, len(tr.Players))
	}
	if err := tr.Join("d"); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Start(nil); err != nil {
		t.Fatal(err)
	}
	if err := tr.Join("e"); !errors.Is(err, ErrStarted) {
		t.Errorf("joining a started one: %v", err)
	}
	if _, err := tr.Start(nil); !errors.Is(err, ErrStarted) {
		t.Errorf("starting twice: %v", err)
	}
}

// TestRecordOnABye: a bye is decided when it is paired; a result for it is
// a different result.
func TestRecordOnABye(t *testing.T) {
	tr, games := started(t, RoundRobin, 0, ids(3), map[string]float64{"p2": math.NaN()})
	bye := games[len(games)-1]
	if bye.Second != "" || bye.Outcome != Bye {
		t.Fatalf("the last board of round 1 is %+v, want a bye", bye)
	}
	if _, _, err := tr.Record(bye.Key(), FirstWon); !errors.Is(err, ErrAlreadyRecorded) {
		t.Errorf("a result for a bye: %v, want ErrAlreadyRecorded", err)
	}
	if _, _, err := tr.Record(bye.Key(), Bye); !errors.Is(err, ErrBadOutcome) {
		t.Errorf("recording Bye: %v, want ErrBadOutcome", err)
	}
	roundTrip(t, tr) // a NaN rating would not survive JSON
}
