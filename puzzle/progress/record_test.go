package progress

import (
	"fmt"
	"testing"
	"time"

	"github.com/tttbot/tttbot/puzzle"
)

func TestStreak(t *testing.T) {
	for _, tc := range []struct {
		name         string
		days         []string // daily puzzles solved, in order
		streak, best int
	}{
		{"OneDay", []string{"2026-11-23"}, 1, 1},
		{"NextDay", []string{"2026-11-23", "2026-11-24"}, 2, 2},
		{"SameDayTwice", []string{"2026-11-23", "2026-11-23"}, 1, 1}, // both kinds' daily puzzles
		{"AcrossAMonth", []string{"2026-11-30", "2026-12-01"}, 2, 2},
		{"AcrossAYear", []string{"2026-12-31", "2027-01-01"}, 2, 2},
		{"Gap", []string{"2026-11-23", "2026-11-24", "2026-11-26"}, 1, 2},
		{"OlderDayLate", []string{"2026-11-24", "2026-11-23"}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Record
			for _, d := range tc.days {
				r.solvedDaily(d)
			}
			if r.Streak != tc.streak || r.Best != tc.best {
				t.Fatalf("streak %d best %d, want %d %d", r.Streak, r.Best, tc.streak, tc.best)
			}
		})
	}
}

func TestCurrentStreak(t *testing.T) {
	r := Record{Streak: 4, Best: 6, LastDaily: "2026-11-24"}
	for _, tc := range []struct {
		at   time.Time
		want int
	}{
		{time.Date(2026, 11, 24, 23, 59, 0, 0, time.UTC), 4},
		{time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), 4}, // yesterday's solve: today can still extend it
		{time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC), 4},
		{time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC), 0},                        // a whole UTC day missed
		{time.Date(2026, 11, 25, 1, 0, 0, 0, time.FixedZone("UTC+3", 3*3600)), 4}, // 24 Nov 22:00 UTC
	} {
		if got := r.CurrentStreak(tc.at); got != tc.want {
			t.Errorf("at %v: %d, want %d", tc.at, got, tc.want)
		}
	}
}

// TestCountedOncePerPuzzle: a try counts only while the puzzle is not spent
// and no other slot holds a counted try at it, so a solve counts once per
// puzzle however it is reached.
func TestCountedOncePerPuzzle(t *testing.T) {
	p := puzzle.Puzzle{ID: "t333-0284", Kind: puzzle.Classic}
	var r Record
	if r.spent(p.ID, "classic/easy") {
		t.Fatal("a new puzzle is spent")
	}
	r.put(Attempt{N: 1, Slot: "classic/easy", Puzzle: p, Counted: true})
	if !r.spent(p.ID, "classic/daily") {
		t.Fatal("a puzzle with a counted try in another slot is not spent for this one")
	}
	// The daily puzzle of the next day replaces an unfinished counted try:
	// its puzzle is spent, so it never counts later.
	r.put(Attempt{N: 2, Slot: "classic/easy", Puzzle: puzzle.Puzzle{ID: "t333-0621"}, Counted: true})
	if !r.spent(p.ID, "classic/easy") {
		t.Fatal("a replaced unfinished counted try left its puzzle fresh")
	}
}

func TestRecordBounds(t *testing.T) {
	var r Record
	for i := range maxSpent + 10 {
		r.spend(fmt.Sprint("p", i))
	}
	if len(r.Spent) != maxSpent || r.Spent[0] != spentKey("p10") || r.spent("p9", "") || !r.spent("p10", "") {
		t.Fatalf("%d spent, oldest %s", len(r.Spent), r.Spent[0])
	}
	for i := range maxRecent + 3 {
		if r.applied(fmt.Sprint(i)) {
			t.Fatalf("interaction %d applied before", i)
		}
	}
	if len(r.Recent) != maxRecent || !r.applied(fmt.Sprint(maxRecent+2)) {
		t.Fatalf("recent %v", r.Recent)
	}
}
