package tournament

import (
	"cmp"
	"slices"
)

// Swiss pairing, a simplified Dutch system:
//
//  1. The players still in (not left) are ranked by points, then seed.
//  2. With an odd number of them, the lowest-ranked player who has not had
//     a bye gets it (moving up the ranking when the rest cannot be paired).
//  3. The rest are paired from the top: the highest-ranked unpaired player
//     meets, among those not met before, preferably someone of the same
//     score; then someone who does not want the same side (see colours);
//     then, within the score group, the one half the group further down
//     (1 v 5, 2 v 6 … in a group of eight). A player whose group has
//     nobody left floats down to the nearest score. A choice that would
//     leave the rest unpairable is passed over (Edmonds' blossom algorithm
//     tells), so the pairing is found without backtracking.
//  4. Two players who must both move first, or both second (see colours),
//     do not meet, unless no pairing is possible without such a meeting.
//
// When no pairing without repeats exists (possible late in a swiss of
// nearly as many rounds as players, or after many players left), the
// tournament ends after the last round played.
//
// Colours (who moves first) count only games played over the board. A
// player must move first when they have moved second twice more often than
// first, or second in each of their last two games (and the other way
// round); otherwise they would rather move first when they have moved
// first less often, or, when even, moved second last time. In a pair, the
// stronger wish wins (a must over a would-rather-by-count over a
// would-rather-by-turn), then the higher-ranked player's; when neither
// minds, the higher-ranked moves first in odd rounds, second in even ones.

// pairSwiss is round's games, or nil when nobody can be paired.
func (t *Tournament) pairSwiss(round int) []Game {
	ranked, points := t.swissRanking()
	if len(ranked) < 2 {
		return nil
	}
	s := &swissSearch{points: points, met: map[[2]string]bool{}, needs: map[string]colourNeed{}}
	for _, id := range ranked {
		s.needs[id] = t.colourNeed(id)
	}
	hadBye := map[string]bool{}
	for _, g := range t.Games {
		if g.Second == "" {
			hadBye[g.First] = true
			continue
		}
		s.met[[2]string{g.First, g.Second}] = true
		s.met[[2]string{g.Second, g.First}] = true
	}

	// The bye candidates, lowest-ranked first; "" when nobody needs one.
	byes := []string{""}
	if len(ranked)%2 == 1 {
		byes = nil
		for i := len(ranked) - 1; i >= 0; i-- {
			if !hadBye[ranked[i]] {
				byes = append(byes, ranked[i])
			}
		}
	}
	for _, strict := range []bool{true, false} {
		s.strict = strict
		for _, bye := range byes {
			rest := slices.DeleteFunc(slices.Clone(ranked), func(id string) bool { return id == bye })
			pairs, ok := s.pair(rest)
			if !ok {
				continue
			}
			games := make([]Game, 0, len(pairs)+1)
			for _, p := range pairs {
				first, second := s.colours(round, p[0], p[1])
				games = append(games, t.newGame(round, len(games)+1, first, second))
			}
			if bye != "" {
				games = append(games, t.newGame(round, len(games)+1, bye, ""))
			}
			return games
		}
	}
	return nil
}

// swissRanking is the players still in, by points and then seed, and
// their points (in half points) it ranked them by.
func (t *Tournament) swissRanking() ([]string, map[string]int) {
	var ids []string
	seed := map[string]int{}
	points := map[string]int{}
	for _, p := range t.Players {
		if !p.Left {
			ids = append(ids, p.ID)
			seed[p.ID] = p.Seed
			points[p.ID] = t.halfPoints(p.ID)
		}
	}
	slices.SortFunc(ids, func(a, b string) int {
		if c := cmp.Compare(points[b], points[a]); c != 0 {
			return c
		}
		return cmp.Compare(seed[a], seed[b])
	})
	return ids, points
}

// swissSearch finds a pairing.
type swissSearch struct {
	points map[string]int
	met    map[[2]string]bool
	needs  map[string]colourNeed
	// strict keeps apart two players who must move on the same side.
	strict bool
}

// mayMeet reports whether a and b may be paired.
func (s *swissSearch) mayMeet(a, b string) bool {
	if s.met[[2]string{a, b}] {
		return false
	}
	na, nb := s.needs[a], s.needs[b]
	return !s.strict || na.strength < mustMove || nb.strength < mustMove || na.side != nb.side
}

// clash is 1 when a and b both want the same side, 0 otherwise.
func (s *swissSearch) clash(a, b string) int {
	if na, nb := s.needs[a], s.needs[b]; na.side != 0 && na.side == nb.side {
		return 1
	}
	return 0
}

