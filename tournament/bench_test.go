package tournament

import "testing"

// BenchmarkSwissRound64 is what the result that completes a round of a
// 64-player swiss costs the bot: recording every game of round 1 (first
// movers win), the last of which pairs round 2 with the matching check.
func BenchmarkSwissRound64(b *testing.B) {
	for b.Loop() {
		tr, err := New(Swiss, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, id := range ids(64) {
			if err := tr.Join(id); err != nil {
				b.Fatal(err)
			}
		}
		games, err := tr.Start(nil)
		if err != nil {
			b.Fatal(err)
		}
		var next []Game
		for _, g := range games {
			if g.Second == "" {
				continue
			}
			if next, _, err = tr.Record(g.Key(), FirstWon); err != nil {
				b.Fatal(err)
			}
		}
		if len(next) != 32 {
			b.Fatalf("round 2 has %d games", len(next))
		}
	}
}
