package puzzle

import (
	"context"
	"testing"

	"github.com/tttbot/tttbot/game"
)

// BenchmarkJudge is what a press on a puzzle's button costs the bot: the
// judgement of a first move, cycling through the Connect Four pool of each
// difficulty, once along the main line (the try goes on: the defence is
// found) and once a losing first move (the try fails: the refutation is
// found).
func BenchmarkJudge(b *testing.B) {
	ctx := context.Background()
	for _, d := range Difficulties() {
		pool := Pool(ConnectFour, d)
		b.Run(string(d)+"/main-line", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				p := pool[i%len(pool)]
				if _, err := Judge(ctx, p, p.Line[:1]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(d)+"/slip", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				p := pool[i%len(pool)]
				g, err := p.Position()
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range legalMoves(g) {
					if c != p.Line[0] {
						if v, err := Judge(ctx, p, []game.Coord{c}); err != nil || v.Outcome != Failed {
							b.Fatalf("%s %v: %+v %v", p.ID, c, v, err)
						}
						break
					}
				}
			}
		})
	}
}
