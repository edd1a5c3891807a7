package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/tttbot/tttbot/ai"
)

// aiChainBudget bounds the computer's thinking within one reply: Discord
// wants an answer within 3 s, and several computer seats may move in a row.
const aiChainBudget = 2 * time.Second

// playComputers makes the computer's moves while a computer seat is to move,
// and returns a headline line for each. It stops at a human's turn or the
// end of the game. When no human is left in the game, it ends the game
// rather than let computers play each other out.
func (b *Bot) playComputers(ctx context.Context, t *Table) (string, error) {
	g := t.game
	if g == nil || t.Phase != Playing {
		return "", nil
	}
	if !t.humansLeft() {
		t.Phase, t.EndReason = Ended, "ended"
		return "\n" + noHumansLeft, nil
	}
	deadline := time.Now().Add(aiChainBudget)
	var lines string
	for !g.Over() && t.Seats[g.Turn()].AI != "" {
		seat := g.Turn()
		level, err := ai.ParseLevel(t.Seats[seat].AI)
		if err != nil {
			return "", err
		}
		budget := min(b.aiBudget, time.Until(deadline)/time.Duration(t.computersInARow()))
		c, _, err := ai.Move(ctx, g, ai.Options{Level: level, Budget: max(budget, 10*time.Millisecond), Seed: t.seed()})
		if err != nil {
			return "", err
		}
		at, err := g.Play(seat, c)
		if err != nil {
			return "", fmt.Errorf("computer's move %v refused: %w", c, err)
		}
		lines += "\n" + headlineMove(t, t.Seats[seat], at)
	}
	return lines, nil
}

// humansLeft reports whether a human seat has not resigned.
func (t *Table) humansLeft() bool {
	for i, s := range t.Seats {
		if s.AI == "" && !t.game.Resigned(i) {
			return true
		}
	}
	return false
}

// computersInARow counts the computer seats due to move before the next human.
func (t *Table) computersInARow() int {
	n := 0
	for i := 0; i < len(t.Seats); i++ {
		s := (t.game.Turn() + i) % len(t.Seats)
		if t.game.Resigned(s) {
			continue
		}
		if t.Seats[s].AI == "" {
			break
		}
		n++
	}
	return max(n, 1)
}

// seed makes the computer's choices repeatable for the same game and move.
func (t *Table) seed() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", t.Channel, t.Number, t.game.MoveCount())
	return h.Sum64()
}

// aiOption reads /ttt new ai:, or "" when absent.
func aiOption(req *Request) (string, error) {
	if !req.Has(optAI) {
		return "", nil
	}
	level := req.String(optAI)
	if _, err := ai.ParseLevel(level); err != nil {
		return "", fmt.Errorf("%w: ai must be easy, medium or hard", ErrBadOption)
	}
	return level, nil
}
