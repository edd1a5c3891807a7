package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// Handle answers one interaction in Discord's wire form with files attached,
// as the gateway sends it: the package's tests drive the bot through it. It
// calls Serve, not ServeRecovering, so that a panic fails the test (and the
// fuzz target) instead of being answered politely. Being in a test file, it
// is no part of the package's API.
func (b *Bot) Handle(ctx context.Context, i *discordgo.Interaction) *WireResponse {
	return b.Serve(ctx, i).InteractionResponse(true)
}
