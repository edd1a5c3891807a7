package game_test

import (
	"fmt"

	"github.com/tttbot/tttbot/game"
)

func ExampleGame_Play() {
	g, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	for _, typed := range []string{"1,1", "0,0", "0,2", "2,0", "1,0", "1,2", "2,1", "0,1", "8"} {
		at, _ := game.ParsePosition(g.Rules(), typed)
		if _, err := g.Play(g.Turn(), at); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(g.State())
	// Output: drawn
}

func ExampleGame_Play_gravity() {
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	g, _ := game.New(r, game.Compact, []rune("XO"))
	for _, col := range []int{3, 3, 4, 4, 5, 5, 6} {
		g.Play(g.Turn(), game.Coord{Col: col})
	}
	fmt.Printf("%s: %c wins along %v\n", g.State(), g.Token(g.Winner()), g.WinningLine())
	// Output: won: X wins along [5,3 5,4 5,5 5,6]
}

func ExampleCheckBoard() {
	opt := game.CheckOptions{Win: 3, Tokens: []rune("XO")}
	for _, board := range []string{"XXX/OO./...", "XOX/XOO/OXX", "XO./.../...", "OO./.../..."} {
		fmt.Println(game.CheckBoard(board, opt))
	}
	// Output:
	// The Winner is X
	// No Winner - Game Complete
	// No Winner Yet - Game Incomplete
	// Invalid Values: O has 2 tokens, more than X's 0 before it in turn order
}

func ExampleParseToken() {
	tok, _ := game.ParseToken(" x ")
	_, err := game.ParseToken("XO")
	fmt.Printf("%c\n%v\n", tok, err)
	// Output:
	// X
	// token "XO" is more than one character: pick one, like X
}
