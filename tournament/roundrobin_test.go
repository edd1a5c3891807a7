package tournament

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestRoundRobinEveryPairOnce plays round-robins of 3–12 players (every
// game won by First) and checks the circle method: every pair meets exactly
// once, one bye a round when n is odd and one each, every player moves
// first in ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ games, and the state survives JSON after
// every round.
func TestRoundRobinEveryPairOnce(t *testing.T) {
	for n := 3; n <= 12; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			tr, games := started(t, RoundRobin, 0, ids(n), nil)
			for len(games) > 0 {
				tr = roundTrip(t, tr)
				var next []Game
				for _, g := range games {
					if g.Outcome == Pending {
						next = mustRecord(t, tr, g.Key(), FirstWon)
					}
				}
				games = next
			}
			if !tr.Finished {
				t.Fatal("not finished after the last round")
			}
			wantRounds := n - 1 + n%2
			if tr.Round != wantRounds || tr.Rounds != wantRounds {
				t.Errorf("played %d of %d rounds, want %d", tr.Round, tr.Rounds, wantRounds)
			}
			met := map[[2]string]int{}
			firsts := map[string]int{}
			byes := map[string]int{}
			for _, g := range tr.Games {
				if g.Second == "" {
					byes[g.First]++
					continue
				}
				a, b := g.First, g.Second
				firsts[a]++
				if a > b {
					a, b = b, a
				}
				met[[2]string{a, b}]++
			}
			players := ids(n)
			for i, a := range players {
				for _, b := range players[i+1:] {
					x, y := a, b
					if x > y {
						x, y = y, x
					}
					if met[[2]string{x, y}] != 1 {
						t.Errorf("%s and %s met %d times", a, b, met[[2]string{x, y}])
					}
				}
				if want := n % 2; byes[a] != want {
					t.Errorf("%s had %d byes, want %d", a, byes[a], want)
				}
				if f := firsts[a]; f != (n-1)/2 && f != n/2 {
					t.Errorf("%s moved first in %d of %d games", a, f, n-1)
				}
			}
		})
	}
}

// TestRoundRobinLeaver: a player leaving during round 1 forfeits the game
// being played and every later one as it is paired; the forfeits score for
// the opponents but add nothing to Sonneborn-Berger. By hand: p1 beats p4,
// draws p3 and wins by forfeit: 2.5, SB 2 (p4's points) + 0.75 (half of
// p3's 1.5) = 2.75; p4 loses to p1, wins by forfeit, beats p3: 2, SB 1.5;
// p3 wins by forfeit, draws p1, loses to p4: 1.5, SB 2.5/2 = 1.25; p2 0.
func TestRoundRobinLeaver(t *testing.T) {
	tr, games := started(t, RoundRobin, 0, ids(4), nil)
	if want := []string{"r1b1 p1-p4 pending", "r1b2 p2-p3 pending"}; !slices.Equal(pairings(games), want) {
		t.Fatalf("round 1: %q, want %q", pairings(games), want)
	}
	mustRecord(t, tr, "r1b1", FirstWon)
	forfeited, next, finished, err := tr.Leave("p2")
	if err != nil || finished {
		t.Fatalf("Leave: %v, finished %v", err, finished)
	}
	if want := []string{"r1b2 p2-p3 first-forfeit"}; !slices.Equal(pairings(forfeited), want) {
		t.Errorf("forfeited %q, want %q", pairings(forfeited), want)
	}
	if want := []string{"r2b1 p4-p2 second-forfeit", "r2b2 p3-p1 pending"}; !slices.Equal(pairings(next), want) {
		t.Errorf("next %q, want %q", pairings(next), want)
	}
	if _, _, _, err := tr.Leave("p2"); !errors.Is(err, ErrAlreadyLeft) {
		t.Errorf("leaving twice: %v, want ErrAlreadyLeft", err)
	}
	next = mustRecord(t, tr, "r2b2", Draw)
	if want := []string{"r3b1 p3-p4 pending", "r3b2 p1-p2 second-forfeit"}; !slices.Equal(pairings(next), want) {
		t.Errorf("round 3 %q, want %q", pairings(next), want)
	}
	if _, finished, _ := tr.Record("r3b1", SecondWon); !finished {
		t.Fatal("not finished")
	}
	want := []Standing{
		{Rank: 1, Player: "p1", Points: 2.5, Games: 3, Wins: 2, Draws: 1, TieBreak: 2.75, Seed: 1},
		{Rank: 2, Player: "p4", Points: 2, Games: 3, Wins: 2, Losses: 1, TieBreak: 1.5, Seed: 4},
		{Rank: 3, Player: "p3", Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, TieBreak: 1.25, Seed: 3},
		{Rank: 4, Player: "p2", Points: 0, Games: 3, Losses: 3, Seed: 2, Left: true},
	}
	if got := tr.Standings(); !reflect.DeepEqual(got, want) {
		t.Errorf("standings:\n got %+v\nwant %+v", got, want)
	}
	if _, _, _, err := tr.Leave("p1"); !errors.Is(err, ErrFinished) {
		t.Errorf("leaving a finished one: %v, want ErrFinished", err)
	}
}
