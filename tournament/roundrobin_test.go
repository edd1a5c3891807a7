package tournament

import (
	"fmt"
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
