package bot

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func isPublic(resp *discordgo.InteractionResponse) bool {
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
			wg.Add(1)
			go func() {
				defer wg.Done()
				if isPublic(h.as(user, "move", opt("position", pos))) {
					accepted.Add(1)
				}
			}()
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.seated(t, ch, alice, bob)
			// Both players hammer every cell, twice over; turns and taken
			// cells sort it out, and every accepted move must be stored.
			var inner sync.WaitGroup
			for _, user := range []string{alice, bob} {
				inner.Add(1)
				go func() {
					defer inner.Done()
					for cell := range 18 {
						if isPublic(h.in(ch, user, "move", opt("position", fmt.Sprint(cell%9)))) {
							accepted[c].Add(1)
						}
						h.in(ch, user, "board")
					}
				}()
			}
			inner.Wait()
		}()
	}
	wg.Wait()
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
