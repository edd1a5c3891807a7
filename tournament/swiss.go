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
//     score, and within the score group the one half the group further
//     down (1 v 5, 2 v 6 … in a group of eight); a player whose group has
//     nobody left floats down to the nearest score. When a choice leaves
//     the rest unpairable, the search backtracks and tries the next.
//  4. In each pair the one who has moved first less often (in games
//     played over the board) moves first;
//     when even, the one who moved second last time; when still even, the
//     higher-ranked in odd rounds and the lower-ranked in even ones.
//
// When no pairing without repeats exists (possible late in a long swiss,
// or after many players left), the tournament ends after the last round
// played.

// searchBudget bounds the backtracking's steps for one pairing, so a round
// that cannot be paired is given up in bounded time rather than after an
// exponential search. Rounds at ⌈log2 n⌉ never come near it.
const searchBudget = 200_000

// pairSwiss is round's games, or nil when nobody can be paired.
func (t *Tournament) pairSwiss(round int) []Game {
	ranked := t.swissRanking()
	if len(ranked) < 2 {
		return nil
	}
	points := map[string]int{}
	for _, id := range ranked {
		points[id] = t.halfPoints(id)
	}
	met := map[[2]string]bool{}
	hadBye := map[string]bool{}
	for _, g := range t.Games {
		if g.Second == "" {
			hadBye[g.First] = true
			continue
		}
		met[[2]string{g.First, g.Second}] = true
		met[[2]string{g.Second, g.First}] = true
	}
	s := &swissSearch{points: points, met: met, budget: searchBudget}

	bye := ""
	var pairs [][2]string
	if len(ranked)%2 == 0 {
		var ok bool
		if pairs, ok = s.pair(ranked); !ok {
			return nil
		}
	} else {
		found := false
		for i := len(ranked) - 1; i >= 0 && !found; i-- {
			if hadBye[ranked[i]] {
				continue
			}
			rest := slices.Delete(slices.Clone(ranked), i, i+1)
			if p, ok := s.pair(rest); ok {
				bye, pairs, found = ranked[i], p, true
			}
		}
		if !found {
			return nil
		}
	}
	games := make([]Game, 0, len(pairs)+1)
	for _, p := range pairs {
		first, second := t.swissColours(round, p[0], p[1])
		games = append(games, t.newGame(round, len(games)+1, first, second))
	}
	if bye != "" {
		games = append(games, t.newGame(round, len(games)+1, bye, ""))
	}
	return games
}

// swissRanking is the players still in, by points and then seed.
func (t *Tournament) swissRanking() []string {
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
	return ids
}

// swissSearch finds a pairing by backtracking.
type swissSearch struct {
	points map[string]int
	met    map[[2]string]bool
	budget int
}

// pair pairs ranked (in ranking order, even in number) with no repeat,
// returning the pairs highest-ranked first, each higher-ranked first.
func (s *swissSearch) pair(ranked []string) ([][2]string, bool) {
	if len(ranked) == 0 {
		return nil, true
	}
	s.budget--
	if s.budget < 0 {
		return nil, false
	}
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
		if !s.met[[2]string{top, ranked[i]}] {
			candidates = append(candidates, i)
		}
	}
	slices.SortStableFunc(candidates, func(a, b int) int {
		da := abs(s.points[top] - s.points[ranked[a]])
		db := abs(s.points[top] - s.points[ranked[b]])
		if c := cmp.Compare(da, db); c != 0 {
			return c
		}
		return cmp.Compare(abs(a-ideal), abs(b-ideal))
	})
	for _, i := range candidates {
		rest := make([]string, 0, len(ranked)-2)
		rest = append(rest, ranked[1:i]...)
		rest = append(rest, ranked[i+1:]...)
		if more, ok := s.pair(rest); ok {
			return append([][2]string{{top, ranked[i]}}, more...), true
		}
		if s.budget < 0 {
			return nil, false
		}
	}
	return nil, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// swissColours orders a pair (higher-ranked first) into who moves first.
func (t *Tournament) swissColours(round int, high, low string) (first, second string) {
	bh, lh := t.colourHistory(high)
	bl, ll := t.colourHistory(low)
	switch {
	case bh < bl:
		return high, low
	case bl < bh:
		return low, high
	case lh < 0 && ll >= 0:
		return high, low
	case ll < 0 && lh >= 0:
		return low, high
	case round%2 == 1:
		return high, low
	}
	return low, high
}

// colourHistory is id's balance of first moves over the games they played
// over the board (first moves minus second moves), and the side of their
// last such game: 1 first, −1 second, 0 none. Byes and forfeits were not
// played, so they do not count.
func (t *Tournament) colourHistory(id string) (balance, last int) {
	for _, g := range t.Games {
		if !g.Outcome.OverTheBoard() {
			continue
		}
		switch id {
		case g.First:
			balance++
			last = 1
		case g.Second:
			balance--
			last = -1
		}
	}
	return balance, last
}
