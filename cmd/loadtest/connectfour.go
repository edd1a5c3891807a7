package main

import (
	"math/rand/v2"

	"github.com/tttbot/tttbot/game"
)

// connectFour follows a channel's game so the load tool only sends moves
// the bot accepts, and knows when a game is over.
type connectFour struct {
	g       *game.Game
	turn    int
	planned int // the column of the move in flight
}

var connectFourRules = game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}

func newConnectFour() *connectFour {
	g, err := game.New(connectFourRules, game.Fast, []rune("XO"))
	if err != nil {
		panic(err) // fixed, valid rules
	}
	return &connectFour{g: g}
}

// pick is a random column that is not full.
func (c *connectFour) pick(rng *rand.Rand) int {
	for {
		col := rng.IntN(connectFourRules.Cols)
		if !c.g.ColumnFull(col) {
			return col
		}
	}
}

// play makes the move on col and reports whether the game is over.
func (c *connectFour) play(col int) bool {
	c.g.Play(c.g.Turn(), game.Coord{Col: col})
	c.turn = c.g.Turn()
	return c.g.Over()
}
