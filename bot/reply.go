package bot

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/table"
)

// MaxContent is Discord's limit on a message's content, in characters.
const MaxContent = 2000

// MaxEmbedDescription is Discord's limit on an embed's description, in
// characters: the room a long text (help) has when it is sent as an embed.
const MaxEmbedDescription = 4096

// textBoardBudget is about the room a board gets in a message; a board whose
// whole text would not fit is shown as a window, and then a picture of the
// whole board is attached.
const textBoardBudget = 1500

// Room kept free around the board when laying out a message, in characters.
const (
	layoutSlack    = 8   // line breaks and markup the layout adds around its parts
	minBoardRoom   = 200 // extra text (a move list) is dropped rather than leave the board less
	moveListMargin = 40  // the move list's header and code fence
)

// moveListShare is the part of a message a finished game's move list may
// take, so the final board keeps most of the room.
const moveListShare = MaxContent / 2

// ResponseKind is what a Response does in Discord.
type ResponseKind uint8

// Response kinds.
const (
	// Message posts a new message (interaction response type 4).
	Message ResponseKind = iota
	// Update edits the message whose button was clicked (type 7).
	Update
	// Pong answers Discord's PING (type 1).
	Pong
	// Choices answers autocomplete (type 8).
	Choices
)

// String names the kind.
func (k ResponseKind) String() string {
	return [...]string{"message", "update", "pong", "choices"}[k]
}

// File is an attachment a reply carries. Write renders it on demand, so a
// transport that cannot carry files costs no rendering.
type File struct {
	Name        string
	ContentType string
	Write       func(io.Writer) error
}

// Response is the bot's answer to one interaction, in the bot's terms; the
// transports turn it into Discord's wire form (InteractionResponse).
type Response struct {
	Kind       ResponseKind
	Ephemeral  bool     // only the invoking user sees it (refusals)
	Content    string   // within MaxContent
	Ping       []string // users the message may notify; nobody else, ever
	Components []discordgo.MessageComponent
	// Embeds are sent beside Content (help: its text is longer than
	// MaxContent allows and fits an embed's description).
	Embeds  []*discordgo.MessageEmbed
	Choices []*discordgo.ApplicationCommandOptionChoice
	Files   []File
	// NoFiles replaces Files where a transport cannot attach them: a line
	// appended to Content ("" adds nothing).
	NoFiles string
	// More says how to see what did not fit, when Content must be cut to
	// make room for NoFiles.
	More string
	// Card makes the message a Components V2 card (card.go): Content in
	// text displays, the picture in a media gallery and Components inside a
	// container of colour Accent (0xRRGGBB). Every board message is one.
	Card   bool
	Accent int
	// afterSave runs once the action's table is durably saved, in the
	// background (an edit of another message the action made outdated).
	afterSave func(context.Context)
}

// ephemeral is a reply only the invoking user sees.
func ephemeral(text string) Response {
	return Response{Kind: Message, Ephemeral: true, Content: clip(text)}
}

// public is a reply everyone in the channel sees, pinging only ping (the
// users named, never roles or @everyone, whatever a name or token holds).
func public(text string, ping ...string) Response {
	return Response{Kind: Message, Content: clip(text), Ping: ping}
}

// clip keeps text within Discord's limit; callers size their content to
// fit, so this is the last guard, not the layout.
func clip(text string) string { return clipLines(text, "…", MaxContent) }

// clipLines keeps text within limit characters, note included: when text
// is too long it keeps the whole lines that fit, closes a code block left
// open, and ends with note. A first line too long to keep is cut at a
// space, never mid-word where one can be found.
func clipLines(text, note string, limit int) string {
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	room := limit - utf8.RuneCountInString(note) - len("\n```\n")
	var kept []string
	size, open := 0, false
	for _, line := range strings.Split(text, "\n") {
		n := utf8.RuneCountInString(line) + 1
		if size+n > room {
			if len(kept) == 0 { // one long first line: cut it at a space
				r := []rune(line)[:max(0, room)]
				if i := strings.LastIndexByte(string(r), ' '); i > 0 {
					r = []rune(string(r)[:i])
				}
				kept = append(kept, string(r))
			}
			break
		}
		kept = append(kept, line)
		size += n
		if line == "```" { // the layout's code blocks open and close on lines of their own
			open = !open
		}
	}
	if open {
		kept = append(kept, "```")
	}
	return strings.Join(append(kept, note), "\n")
}

