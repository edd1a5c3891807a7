package tournament

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A step of a scripted tournament: a result for a game, or a player
// leaving.
type step struct {
	key   string // game key; "" when leave is set
	o     Outcome
	leave string
}

// TestWholeTournaments plays three tournaments to the end and checks every
// round's pairing and the final standings against tables worked out by
// hand (the arithmetic is in each case's comment).
func TestWholeTournaments(t *testing.T) {
	cases := []struct {
		name    string
		format  Format
		players []string
		ratings map[string]float64
		steps   []step
		rounds  []string // the bracket, one line a round: "key first-second outcome" joined by ", "
		want    []Standing
	}{
		{
			// Circle method for 5 (seats p1…p5 and the bye seat fixed):
			// every player has one bye. Results by round:
			//   R1 p2 beats p5, p4 beats p3;
			//   R2 p1 beats p3, p5 beats p4;
			//   R3 p4–p2 draw, p1 beats p5;
			//   R4 p3 beats p5, p2 beats p1;
			//   R5 p1–p4 draw, p3 beats p2.
			// Points: p1 1+1+1+0+½ = 3.5, p2 1+1+½+1+0 = 3.5,
			// p3 0+0+1+1+1 = 3, p4 1+0+½+1+½ = 3, p5 0+1+0+0+1 = 2 (15 =
			// 10 games + 5 byes). Sonneborn-Berger (byes add nothing):
			// p1 beat p3 (3) and p5 (2), drew p4 (3/2): 6.5;
			// p2 beat p5 (2) and p1 (3.5), drew p4 (1.5): 7;
			// p3 beat p5 (2) and p2 (3.5): 5.5;
			// p4 beat p3 (3), drew p2 and p1 (1.75 each): 6.5;
			// p5 beat p4 (3): 3.
			name: "round-robin of 5", format: RoundRobin, players: ids(5),
			steps: []step{
				{key: "r1b1", o: FirstWon}, {key: "r1b2", o: FirstWon},
				{key: "r2b1", o: SecondWon}, {key: "r2b2", o: FirstWon},
				{key: "r3b1", o: Draw}, {key: "r3b2", o: FirstWon},
				{key: "r4b1", o: SecondWon}, {key: "r4b2", o: FirstWon},
				{key: "r5b1", o: Draw}, {key: "r5b2", o: FirstWon},
			},
			rounds: []string{
				"r1b1 p2-p5 first, r1b2 p4-p3 first, r1b3 p1- bye",
				"r2b1 p3-p1 second, r2b2 p5-p4 first, r2b3 p2- bye",
				"r3b1 p4-p2 draw, r3b2 p1-p5 first, r3b3 p3- bye",
				"r4b1 p5-p3 second, r4b2 p2-p1 first, r4b3 p4- bye",
				"r5b1 p1-p4 draw, r5b2 p3-p2 first, r5b3 p5- bye",
			},
			want: []Standing{
				{Rank: 1, Player: "p2", Points: 3.5, Games: 5, Wins: 3, Draws: 1, Losses: 1, TieBreak: 7, Seed: 2},
				{Rank: 2, Player: "p1", Points: 3.5, Games: 5, Wins: 3, Draws: 1, Losses: 1, TieBreak: 6.5, Seed: 1},
				{Rank: 3, Player: "p4", Points: 3, Games: 5, Wins: 2, Draws: 2, Losses: 1, TieBreak: 6.5, Seed: 4},
				{Rank: 4, Player: "p3", Points: 3, Games: 5, Wins: 3, Draws: 0, Losses: 2, TieBreak: 5.5, Seed: 3},
				{Rank: 5, Player: "p5", Points: 2, Games: 5, Wins: 2, Draws: 0, Losses: 3, TieBreak: 3, Seed: 5},
			},
		},
		{
			// Swiss of 8, 3 rounds (⌈log2 8⌉). R1 pairs 1v5, 2v6, 3v7, 4v8;
			// p2–p6 is drawn and p8 does not show (p4 wins by forfeit). R2
			// by score: p1 v p4 (the 1-point group of three: 1 meets the
			// one half down), p7 floats to p2, p6 v p3, p5 v p8; p4 moves
			// first (its forfeit win was not played, so p4 has no first
			// moves yet). p8 leaves during R2 and forfeits. R3: seven
			// players, the bye goes to the last, p6; p1 v p7, p3 v p4,
			// p5 v p2. Final points: p1 W W D 2.5, p7 W W D 2.5, p3 L W W 2,
			// p2 D L W 1.5, p6 D L bye 1.5, p4 W(ff) L L 1, p5 L W(ff) L 1,
			// p8 0. Buchholz (an unplayed game counts the player's own
			// points): p7 2+1.5+2.5 = 6, p1 1+1+2.5 = 4.5, p3 2.5+1.5+1 = 5,
			// p2 1.5+2.5+1 = 5, p6 1.5+2+1.5 = 5, p4 1+2.5+2 = 5.5,
			// p5 2.5+1+1.5 = 5, p8 0+0 = 0. p2 and p6 share 4th.
			name: "swiss of 8 with a draw and a no-show", format: Swiss, players: ids(8),
			steps: []step{
				{key: "r1b1", o: FirstWon}, {key: "r1b2", o: Draw}, {key: "r1b3", o: SecondWon}, {key: "r1b4", o: SecondForfeit},
				{key: "r2b1", o: SecondWon}, {key: "r2b2", o: FirstWon}, {key: "r2b3", o: SecondWon}, {leave: "p8"},
				{key: "r3b1", o: Draw}, {key: "r3b2", o: FirstWon}, {key: "r3b3", o: SecondWon},
			},
			rounds: []string{
				"r1b1 p1-p5 first, r1b2 p2-p6 draw, r1b3 p3-p7 second, r1b4 p4-p8 second-forfeit",
				"r2b1 p4-p1 second, r2b2 p7-p2 first, r2b3 p6-p3 second, r2b4 p5-p8 second-forfeit",
				"r3b1 p1-p7 draw, r3b2 p3-p4 first, r3b3 p5-p2 second, r3b4 p6- bye",
			},
			want: []Standing{
				{Rank: 1, Player: "p7", Points: 2.5, Games: 3, Wins: 2, Draws: 1, TieBreak: 6, Seed: 7},
				{Rank: 2, Player: "p1", Points: 2.5, Games: 3, Wins: 2, Draws: 1, TieBreak: 4.5, Seed: 1},
				{Rank: 3, Player: "p3", Points: 2, Games: 3, Wins: 2, Losses: 1, TieBreak: 5, Seed: 3},
				{Rank: 4, Player: "p2", Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, TieBreak: 5, Seed: 2},
				{Rank: 4, Player: "p6", Points: 1.5, Games: 3, Wins: 1, Draws: 1, Losses: 1, TieBreak: 5, Seed: 6},
				{Rank: 6, Player: "p4", Points: 1, Games: 3, Wins: 1, Losses: 2, TieBreak: 5.5, Seed: 4},
				{Rank: 7, Player: "p5", Points: 1, Games: 3, Wins: 1, Losses: 2, TieBreak: 5, Seed: 5},
				{Rank: 8, Player: "p8", Points: 0, Games: 2, Losses: 2, TieBreak: 0, Seed: 8, Left: true},
			},
		},
		{
			// Knockout of 6 in a bracket of 8. Seeds by rating: b 1800 (1),
			// f 1700 (2), c 1600 (3, joined before d), d 1600 (4),
			// a 1500 (5), e 1200 (6). Bracket order 1 8 4 5 2 7 3 6: b and
			// f have byes; a (lower seed, moves first) draws d, so d goes
			// through; e beats c. R2: d beats b, f beats e. Final d–f drawn:
			// f moved second and wins the tournament. Reached: f 4 (won),
			// d 3, b and e 2 (share 3rd), a and c 1 (share 5th, a listed
			// first on its half point).
			name: "knockout of 6 with byes", format: Knockout, players: []string{"a", "b", "c", "d", "e", "f"},
			ratings: map[string]float64{"a": 1500, "b": 1800, "c": 1600, "d": 1600, "e": 1200, "f": 1700},
			steps: []step{
				{key: "r1b2", o: Draw}, {key: "r1b4", o: FirstWon},
				{key: "r2b1", o: FirstWon}, {key: "r2b2", o: SecondWon},
				{key: "r3b1", o: Draw},
			},
			rounds: []string{
				"r1b1 b- bye, r1b2 a-d draw, r1b3 f- bye, r1b4 e-c first",
				"r2b1 d-b first, r2b2 e-f second",
				"r3b1 d-f draw",
			},
			want: []Standing{
				{Rank: 1, Player: "f", Points: 2.5, Games: 3, Wins: 2, Draws: 1, Reached: 4, Seed: 2},
				{Rank: 2, Player: "d", Points: 2, Games: 3, Wins: 1, Draws: 2, Reached: 3, Seed: 4},
				{Rank: 3, Player: "b", Points: 1, Games: 2, Wins: 1, Losses: 1, Reached: 2, Seed: 1},
				{Rank: 3, Player: "e", Points: 1, Games: 2, Wins: 1, Losses: 1, Reached: 2, Seed: 6},
				{Rank: 5, Player: "a", Points: 0.5, Games: 1, Draws: 1, Reached: 1, Seed: 5},
				{Rank: 5, Player: "c", Points: 0, Games: 1, Losses: 1, Reached: 1, Seed: 3},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, _ := started(t, c.format, 0, c.players, c.ratings)
			for i, s := range c.steps {
				if tr.Finished {
					t.Fatalf("finished before step %d", i)
				}
				if s.leave != "" {
					if _, _, _, err := tr.Leave(s.leave); err != nil {
						t.Fatalf("Leave(%s): %v", s.leave, err)
					}
				} else {
					mustRecord(t, tr, s.key, s.o)
				}
				tr = roundTrip(t, tr)
			}
			if !tr.Finished {
				t.Errorf("not finished; waiting for %v", pairings(tr.Waiting()))
			}
			var rounds []string
			for _, r := range tr.Bracket() {
				rounds = append(rounds, strings.Join(pairings(r), ", "))
			}
			if !slices.Equal(rounds, c.rounds) {
				t.Errorf("rounds:\n got %q\nwant %q", rounds, c.rounds)
			}
			if got := tr.Standings(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("standings:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}
