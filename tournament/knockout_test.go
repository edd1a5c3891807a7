package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBracketOrder(t *testing.T) {
	for p, want := range map[int][]int{
		1:  {1},
		2:  {1, 2},
		4:  {1, 4, 2, 3},
		8:  {1, 8, 4, 5, 2, 7, 3, 6},
		16: {1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11},
	} {
		if got := bracketOrder(p); !slices.Equal(got, want) {
			t.Errorf("bracketOrder(%d) = %v, want %v", p, got, want)
		}
	}
}

// TestKnockoutShape plays knockouts of 3–64 players with random results
// (forfeits and leavers included) and checks: ⌈log2 n⌉ rounds, the byes of
// round 1 go to the top seeds and to nobody else, the lower seed moves
// first, every round halves, each game's players are the ones who went
// through from the two games feeding it, and at most one player wins.
func TestKnockoutShape(t *testing.T) {
	for n := 3; n <= 64; n++ {
		for _, leave := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d leaving %v", n, leave), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 5))
				ratings := map[string]float64{}
				for i, id := range ids(n) {
					ratings[id] = float64(rng.IntN(n)) + float64(i%3)/4
				}
				tr, _ := started(t, Knockout, 0, ids(n), ratings)
				playOut(t, tr, rng, leave)
				if tr.Rounds != ceilLog2(n) {
					t.Fatalf("%d rounds, want %d", tr.Rounds, ceilLog2(n))
				}
				seed := map[string]int{}
				for _, p := range tr.Players {
					seed[p.ID] = p.Seed
				}
				bracket := tr.Bracket()
				if len(bracket) != tr.Rounds {
					t.Fatalf("%d rounds played of %d", len(bracket), tr.Rounds)
				}
				byes := 1<<tr.Rounds - n
				for _, g := range bracket[0] {
					if g.Second == "" && seed[g.First] > byes {
						t.Errorf("seed %d has a bye; only the top %d should", seed[g.First], byes)
					}
					if g.Second != "" && seed[g.First] <= byes {
						t.Errorf("seed %d plays in round 1 but should have a bye", seed[g.First])
					}
				}
				for r, games := range bracket {
					if len(games) != 1<<(tr.Rounds-r-1) {
						t.Fatalf("round %d has %d games", r+1, len(games))
					}
					for b, g := range games {
						if g.Second != "" && seed[g.First] < seed[g.Second] {
							t.Errorf("%s: seed %d moves first against seed %d", g.Key(), seed[g.First], seed[g.Second])
						}
						if r == 0 {
							continue
						}
						from := []string{bracket[r-1][2*b].Advances(), bracket[r-1][2*b+1].Advances()}
						for _, id := range []string{g.First, g.Second} {
							if id != "" && !slices.Contains(from, id) {
								t.Errorf("%s: %s did not come through from the games before", g.Key(), id)
							}
						}
					}
				}
				champions := 0
				for _, s := range tr.Standings() {
					if s.Reached == tr.Rounds+1 {
						champions++
					}
				}
				if champions > 1 || (!leave && champions != 1) {
					t.Errorf("%d winners", champions)
				}
			})
		}
	}
}

// TestKnockoutLeaver: a player who won a game and leaves before their
// next is paired forfeits it when it is paired; a match both of whose
// players left sends nobody on, and its neighbour gets a bye.
func TestKnockoutLeaver(t *testing.T) {
	tr, games := started(t, Knockout, 0, ids(8), nil)
	want := []string{"r1b1 p8-p1 pending", "r1b2 p5-p4 pending", "r1b3 p7-p2 pending", "r1b4 p6-p3 pending"}
	if got := pairings(games); !slices.Equal(got, want) {
		t.Fatalf("round 1: %q, want %q", got, want)
	}
	mustRecord(t, tr, "r1b1", SecondWon) // p1 through
	if _, _, _, err := tr.Leave("p1"); err != nil {
		t.Fatal(err)
	}
	mustRecord(t, tr, "r1b2", FirstWon) // p5 through
	mustRecord(t, tr, "r1b3", Draw)     // p2 through: it moved second
	forfeited, _, _, err := tr.Leave("p3")
	if err != nil || !slices.Equal(pairings(forfeited), []string{"r1b4 p6-p3 second-forfeit"}) {
		t.Fatalf("p3 leaving: %v, %q", err, pairings(forfeited))
	}
	if _, _, _, err := tr.Leave("p6"); err != nil { // p6 won by forfeit, now leaves too
		t.Fatal(err)
	}
	// Round 2 was paired when p3's forfeit ended round 1: p1 (left) v p5,
	// and p6 (left then) v p2.
	want = []string{"r2b1 p5-p1 second-forfeit", "r2b2 p6-p2 first-forfeit"}
	if got := pairings(tr.Bracket()[1]); !slices.Equal(got, want) {
		t.Fatalf("round 2: %q, want %q", got, want)
	}
	want = []string{"r3b1 p5-p2 pending"}
	if got := pairings(tr.Waiting()); !slices.Equal(got, want) {
		t.Fatalf("final: %q, want %q", got, want)
	}
}

