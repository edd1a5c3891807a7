package puzzle_test

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
)

// A try at a puzzle: the solver plays the main line, and Judge answers
// each move with the best defence until the win. Columns count from 0.
func ExampleJudge() {
	p := puzzle.Pool(puzzle.ConnectFour, puzzle.Easy)[0]
	fmt.Printf("%s: %c to play and win in %d\n", p.ID, p.Mover(), p.WinIn)
	var played []game.Coord
	for i := 0; ; i += 2 {
		played = append(played, p.Line[i])
		v, err := puzzle.Judge(context.Background(), p, played)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("column %d: %v", p.Line[i].Col, v.Outcome)
		if v.Outcome != puzzle.Continue {
			fmt.Println()
			return
		}
		fmt.Printf(", the defence plays column %d\n", v.Reply.Col)
		played = append(played, v.Reply)
	}
	// Output:
	// c4-004323633246232322644544505500066: O to play and win in 2
	// column 6: continue, the defence plays column 1
	// column 1: solved
}
