package bot

import (
	"unicode/utf16"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/token"
)

// Emoji tokens (docs/rules.md, "Emoji boards"): while a seat's token is an
// emoji, the board is an emoji grid outside a code block when it fits a
// message, else the picture; buttons carry the tokens' emoji; pictures draw
// custom emoji from Discord's CDN (Options.EmojiImages).
//
// Only tokens the token rule accepted reach the grid, and each is written as
// token.GridFace gives it: an emoji, a custom emoji's checked markup, or the
// emoji a character reads as. Nothing a user typed is written outside a code
// span otherwise.

// faces are the seats' tokens as render draws them.
func faces(tokens []string) []render.Face {
	out := make([]render.Face, len(tokens))
	for i, tok := range tokens {
		d := token.Describe(tok)
		grid, _ := token.GridFace(tok)
		out[i] = render.Face{Text: tok, Grid: grid, Name: d.Name, ID: d.ID, Animated: d.Animated}
		switch d.Kind {
		case token.Unicode:
			out[i].Kind = render.Unicode
		case token.Custom:
			out[i].Kind = render.Custom
		}
	}
	return out
}

// look is how t's board is drawn: plain runes unless a token is an emoji.
func (b *Bot) look(tokens []string) render.Look {
	if !token.AnyEmoji(tokens) {
		return render.Look{}
	}
	return render.Look{Faces: faces(tokens), Images: b.emojiImages}
}

// buttonEmoji is the emoji a button shows for token tok, nil for a character.
func buttonEmoji(tok string) *discordgo.ComponentEmoji {
	switch d := token.Describe(tok); d.Kind {
	case token.Unicode:
		return &discordgo.ComponentEmoji{Name: tok}
	case token.Custom:
		return &discordgo.ComponentEmoji{Name: d.Name, ID: d.ID, Animated: d.Animated}
	}
	return nil
}

// discordLength is a text's length as Discord counts it against its limits:
// UTF-16 code units, as its clients count (an emoji outside the Basic
// Multilingual Plane is two; never fewer than its code points).
func discordLength(s string) int { return len(utf16.Encode([]rune(s))) }

// emojiBoardText is boardText for a game with an emoji token: the headline,
// the emoji grid (outside a code block: emoji do not keep a monospaced
// font's columns), the status, and extra when it fits. When the grid cannot
// be drawn (a side over 10, a character token with no emoji form) or does
// not fit, the board is left to the picture (emojiPicture) and a line says so.
func emojiBoardText(w *locales.Speaker, t *table.Table, headline, extra string, reserve int) string {
	status := withClock(w, t, statusLine(w, t))
	grid, ok := emojiGrid(t)
	if !ok {
		return headline + "\n" + w.Say("status.board_in_picture", nil) + "\n" + status
	}
	text := headline + "\n" + grid + status
	room := MaxContent - discordLength(text) - layoutSlack - reserve
	if extra != "" && discordLength(extra)+1 <= room {
		text += "\n" + extra
	}
	return text
}

// emojiGrid is t's emoji grid when it can be drawn and takes at most
// textBoardBudget characters, the room a board gets in a message (a full
// 7×6 board of 🦊 and a custom emoji takes 616).
func emojiGrid(t *table.Table) (string, bool) {
	grid, ok := render.Look{Faces: faces(t.Tokens())}.EmojiGrid(t.Game())
	return grid, ok && discordLength(grid) <= textBoardBudget
}

// emojiPicture reports whether t's board needs the picture: an emoji game
// whose grid emojiBoardText does not show.
func emojiPicture(t *table.Table) bool {
	if !t.HasEmoji() || t.Game() == nil {
		return false
	}
	_, ok := emojiGrid(t)
	return !ok
}
