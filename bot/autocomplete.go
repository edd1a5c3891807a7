package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/table"
)

// maxChoices is Discord's limit on autocomplete results.
const maxChoices = 25

// autocomplete suggests legal moves for /ttt move position: the free cells
// nearest the last move (or the centre), or the columns that are not full
// under gravity, filtered by what the user has typed so far. It reads the
// channel's game under its lock and changes nothing.
func (b *Bot) autocomplete(ctx context.Context, in *Interaction) Response {
	resp := Response{Kind: Choices}
	if in.Route != RouteMove || in.Focused != optPosition {
		return resp
	}
	err := b.tables.Peek(ctx, in.Channel, func(t *table.Table) {
		// A game idle past the timeout is over, though nothing has
		// acted on it yet to record that: offer none of its moves.
		if t != nil && t.Phase == table.Playing && !b.tables.Idle(t) {
			for _, m := range t.Suggest(strings.TrimSpace(in.String(optPosition)), maxChoices) {
				resp.Choices = append(resp.Choices, &discordgo.ApplicationCommandOptionChoice{Name: m, Value: m})
			}
		}
	})
	if err != nil {
		b.log.ErrorContext(ctx, "autocomplete failed", "err", err, "interaction", in.ID, "channel", in.Channel)
	}
	return resp
}