// InteractionResponse is r in Discord's wire form (wire.go). With
// withFiles, files are rendered and attached (a card shows them in its
// media gallery); without, r.NoFiles is added to the text instead.
func (r Response) InteractionResponse(withFiles bool) *WireResponse {
	switch r.Kind {
	case Pong:
		return &WireResponse{Type: discordgo.InteractionResponsePong}
	case Choices:
		choices := r.Choices
		if choices == nil {
			choices = []*discordgo.ApplicationCommandOptionChoice{}
		}
		return &WireResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &WireMessage{Choices: &choices}}
	}
	kind := discordgo.InteractionResponseChannelMessageWithSource
	if r.Kind == Update {
		kind = discordgo.InteractionResponseUpdateMessage
	}
	p := &wireParts{}
	p.resp = WireResponse{Type: kind, Data: r.messageIn(p, withFiles)}
	return &p.resp
}

// wireParts are the pieces of a reply's wire form that point at one
// another and live exactly as long as the reply, allocated together rather
// than one by one: a reply is built for every move. Nothing else points
// into them, so the reply reads as if each were allocated on its own.
type wireParts struct {
	resp     WireResponse
	msg      WireMessage
	mentions discordgo.MessageAllowedMentions
	accent   int                            // a card's colour, AccentColor points at it
	card     [1]discordgo.MessageComponent  // a card's Components: its container
	inner    [10]discordgo.MessageComponent // what the container holds, when that fits
}

// message is r's message body: a card (cardMessage), or classic content.
func (r Response) message(withFiles bool) *WireMessage {
	return r.messageIn(&wireParts{}, withFiles)
}

// messageIn is message, built in p.
func (r Response) messageIn(p *wireParts, withFiles bool) *WireMessage {
	if r.Card {
		return r.cardMessage(p, withFiles)
	}
	p.mentions = discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: r.Ping}
	data := &p.msg
	*data = WireMessage{
		Content:         r.Content,
		Components:      r.Components,
		Embeds:          r.Embeds,
		AllowedMentions: &p.mentions,
	}
	if r.Ephemeral {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	switch {
	case len(r.Files) > 0 && withFiles:
		data.Files = renderFiles(r.Files)
		if len(data.Files) > 0 {
			data.attachFiles()
		}
	case len(r.Files) > 0 && r.NoFiles != "":
		// The note is whole; the content is cut on a line to make room for
		// it, saying how to see the rest.
		room := MaxContent - utf8.RuneCountInString(r.NoFiles) - 1
		data.Content = clipLines(r.Content, cmp.Or(r.More, "…"), room) + "\n" + r.NoFiles
	}
	return data
}

// renderFiles renders files; one that fails is left out (the text board is
// still there).
func renderFiles(files []File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			continue
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: &buf})
	}
	return out
}

// boardReply is the public message after an accepted action: a headline, the
// board in a code block (a window around the last move when the whole board
// would not fit), and the status line. It pings the player to move, or the
// winner.
func boardReply(w *locales.Speaker, t *table.Table, headline string) Response {
	return public(boardText(w, t, headline, "", 0), pingFor(t)...)
}

