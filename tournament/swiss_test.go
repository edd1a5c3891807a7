package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// playOut records a result for every pending game, drawn from rng (with
// forfeits now and then), and players leaving now and then when leave is
// set, until the tournament finishes.
func playOut(t *testing.T, tr *Tournament, rng *rand.Rand, leave bool) {
	t.Helper()
	outcomes := []Outcome{FirstWon, FirstWon, SecondWon, SecondWon, Draw, FirstForfeit, SecondForfeit}
	for steps := 0; !tr.Finished; steps++ {
		if steps > 10_000 {
			t.Fatal("the tournament does not finish")
		}
		waiting := tr.Waiting()
		if len(waiting) == 0 {
			t.Fatalf("round %d of %d waits for nothing but is not finished", tr.Round, tr.Rounds)
		}
		if leave && rng.IntN(10) == 0 {
			g := waiting[rng.IntN(len(waiting))]
			if _, _, _, err := tr.Leave(g.First); err != nil {
				t.Fatal(err)
			}
			continue
		}
		g := waiting[rng.IntN(len(waiting))]
		mustRecord(t, tr, g.Key(), outcomes[rng.IntN(len(outcomes))])
	}
}

// TestSwissNeverRepeats plays swiss tournaments of 3–24 players with random
// results, at the automatic number of rounds and at the most the players
// allow, and checks: no pairing repeats, nobody has two byes, a leaver is
// not paired after leaving, the byes go to players without one, and each
// round pairs every player still in.
func TestSwissNeverRepeats(t *testing.T) {
	for n := 3; n <= 24; n++ {
		for _, rounds := range []int{0, n} {
			for _, leave := range []bool{false, true} {
				name := fmt.Sprintf("%d players, %d rounds, leaving %v", n, rounds, leave)
				t.Run(name, func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(n), uint64(rounds)))
					tr, _ := started(t, Swiss, rounds, ids(n), nil)
					playOut(t, tr, rng, leave)
					checkSwiss(t, tr)
					if !leave && rounds == 0 && tr.Round != ceilLog2(n) {
						t.Errorf("played %d rounds, want ⌈log2 %d⌉ = %d", tr.Round, n, ceilLog2(n))
					}
				})
			}
		}
	}
}

func checkSwiss(t *testing.T, tr *Tournament) {
	t.Helper()
	met := map[[2]string]bool{}
	byes := map[string]int{}
	left := map[string]int{}
	for _, p := range tr.Players {
		if p.Left {
			left[p.ID] = p.LeftRound
		}
	}
	perRound := map[int]map[string]bool{}
	for _, g := range tr.Games {
		if perRound[g.Round] == nil {
			perRound[g.Round] = map[string]bool{}
		}
		for _, id := range []string{g.First, g.Second} {
			if id == "" {
				continue
			}
			if perRound[g.Round][id] {
				t.Errorf("%s plays twice in round %d", id, g.Round)
			}
			perRound[g.Round][id] = true
			if r, ok := left[id]; ok && g.Round > r {
				t.Errorf("%s left in round %d but is paired in round %d", id, r, g.Round)
			}
		}
		if g.Second == "" {
			byes[g.First]++
			if byes[g.First] > 1 {
				t.Errorf("%s has a second bye in round %d", g.First, g.Round)
			}
			continue
		}
		a, b := min(g.First, g.Second), max(g.First, g.Second)
		if met[[2]string{a, b}] {
			t.Errorf("%s and %s meet again in round %d", a, b, g.Round)
		}
		met[[2]string{a, b}] = true
	}
	for r := 1; r <= tr.Round; r++ {
		for _, p := range tr.Players {
			in := !p.Left || p.LeftRound >= r
			if in && !perRound[r][p.ID] {
				t.Errorf("%s is still in but not paired in round %d", p.ID, r)
			}
		}
	}
}

// TestSwissColours plays swiss tournaments of 3–40 players with results
// over the board (no forfeits, nobody leaving) and checks the colour
// rules: nobody moves first two games more than second or the other way
// round, and nobody moves on the same side three games running.
func TestSwissColours(t *testing.T) {
	outcomes := []Outcome{FirstWon, SecondWon, Draw}
	for n := 3; n <= 40; n++ {
		for _, rounds := range []int{0, n / 2} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(rounds)+100))
			tr, _ := started(t, Swiss, rounds, ids(n), nil)
			for !tr.Finished {
				w := tr.Waiting()
				mustRecord(t, tr, w[rng.IntN(len(w))].Key(), outcomes[rng.IntN(len(outcomes))])
			}
			for _, p := range tr.Players {
				run, last, balance := 0, 0, 0
				for _, g := range tr.Games {
					side := 0
					switch {
					case g.Second == "":
					case g.First == p.ID:
						side = 1
					case g.Second == p.ID:
						side = -1
					}
					if side == 0 {
						continue
					}
					balance += side
					if side == last {
						run++
					} else {
						run, last = 1, side
					}
					if run == 3 || abs(balance) > 2 {
						t.Errorf("%d players, %d rounds: %s moved %+d first, %d on one side running, by round %d",
							n, tr.Rounds, p.ID, balance, run, g.Round)
					}
				}
			}
		}
	}
}