// pairable reports whether ids can all be paired.
func (s *swissSearch) pairable(ids []string) bool {
	return perfectMatching(len(ids), func(a, b int) bool { return s.mayMeet(ids[a], ids[b]) })
}

// pair pairs ranked (in ranking order, even in number), returning the
// pairs highest-ranked first, each higher-ranked first. It is the first
// pairing in the order of preference that a backtracking search would
// find, but each choice is checked with perfectMatching, so no choice is
// ever undone and the work stays polynomial whatever the rounds already
// played.
func (s *swissSearch) pair(ranked []string) ([][2]string, bool) {
	if !s.pairable(ranked) {
		return nil, false
	}
	var pairs [][2]string
	for len(ranked) > 0 {
		top := ranked[0]
		group := 0
		for _, id := range ranked {
			if s.points[id] == s.points[top] {
				group++
			}
		}
		ideal := group / 2
		candidates := make([]int, 0, len(ranked)-1)
		for i := 1; i < len(ranked); i++ {
			if s.mayMeet(top, ranked[i]) {
				candidates = append(candidates, i)
			}
		}
		slices.SortStableFunc(candidates, func(a, b int) int {
			da := abs(s.points[top] - s.points[ranked[a]])
			db := abs(s.points[top] - s.points[ranked[b]])
			if c := cmp.Compare(da, db); c != 0 {
				return c
			}
			if c := cmp.Compare(s.clash(top, ranked[a]), s.clash(top, ranked[b])); c != 0 {
				return c
			}
			return cmp.Compare(abs(a-ideal), abs(b-ideal))
		})
		var rest []string
		for _, i := range candidates {
			rest = make([]string, 0, len(ranked)-2)
			rest = append(rest, ranked[1:i]...)
			rest = append(rest, ranked[i+1:]...)
			if s.pairable(rest) {
				pairs = append(pairs, [2]string{top, ranked[i]})
				break
			}
		}
		ranked = rest // some candidate leaves the rest pairable, as ranked was
	}
	return pairs, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colourNeed is the side a player should move on next: side 1 first, −1
// second, 0 either; strength says how much it matters.
type colourNeed struct {
	side, strength int
	balance        int // first moves minus second moves
}

// The strengths of a colour need, weakest first.
const (
	noNeed   = iota
	byTurn   // alternate with the last game
	byCount  // even out first and second moves
	mustMove // two more one way, or the same side twice running
)

// colourNeed is id's need, from the games they played over the board.
func (t *Tournament) colourNeed(id string) colourNeed {
	var sides []int
	for _, g := range t.Games {
		if !g.Outcome.OverTheBoard() {
			continue
		}
		switch id {
		case g.First:
			sides = append(sides, 1)
		case g.Second:
			sides = append(sides, -1)
		}
	}
	n := colourNeed{}
	for _, s := range sides {
		n.balance += s
	}
	k := len(sides)
	switch {
	case abs(n.balance) >= 2:
		n.side, n.strength = -sign(n.balance), mustMove
	case k >= 2 && sides[k-1] == sides[k-2]:
		n.side, n.strength = -sides[k-1], mustMove
	case n.balance != 0:
		n.side, n.strength = -sign(n.balance), byCount
	case k > 0:
		n.side, n.strength = -sides[k-1], byTurn
	}
	return n
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// colours orders a pair (higher-ranked first) into who moves first.
func (s *swissSearch) colours(round int, high, low string) (first, second string) {
	nh, nl := s.needs[high], s.needs[low]
	switch {
	case nh.side != nl.side && nh.side != 0:
		return orient(nh.side, high, low)
	case nh.side != nl.side:
		return orient(-nl.side, high, low)
	case nh.side != 0 && nh.strength != nl.strength: // the same side: the stronger need has it
		if nh.strength > nl.strength {
			return orient(nh.side, high, low)
		}
		return orient(-nl.side, high, low)
	case nh.side != 0 && abs(nh.balance) != abs(nl.balance):
		if abs(nh.balance) > abs(nl.balance) {
			return orient(nh.side, high, low)
		}
		return orient(-nl.side, high, low)
	case nh.side != 0:
		return orient(nh.side, high, low) // the higher-ranked has their way
	case round%2 == 1:
		return high, low
	}
	return low, high
}

// orient is (high, low) when high moves on side, else (low, high).
func orient(side int, high, low string) (first, second string) {
	if side >= 0 {
		return high, low
	}
	return low, high
}
