package bot

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func isPublic(resp *WireResponse) bool {
	return resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0
}

// TestConcurrentMovesOneChannel sends the same move from many goroutines at
// once: exactly one is accepted, and every other gets a refusal.
func TestConcurrentMovesOneChannel(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob, opt("rows", 10), opt("columns", 10))
	for round := 0; round < 10; round++ {
		user := []string{alice, bob}[round%2]
		pos := fmt.Sprintf("%d,%d", round, (round*3)%10)
		var accepted atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			move := h.prepare(channel, user, "move", opt("position", pos))
			wg.Go(func() {
				if isPublic(h.bot.Handle(context.Background(), move)) {
					accepted.Add(1)
				}
			})
		}
		wg.Wait()
		if n := accepted.Load(); n != 1 {
			t.Fatalf("round %d: %d moves accepted, want exactly 1", round, n)
		}
	}
	if n := h.load(channel).Game().MoveCount(); n != 10 {
		t.Fatalf("stored game has %d moves, want 10", n)
	}
}

// TestConcurrentChannels plays whole games in many channels at once, each
// with players racing each other.
func TestConcurrentChannels(t *testing.T) {
	h := newHarness(t)
	const channels = 8
	var accepted [channels]atomic.Int32
	var wg sync.WaitGroup
	for c := range channels {
		ch := fmt.Sprintf("94000000000000000%d", c)
		// bob joins rather than accepts: a challenge to him in every channel at
		// once would pass the limit on open challenges.
		newGame, join := h.prepare(ch, alice, "new"), h.prepare(ch, bob, "join")
		// Both players hammer every cell, twice over, each move followed by
		// a look at the board; turns and taken cells sort it out, and every
		// accepted move must be stored.
		turns := map[string][][2]*discordgo.Interaction{}
		for _, user := range []string{alice, bob} {
			for cell := range 18 {
				turns[user] = append(turns[user], [2]*discordgo.Interaction{
					h.prepare(ch, user, "move", opt("position", fmt.Sprint(cell%9))), h.prepare(ch, user, "board")})
			}
		}
		wg.Go(func() {
			for _, open := range []*discordgo.Interaction{newGame, join} {
				if resp := h.bot.Handle(context.Background(), open); !isPublic(resp) {
					t.Errorf("channel %d: opening the game refused: %+v", c, resp.Data)
					return
				}
			}
			var players sync.WaitGroup
			for _, user := range []string{alice, bob} {
				players.Go(func() {
					for _, turn := range turns[user] {
						if isPublic(h.bot.Handle(context.Background(), turn[0])) {
							accepted[c].Add(1)
						}
						h.bot.Handle(context.Background(), turn[1])
					}
				})
			}
			players.Wait()
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for c := range channels {
		tbl := h.load(fmt.Sprintf("94000000000000000%d", c))
		if tbl == nil || tbl.Game() == nil {
			t.Fatalf("channel %d: no game", c)
		}
		g := tbl.Game()
		if n := int(accepted[c].Load()); n == 0 || n != g.MoveCount() {
			t.Fatalf("channel %d: %d moves accepted, %d stored", c, n, g.MoveCount())
		}
		for i, m := range g.Moves() {
			if m.Player != i%2 {
				t.Fatalf("channel %d: move %d by player %d out of turn", c, i, m.Player)
			}
		}
	}
}