// boardText lays out headline, board and status within MaxContent less
// reserve (room a note added later needs), with extra (e.g. a move list)
// after the status if it fits.
func boardText(w *locales.Speaker, t *table.Table, headline, extra string, reserve int) string {
	if t.HasEmoji() {
		return emojiBoardText(w, t, headline, extra, reserve)
	}
	g := t.Game()
	status := withClock(w, t, statusLine(w, t))
	r := g.Rules()
	focus, ok := g.LastPlaced()
	if !ok {
		focus = game.Coord{Row: r.Rows / 2, Col: r.Cols / 2}
	}
	// The window note may be needed; reserve its room (at its widest: three
	// digits a number) before sizing the board. It is only measured, so it
	// is written on the stack.
	var noteStack [256]byte
	note := appendWindowLine(noteStack[:0], w, r, game.MaxSize, game.MaxSize, game.MaxSize, game.MaxSize)
	fixed := utf8.RuneCountInString(headline) + utf8.RuneCountInString(status) + utf8.RuneCount(note) + len("\n```\n```\n\n") + layoutSlack + reserve
	budget := MaxContent - fixed
	if n := utf8.RuneCountInString(extra); extra != "" && budget-n > minBoardRoom {
		budget -= n + 1
	} else {
		extra = ""
	}
	win := render.Fit(r, budget, focus)
	board := render.String(g, win)
	var sb strings.Builder
	sb.Grow(len(headline) + len(board) + len(status) + len(extra) + len("\n```\n```\n\n\n") + 2*len(note))
	sb.WriteString(headline)
	sb.WriteString("\n```\n")
	sb.WriteString(board)
	sb.WriteString("```\n")
	sb.WriteString(status)
	if !win.IsWhole(r) {
		lo, hi := win.UserRows(r)
		sb.WriteByte('\n')
		sb.WriteString(windowLine(w, r, lo, hi, win.Left, win.Left+win.Cols-1))
	}
	if extra != "" {
		sb.WriteByte('\n')
		sb.WriteString(extra)
	}
	return sb.String()
}

// pingFor is who an accepted action should notify: the player to move, or
// the winner.
func pingFor(t *table.Table) []string {
	g := t.Game()
	switch {
	case g == nil:
		return nil
	case g.State() == game.Won && !t.Seats[g.Winner()].Kind.Computer():
		return []string{t.Seats[g.Winner()].User}
	case g.State() == game.Playing && t.Phase == table.Playing && !t.Seats[g.Turn()].Kind.Computer():
		return []string{t.Seats[g.Turn()].User}
	}
	return nil
}

// moveList writes the history one move a line, keeping the most recent
// moves that fit in budget characters.
func moveList(w *locales.Speaker, t *table.Table, budget int) string {
	moves := t.Game().Moves()
	lines := make([]string, len(moves))
	for i, m := range moves {
		lines[i] = moveLine(w, t, i, m)
	}
	shown, size := 0, len("```\n```")+moveListMargin
	for i := len(lines) - 1; i >= 0 && size+len(lines[i])+1 <= budget; i-- {
		size += len(lines[i]) + 1
		shown++
	}
	if shown == 0 {
		return ""
	}
	header := w.SayN("moves.all", len(lines), nil)
	if shown < len(lines) {
		header = w.Say("moves.last", locales.Data{"Shown": shown, "Count": len(lines)})
	}
	return header + "\n```\n" + strings.Join(lines[len(lines)-shown:], "\n") + "\n```"
}

// decorate makes a public message about a table what every one is: a card
// (card.go) coloured for the player to move, with the table's buttons, and
// a picture of the board when it was asked for, is too big for text, or
// holds emoji the text cannot show.
func (b *Bot) decorate(w *locales.Speaker, resp Response, t *table.Table, pictureAsked bool) Response {
	if t == nil || resp.Ephemeral {
		return resp
	}
	resp.Components = components(w, t)
	resp.Card, resp.Accent = true, accentFor(t)
	g := t.Game()
	if g == nil || !pictureAsked && !tooBigForText(g) && !emojiPicture(t) {
		return resp
	}
	// A copy: the picture may be drawn after the channel's lock is released.
	snapshot, look := g.Clone(), b.look(t.Tokens())
	resp.Files = []File{{Name: "board.png", ContentType: "image/png", Write: func(w io.Writer) error { return look.PNG(w, snapshot) }}}
	if pictureAsked {
		resp.NoFiles = w.Say("status.no_picture", nil)
		resp.More = w.Say("status.clipped", nil)
	}
	return resp
}

func tooBigForText(g *game.Game) bool {
	r := g.Rules()
	return !render.Fit(r, textBoardBudget, game.Coord{}).IsWhole(r)
}