// TestKnockoutBothLeft: when both players of a match have left by the time
// it is paired, nobody goes through and the neighbouring match's winner
// has a bye in the next round.
func TestKnockoutBothLeft(t *testing.T) {
	tr, _ := started(t, Knockout, 0, ids(8), nil)
	mustRecord(t, tr, "r1b1", SecondWon) // p1 through
	mustRecord(t, tr, "r1b2", FirstWon)  // p5 through
	for _, id := range []string{"p1", "p5"} {
		if _, _, _, err := tr.Leave(id); err != nil {
			t.Fatal(err)
		}
	}
	mustRecord(t, tr, "r1b3", SecondWon) // p2
	next := mustRecord(t, tr, "r1b4", SecondWon)
	want := []string{"r2b1 p5-p1 double-forfeit", "r2b2 p3-p2 pending"}
	if got := pairings(next); !slices.Equal(got, want) {
		t.Fatalf("round 2: %q, want %q", got, want)
	}
	next, finished, err := tr.Record("r2b2", FirstWon)
	if err != nil || !finished {
		t.Fatalf("the final should be a bye that ends it: %v, finished %v", err, finished)
	}
	if want := []string{"r3b1 p3- bye"}; !slices.Equal(pairings(next), want) {
		t.Fatalf("final: %q, want %q", pairings(next), want)
	}
	if s := tr.Standings(); s[0].Player != "p3" || s[0].Reached != 4 {
		t.Errorf("winner %+v, want p3 through the final", s[0])
	}
}

// TestSides draws the knockout of 6 of TestWholeTournaments as a bracket:
// the better seed on top in round 1, later the player from the upper
// branch, and an empty upper branch leaves the top empty.
func TestSides(t *testing.T) {
	tr, _ := started(t, Knockout, 0, []string{"a", "b", "c", "d", "e", "f"},
		map[string]float64{"a": 1500, "b": 1800, "c": 1600, "d": 1600, "e": 1200, "f": 1700})
	for _, s := range []step{{key: "r1b2", o: Draw}, {key: "r1b4", o: FirstWon}, {key: "r2b1", o: FirstWon}, {key: "r2b2", o: SecondWon}, {key: "r3b1", o: Draw}} {
		mustRecord(t, tr, s.key, s.o)
	}
	var got []string
	for _, round := range tr.Bracket() {
		for _, g := range round {
			top, bottom := tr.Sides(g)
			got = append(got, g.Key()+" "+top+"/"+bottom)
		}
	}
	want := []string{"r1b1 b/", "r1b2 d/a", "r1b3 f/", "r1b4 c/e", "r2b1 b/d", "r2b2 f/e", "r3b1 d/f"}
	if !slices.Equal(got, want) {
		t.Errorf("sides:\n got %q\nwant %q", got, want)
	}

	// p1 and p5 both leave: the semi-final's upper branch sends nobody.
	tr, _ = started(t, Knockout, 0, ids(8), nil)
	mustRecord(t, tr, "r1b1", SecondWon)
	mustRecord(t, tr, "r1b2", FirstWon)
	tr.Leave("p1")
	tr.Leave("p5")
	mustRecord(t, tr, "r1b3", SecondWon)
	mustRecord(t, tr, "r1b4", SecondWon)
	mustRecord(t, tr, "r2b2", FirstWon)
	final, _ := tr.Game("r3b1")
	if top, bottom := tr.Sides(final); top != "" || bottom != "p3" {
		t.Errorf("the final's sides are %q/%q, want an empty top and p3", top, bottom)
	}
}
