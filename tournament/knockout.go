package tournament

// Knockout. The bracket has room for P players, the power of two at or
// above n; seeds n+1 … P are empty, so the top P−n seeds have a bye in
// round 1. Seeds are placed in the usual order (1 v P, then the halves
// mirrored: for P = 8, 1 v 8, 4 v 5, 2 v 7, 3 v 6), so seeds 1 and 2 can
// meet only in the final. Each game's winner meets the winner of the
// neighbouring game in the next round.
//
// Every match is one game. The lower seed (the larger seed number) moves
// first, and a draw sends the player who moved second, the higher seed,
// through: the first move is the advantage in k-in-a-row games, and draw
// odds make up for it, as in chess's Armageddon game. A draw still scores
// half a point each in the standings. A match whose both players have left
// sends nobody on; their neighbour then has a bye.

// bracketOrder is the seeds of a bracket of size p (a power of two) in
// bracket order: consecutive entries meet in round 1.
func bracketOrder(p int) []int {
	order := []int{1}
	for len(order) < p {
		size := 2 * len(order)
		next := make([]int, 0, size)
		for _, s := range order {
			next = append(next, s, size+1-s)
		}
		order = next
	}
	return order
}

// Advances is who goes through from a knockout game: its winner, or for a
// draw the player who moved second; "" while it is pending or when both
// forfeited.
func (g Game) Advances() string {
	if g.Outcome == Draw {
		return g.Second
	}
	return g.Winner()
}

// pairKnockout is round's games: round 1 from the seeds, later rounds from
// the winners of the round before.
func (t *Tournament) pairKnockout(round int) []Game {
	var slots []string
	if round == 1 {
		seeds := t.bySeed()
		for _, s := range bracketOrder(1 << t.Rounds) {
			if s <= len(seeds) {
				slots = append(slots, seeds[s-1])
			} else {
				slots = append(slots, "")
			}
		}
	} else {
		for _, g := range t.Bracket()[round-2] {
			slots = append(slots, g.Advances())
		}
	}
	games := make([]Game, 0, len(slots)/2)
	for b := 0; b < len(slots)/2; b++ {
		x, y := slots[2*b], slots[2*b+1]
		switch {
		case x == "":
			x, y = y, x
		case y != "" && t.player(x).Seed < t.player(y).Seed:
			x, y = y, x // the lower seed moves first
		}
		games = append(games, t.newGame(round, b+1, x, y))
	}
	return games
}

// Sides is a knockout game's players as a bracket draws them: top is the
// one from the upper branch (in round 1 the better seed; later the one who
// came through board 2b−1 of the round before), bottom the other. An
// empty side (a bye's) is "".
func (t *Tournament) Sides(g Game) (top, bottom string) {
	upper := ""
	if g.Round == 1 {
		if g.Second != "" && t.player(g.Second).Seed < t.player(g.First).Seed {
			upper = g.Second
		} else {
			upper = g.First
		}
	} else if feeder, ok := t.Game(Game{Round: g.Round - 1, Board: 2*g.Board - 1}.Key()); ok {
		upper = feeder.Advances()
	}
	switch {
	case upper != "" && upper == g.Second:
		return g.Second, g.First
	case upper != "" && upper == g.First:
		return g.First, g.Second
	case g.Second == "": // a bye whose upper branch sent nobody
		return "", g.First
	}
	return g.First, g.Second
}
