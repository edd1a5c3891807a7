package tournament

// Round-robin by the circle method. The m seats (the players in seed
// order, plus an empty seat when their number is odd, whose opponent has
// the bye) are m−1 on a circle and one fixed. In round r (from 0) the fixed
// seat meets seat r, and for k = 1 … m/2−1 seat r+k meets seat r−k (mod
// m−1). Over the m−1 rounds every pair meets exactly once.
//
// First moves: on the circle the seat r+k moves first when k is odd and
// second when k is even, so each circle seat moves first in exactly half of
// its m−2 circle games; against the fixed seat the circle seat moves first
// in even rounds. Each player therefore moves first in ⌊(n−1)/2⌋ or
// ⌈(n−1)/2⌉ of their n−1 games (exactly half when n is odd, where the
// fixed seat is the empty one).

// pairRoundRobin is round's games (round from 1): the fixed seat's game
// first, then the circle's pairs outward; a bye is the last board.
func (t *Tournament) pairRoundRobin(round int) []Game {
	seats := t.bySeed()
	if len(seats)%2 == 1 {
		seats = append(seats, "") // the bye seat, fixed
	}
	m := len(seats)
	r := round - 1
	fixed := seats[m-1]
	circle := func(i int) string { return seats[((i%(m-1))+(m-1))%(m-1)] }

	type pair struct{ first, second string }
	var pairs []pair
	if r%2 == 0 {
		pairs = append(pairs, pair{circle(r), fixed})
	} else {
		pairs = append(pairs, pair{fixed, circle(r)})
	}
	for k := 1; k < m/2; k++ {
		a, b := circle(r+k), circle(r-k)
		if k%2 == 0 {
			a, b = b, a
		}
		pairs = append(pairs, pair{a, b})
	}
	games := make([]Game, 0, len(pairs))
	var bye string
	for _, p := range pairs {
		switch {
		case p.first == "":
			bye = p.second
		case p.second == "":
			bye = p.first
		default:
			games = append(games, t.newGame(round, len(games)+1, p.first, p.second))
		}
	}
	if bye != "" {
		games = append(games, t.newGame(round, len(games)+1, bye, ""))
	}
	return games
}
