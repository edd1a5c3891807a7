package bot

import (
	"context"
	"strings"
	"time"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// aiChainBudget bounds the computer's thinking within one reply: Discord
// wants an answer within 3 s, and several computer seats may move in a row.
const aiChainBudget = 2 * time.Second

// minComputerBudget keeps a computer's share of the budget usable when
// several move in a row late in the chain.
const minComputerBudget = 10 * time.Millisecond

// levels maps a computer seat to the engine's level.
var levels = map[table.SeatKind]ai.Level{table.ComputerEasy: ai.Easy, table.ComputerMedium: ai.Medium, table.ComputerHard: ai.Hard}

// playComputers makes the computer's moves while a computer seat is to move,
// and returns a headline line for each. It stops at a person's turn or the
// end of the game. When no person is left in the game, it ends the game
// rather than let computers play each other out.
//
// The thinking budget is measured on the wall clock, not the application's
// clock: it bounds real time spent before Discord's deadline.
func (b *Bot) playComputers(ctx context.Context, w *locales.Speaker, t *table.Table) (string, error) {
	if t.Game() == nil || t.Phase != table.Playing {
		return "", nil
	}
	if !t.HumansLeft() {
		t.EndWithoutHumans()
		return w.Say("headline.no_humans", nil), nil
	}
	deadline := time.Now().Add(aiChainBudget)
	var lines []string
	for {
		kind, ok := t.ComputerToMove()
		if !ok {
			break
		}
		budget := min(b.aiBudget, time.Until(deadline)/time.Duration(t.ComputersInARow()))
		c, _, err := ai.Move(ctx, t.Game(), ai.Options{Level: levels[kind], Budget: max(budget, minComputerBudget), Seed: t.Seed()})
		if err != nil {
			return "", err
		}
		seat, at, err := t.PlayComputer(c)
		if err != nil {
			return "", err
		}
		lines = append(lines, headlineMove(w, t, seat, at))
	}
	return strings.Join(lines, "\n"), nil
}
