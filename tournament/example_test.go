package tournament_test

import (
	"fmt"

	"github.com/tttbot/tttbot/tournament"
)

// A round-robin of three: each round one game and one bye, and the round's
// last result pairs the next. Everyone beat one player and had a bye, so
// all three share first place, Sonneborn-Berger included (each beat a
// player with 2 points).
func Example() {
	t, _ := tournament.New(tournament.RoundRobin, 8, 0)
	for _, id := range []string{"ann", "bob", "cy"} {
		t.Join(id)
	}
	games, _ := t.Start(map[string]float64{"bob": 1600, "ann": 1500, "cy": 1400})
	for !t.Finished {
		for _, g := range games {
			fmt.Println(g.Key(), g.First, "v", g.Second, g.Outcome)
		}
		next, _, _ := t.Record(t.Waiting()[0].Key(), tournament.FirstWon)
		games = next
	}
	for _, s := range t.Standings() {
		fmt.Println(s.Rank, s.Player, s.Points, s.TieBreak)
	}
	// Output:
	// r1b1 ann v cy pending
	// r1b2 bob v  bye
	// r2b1 cy v bob pending
	// r2b2 ann v  bye
	// r3b1 bob v ann pending
	// r3b2 cy v  bye
	// 1 bob 2 2
	// 1 ann 2 2
	// 1 cy 2 2
}
