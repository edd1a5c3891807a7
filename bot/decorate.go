package bot

import (
	"bytes"
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/render"
)

// textBoardBudget is about the room a board gets in a message; a board whose
// whole text would not fit is shown as a window, and then a picture of the
// whole board is attached.
const textBoardBudget = 1500

type noFilesKey struct{}

// WithoutFiles marks ctx as coming from a transport that cannot attach files
// (the HTTP endpoint's inline replies); the bot then sends no pictures.
func WithoutFiles(ctx context.Context) context.Context {
	return context.WithValue(ctx, noFilesKey{}, true)
}

func filesAllowed(ctx context.Context) bool {
	no, _ := ctx.Value(noFilesKey{}).(bool)
	return !no
}

// decorate adds what every public message about a table carries: its buttons,
// and a picture of the board when it was asked for or is too big for text.
func decorate(ctx context.Context, req *Request, t *Table, resp *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	if t == nil || resp == nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return resp
	}
	resp.Data.Components = components(t)
	if resp.Data.Components == nil {
		resp.Data.Components = []discordgo.MessageComponent{} // clear the buttons of a message being updated
	}
	if t.game == nil {
		return resp
	}
	asked := req.Sub == "board" && req.Bool(optImage)
	if !asked && !tooBigForText(t.game) {
		return resp
	}
	if !filesAllowed(ctx) {
		if asked {
			resp.Data.Content = clip(resp.Data.Content + "\n" + notePictureHTTP)
		}
		return resp
	}
	var buf bytes.Buffer
	if err := render.PNG(&buf, t.game); err != nil {
		return resp // the text board is still there
	}
	resp.Data.Files = []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: &buf}}
	return resp
}

func tooBigForText(g *game.Game) bool {
	r := g.Rules()
	return !render.Fit(r, textBoardBudget, game.Coord{}).IsWhole(r)
}
