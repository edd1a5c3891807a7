package bot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/render"
)

// MaxContent is Discord's limit on a message's content, in characters.
const MaxContent = 2000

// ephemeral is a reply only the invoking user sees.
func ephemeral(text string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content:         clip(text),
			Flags:           discordgo.MessageFlagsEphemeral,
			AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}},
		},
	}
}

// public is a reply everyone in the channel sees, pinging only ping (the
// users named, never roles or @everyone, whatever a name or token holds).
func public(text string, ping ...string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content:         clip(text),
			AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: ping},
		},
	}
}

// clip keeps text within Discord's limit; callers size their content to
// fit, so this is the last guard, not the layout.
func clip(text string) string {
	if utf8.RuneCountInString(text) <= MaxContent {
		return text
	}
	return string([]rune(text)[:MaxContent-1]) + "…"
}

// boardReply is the public message after an accepted action: a headline, the
// board in a code block (a window around the last move when the whole board
// would not fit), and the status line. It pings the player to move, or the
// winner.
func boardReply(t *Table, headline string) *discordgo.InteractionResponse {
	return public(boardText(t, headline, ""), pingFor(t)...)
}

// boardText lays out headline, board and status within MaxContent, with
// extra (e.g. a move list) after the status if it fits.
func boardText(t *Table, headline, extra string) string {
	g := t.game
	status := statusLine(t)
	r := g.Rules()
	focus, ok := g.LastPlaced()
	if !ok {
		focus = game.Coord{Row: r.Rows / 2, Col: r.Cols / 2}
	}
	// The window note may be needed; reserve its room before sizing the board.
	note := windowLine(r, 100, 100, 100, 100)
	fixed := len([]rune(headline)) + len([]rune(status)) + len([]rune(note)) + len("\n```\n```\n\n") + 8
	budget := MaxContent - fixed
	if extra != "" && budget-len([]rune(extra)) > 200 {
		budget -= len([]rune(extra)) + 1
	} else {
		extra = ""
	}
	win := render.Fit(r, budget, focus)
	var sb strings.Builder
	sb.WriteString(headline)
	sb.WriteString("\n```\n")
	sb.WriteString(render.String(g, win))
	sb.WriteString("```\n")
	sb.WriteString(status)
	if !win.IsWhole(r) {
		lo, hi := win.UserRows(r)
		sb.WriteString("\n" + windowLine(r, lo, hi, win.Left, win.Left+win.Cols-1))
	}
	if extra != "" {
		sb.WriteString("\n" + extra)
	}
	return sb.String()
}

// pingFor is who an accepted action should notify: the player to move, or
// the winner.
func pingFor(t *Table) []string {
	g := t.game
	switch {
	case g == nil:
		return nil
	case g.State() == game.Won && t.Seats[g.Winner()].AI == "":
		return []string{t.Seats[g.Winner()].User}
	case g.State() == game.Playing && t.Phase == Playing && t.Seats[g.Turn()].AI == "":
		return []string{t.Seats[g.Turn()].User}
	}
	return nil
}

// moveList writes the history one move a line, keeping the most recent
// moves that fit in budget characters.
func moveList(t *Table, budget int) string {
	moves := t.game.Moves()
	lines := make([]string, len(moves))
	for i, m := range moves {
		lines[i] = moveLine(t, i, m)
	}
	shown, size := 0, len("```\n```")+40
	for i := len(lines) - 1; i >= 0 && size+len(lines[i])+1 <= budget; i-- {
		size += len(lines[i]) + 1
		shown++
	}
	if shown == 0 {
		return ""
	}
	return fmt.Sprintf("%s\n```\n%s\n```", movesHeader(len(lines), shown), strings.Join(lines[len(lines)-shown:], "\n"))
}
