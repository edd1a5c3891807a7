package tournament

import (
	"cmp"
	"slices"
)

// Standing is one player's line in the standings.
type Standing struct {
	// Rank is the place, shared by players equal on everything ranked (so
	// 1, 2, 2, 4).
	Rank   int    `json:"rank"`
	Player string `json:"player"`
	// Points: a win (a bye and a forfeit win included) 1, a draw ½.
	Points float64 `json:"points"`
	// Games counts the player's decided games, byes and forfeits included,
	// so Games = Wins + Draws + Losses.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// TieBreak is Sonneborn-Berger in a round-robin and Buchholz in a
	// swiss (see Standings); 0 in a knockout.
	TieBreak float64 `json:"tie_break"`
	// Reached is, in a knockout, the round the player went out in or is
	// playing, Rounds+1 for the winner; 0 in other formats.
	Reached int  `json:"reached,omitempty"`
	Seed    int  `json:"seed,omitempty"`
	Left    bool `json:"left,omitempty"`
}

// Standings ranks the players on the games decided so far.
//
// Round-robin and swiss rank by points, then the tie-break; knockout by
// the round reached. Players equal on those share a rank and are listed
// by points, then seed (join order before the start).
//
// Sonneborn-Berger (round-robin) is the sum of the points of the opponents
// a player beat and half the points of those they drew with; only games
// played over the board count, so a bye or a forfeit adds nothing.
//
// Buchholz (swiss) is the sum of the points of the player's opponents. A
// game not played over the board (a bye, or a forfeit either way) counts
// as a game against an opponent with the player's own points, so an
// unplayed game neither lifts nor sinks the tie-break; it is the FIDE
// "virtual opponent" idea in its simplest form.
func (t *Tournament) Standings() []Standing {
	half := map[string]int{}
	for _, p := range t.Players {
		half[p.ID] = t.halfPoints(p.ID)
	}
	out := make([]Standing, 0, len(t.Players))
	for _, p := range t.Players {
		s := Standing{Player: p.ID, Points: float64(half[p.ID]) / 2, Seed: p.Seed, Left: p.Left}
		tie := 0 // in quarter points
		for _, g := range t.Games {
			if !g.Has(p.ID) || g.Outcome == Pending {
				continue
			}
			s.Games++
			mine, theirs := g.Outcome.halfPoints()
			if g.Second == p.ID {
				mine, theirs = theirs, mine
			}
			switch {
			case mine > theirs:
				s.Wins++
			case mine == theirs && mine > 0:
				s.Draws++
			default:
				s.Losses++
			}
			opp := g.Opponent(p.ID)
			switch t.Format {
			case RoundRobin:
				if g.Outcome.OverTheBoard() {
					tie += mine * half[opp]
				}
			case Swiss:
				if g.Outcome.OverTheBoard() {
					tie += 2 * half[opp]
				} else {
					tie += 2 * half[p.ID]
				}
			}
		}
		s.TieBreak = float64(tie) / 4
		if t.Format == Knockout {
			s.Reached = t.reached(p.ID)
		}
		out = append(out, s)
	}
	order := func(a, b Standing) int {
		if t.Format == Knockout {
			return cmp.Compare(b.Reached, a.Reached)
		}
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		return cmp.Compare(b.TieBreak, a.TieBreak)
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := order(a, b); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c // a knockout's shared rank lists the better score first
		}
		return cmp.Compare(a.Seed, b.Seed) // before the start all 0: join order stays
	})
	for i := range out {
		if i > 0 && order(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out
}

// halfPoints is id's score so far in half points.
func (t *Tournament) halfPoints(id string) int {
	total := 0
	for _, g := range t.Games {
		first, second := g.Outcome.halfPoints()
		switch id {
		case g.First:
			total += first
		case g.Second:
			total += second
		}
	}
	return total
}

// reached is the knockout round id went out in or is playing: the last
// round they have a game in, one more when they went through from it (so
// Rounds+1 for the winner of the final).
func (t *Tournament) reached(id string) int {
	last := 0
	for _, g := range t.Games {
		if !g.Has(id) {
			continue
		}
		last = g.Round
		if g.Outcome != Pending && g.Advances() == id {
			last++
		}
	}
	return last
}
