package bot

import (
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/table"
)

// Board messages are Components V2 "cards" (message flag IS_COMPONENTS_V2,
// 1<<15): one container whose accent colour is the player to move; in it,
// the message's text in text displays (the board's code block one of its
// own), the picture of the board in a media gallery when one is attached,
// and the buttons in action rows. Every public message about a table is a
// card, always, and so is a puzzle's private board: a V2 message cannot become classic again, and a board
// message is edited and updated for the whole game (moves, clocks, the end
// of a challenge), so one shape for all of them is the only one that can
// never meet Discord's refusal. Refusals, help, stats and the like stay
// classic content. docs/architecture.md says more.

// Discord's limits on a Components V2 message.
const (
	maxCardComponents = 40   // components in a message, nested ones counted
	maxCardText       = 4000 // characters across all its text displays
)

// neutralAccent is the container's colour when nobody is to move: a lobby,
// an invitation, a finished or ended game. Discord's "greyple".
const neutralAccent = 0x99AAB5

// accentFor is the colour of the seat to move in t (the colour that seat
// has in the board's picture), or neutralAccent.
func accentFor(t *table.Table) int {
	return accentOf(t.Game(), t.Phase == table.Playing)
}

// accentOf is the colour of the player to move in g while open (a game in
// play), or neutralAccent.
func accentOf(g *game.Game, open bool) int {
	if g == nil || !open || g.State() != game.Playing {
		return neutralAccent
	}
	c := render.PlayerColor(int(g.Turn()))
	return int(c.R)<<16 | int(c.G)<<8 | int(c.B)
}

// textDisplays cuts a message's text at its code blocks, which open and
// close on lines of their own: the prose before a block, the block, the
// prose after it. Joined with "\n" the parts are text again.
func textDisplays(text string) []string { return appendTextDisplays(nil, text) }

// appendTextDisplays appends textDisplays(text) to parts. Each part is cut
// from text, not copied: a board reply is laid out for every move.
func appendTextDisplays(parts []string, text string) []string {
	start := 0 // where the lines not yet in a part begin
	flush := func(end int) {
		if s := text[start:max(start, end)]; strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
		start = min(end+1, len(text))
	}
	inBlock := false
	for at := 0; ; {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		line := text[at:end]
		switch {
		case strings.HasPrefix(line, "```") && !inBlock:
			flush(at - 1)
			start, inBlock = at, true
		case line == "```" && inBlock:
			inBlock = false
			flush(end)
		}
		if end == len(text) {
			break
		}
		at = end + 1
	}
	flush(len(text))
	return parts
}

// cardMessage is r as a Components V2 message, built in p. With withFiles
// the files are rendered and the picture shown in a media gallery;
// without, r.NoFiles says so in a text display of its own. Everything stays
// within Discord's limits: the text is clipped to maxCardText, and when the
// components would be more than maxCardComponents the move buttons go (a
// move can always be typed), then the other rows.
func (r Response) cardMessage(p *wireParts, withFiles bool) *WireMessage {
	p.mentions = discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: r.Ping}
	m := &p.msg
	*m = WireMessage{AllowedMentions: &p.mentions, Flags: discordgo.MessageFlagsIsComponentsV2}
	if r.Ephemeral { // a puzzle's board: only the person solving it sees it
		m.Flags |= discordgo.MessageFlagsEphemeral
	}
	text := r.Content
	var note string
	if len(r.Files) > 0 && withFiles {
		m.Files = renderFiles(r.Files)
	} else if len(r.Files) > 0 {
		note = r.NoFiles
	}
	room := maxCardText - utf8.RuneCountInString(note)
	if len(text) > room && utf8.RuneCountInString(text) > room { // no more characters than bytes
		text = clipLines(text, "…", room)
	}
	var partsStack [4]string // a board's text: the headline, the board, the status
	parts := appendTextDisplays(partsStack[:0], text)
	// Room for everything the container holds, so that nothing is copied
	// as it grows: the texts, the note, the gallery and the rows.
	inner := p.inner[:0]
	if n := len(parts) + 2 + len(r.Components); n > cap(inner) {
		inner = make([]discordgo.MessageComponent, 0, n)
	}
	for _, s := range parts {
		inner = append(inner, discordgo.TextDisplay{Content: s})
	}
	if note != "" {
		inner = append(inner, discordgo.TextDisplay{Content: note})
	}
	if len(m.Files) > 0 {
		gallery := discordgo.MediaGallery{}
		for _, f := range m.Files {
			gallery.Items = append(gallery.Items, discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + f.Name}})
		}
		inner = append(inner, gallery)
		m.attachFiles()
	}
	rows := fitRows(r.Components, countComponents(inner)+1)
	p.accent = r.Accent
	all := append(inner, rows...)
	if len(all) == 0 {
		all = nil // as it always was: an empty container's components are null
	}
	p.card[0] = discordgo.Container{AccentColor: &p.accent, Components: all}
	m.Components = p.card[:]
	return m
}

// fitRows returns the action rows that fit beside used components: all of
// them when they do; else without the move buttons; else none.
func fitRows(rows []discordgo.MessageComponent, used int) []discordgo.MessageComponent {
	if used+countComponents(rows) <= maxCardComponents {
		return rows
	}
	var kept []discordgo.MessageComponent
	for _, row := range rows {
		if !isMoveRow(row) {
			kept = append(kept, row)
		}
	}
	if used+countComponents(kept) <= maxCardComponents {
		return kept
	}
	return nil
}

// isMoveRow reports whether row holds a board's cell or column buttons.
func isMoveRow(row discordgo.MessageComponent) bool {
	ar, ok := row.(discordgo.ActionsRow)
	if !ok || len(ar.Components) == 0 {
		return false
	}
	b, ok := ar.Components[0].(discordgo.Button)
	if !ok {
		return false
	}
	route, _, err := matchButton(b.CustomID)
	return err == nil && (route == ButtonCell || route == ButtonColumn)
}

// countComponents counts components as Discord does towards its limit:
// each one, and each one nested in it.
func countComponents(cs []discordgo.MessageComponent) int {
	n := 0
	for _, c := range cs {
		n++
		switch c := c.(type) {
		case discordgo.ActionsRow:
			n += countComponents(c.Components)
		case discordgo.Container:
			n += countComponents(c.Components)
		}
	}
	return n
}
