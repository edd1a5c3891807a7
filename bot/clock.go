package bot

import (
	"context"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// Move clocks, the bot's side: /ttt new clock:, the deadline on the status
// line, the words when a clock runs out, and the edit of the board message
// that showed the game (package table decides when and applies it once).

// Editor edits a message the bot posted, outside any interaction's reply:
// through the original interaction's token while it lives, or by its ID
// with the bot's own token. bot/discordrest implements it. An edit is its
// JSON body (a WireMessage: the bot owns the message's shape) and the files
// its attachments list names, sent as files[n].
type Editor interface {
	EditOriginal(ctx context.Context, app, token string, body []byte, files []*discordgo.File) error
	EditMessage(ctx context.Context, channel, message string, body []byte, files []*discordgo.File) error
	// OriginalMessageID learns the ID of the message that answered an
	// interaction, while its token lives: so a board posted as a new
	// message can be edited after the token has expired.
	OriginalMessageID(ctx context.Context, app, token string) (string, error)
}

// tokenLife is how long Discord accepts an interaction's token for edits
// (15 minutes), less a margin for the edit's own trip.
const tokenLife = 15*time.Minute - 30*time.Second

// learnIDAfter are the pauses before each try at learning a new board
// message's ID: the transport posts the reply after Serve returns, within
// Discord's three seconds.
var learnIDAfter = []time.Duration{3 * time.Second, 6 * time.Second, 12 * time.Second}

// clockFrom reads /ttt new clock: (seconds), 0 when absent.
func clockFrom(in *Interaction) (time.Duration, error) {
	secs, err := in.Int(optClock, 0)
	if err != nil {
		return 0, err
	}
	d := time.Duration(secs) * time.Second
	if d != 0 {
		if err := table.ValidClock(d); err != nil {
			return 0, err
		}
	}
	return d, nil
}

// discordTime is a Discord timestamp that every reader sees in their own
// time zone and language; style "R" is relative ("in 5 minutes").
func discordTime(t time.Time, style string) string {
	return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":" + style + ">"
}

// withClock is a table's status line with what its clock adds: the mover's
// deadline while one runs, or the win on time that ended the game.
func withClock(w *locales.Speaker, t *table.Table, status string) string {
	if t.Phase == table.Over && t.EndReason == table.OnTime {
		g := t.Game()
		won := t.Seats[g.Winner()]
		data := locales.Data{"Token": won.Token, "Who": who(w, won)}
		if to, ok := t.LastTimeout(); ok {
			data["Lost"] = seatName(w, t.Seats[to.Seat])
		}
		return w.Say("status.won_on_time", data)
	}
	if t.Phase == table.Playing && !t.Deadline.IsZero() {
		return status + "\n" + w.SayArgs("status.clock", locales.Text("Deadline", discordTime(t.Deadline, "R")))
	}
	return status
}

// editedLater reports whether the message that shows t will be edited
// without anyone acting: an open clock may run out, or a challenge end.
func editedLater(t *table.Table) bool {
	return t.Challenging() || t.Clock != 0 && t.Phase == table.Playing
}

// showing returns the table to save after a reply that shows a clocked
// game's board or an open challenge, with that message recorded as the one
// to edit when the clock runs out or the challenge ends (next itself, or cur when the action changed nothing);
// otherwise next unchanged. The record keeps in's public locale: the
// message speaks it, and so will its edit.
func (b *Bot) showing(in *Interaction, i *discordgo.Interaction, cur, next *table.Table, resp Response) *table.Table {
	t := next
	if t == nil {
		t = cur
	}
	if t == nil || resp.Ephemeral || i.Token == "" || !editedLater(t) {
		return next
	}
	m := table.Shown{App: i.AppID, Token: i.Token, At: b.tables.Now(), Locale: in.Public.Locale()}
	if resp.Kind == Update && i.Message != nil {
		m.Message = i.Message.ID // the clicked message is the one the reply redraws
	}
	t.ShowBoard(m)
	if m.Message == "" && outlivesToken(t, b.challengeTimeout) && b.editor != nil {
		b.learnMessageID(t.Channel, m) // the clock or the invitation will outlive the token
	}
	return t
}

// learnMessageID asks Discord, in the background once the reply is posted,
// for the ID of the new board message shown, and keeps it with the table if
// that message still shows the board.
func (b *Bot) learnMessageID(channel string, shown table.Shown) {
	b.bg.Add(1)
	go func() {
		defer b.bg.Done()
		ctx := context.Background()
		for _, pause := range b.learnIDAfter {
			time.Sleep(pause)
			id, err := b.editor.OriginalMessageID(ctx, shown.App, shown.Token)
			if err != nil {
				continue // not posted yet, or Discord is slow: try again
			}
			err = b.tables.Do(ctx, channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
				if cur == nil || cur.Shown.Token != shown.Token || cur.Shown.Message != "" {
					return nil, nil // a newer message shows the board now
				}
				shown.Message = id
				cur.ShowBoard(shown)
				return cur, nil
			})
			if err != nil {
				b.log.Warn("clock: keeping the board message's id failed", "channel", channel, "err", err)
			}
			return
		}
		b.log.Warn("clock: the board message's id is unknown; when the clock runs out, the next interaction shows it", "channel", channel)
	}()
}

// Wait waits for the bot's background work (learning board messages' IDs):
// at shutdown, and in tests.
func (b *Bot) Wait() { b.bg.Wait() }

// timeUp is table's TimeUpFunc: the computer seats now due to move play, the
// board is laid out under the channel's lock, and once the expiry is saved
// the message that showed the board is edited to show it, in the language
// it was written in (t.Shown.Locale; en-US when none is known).
func (b *Bot) timeUp(ctx context.Context, t *table.Table, lost table.Seat) (func(context.Context), error) {
	w := b.words.For(t.Shown.Locale)
	headline := w.Say("headline.time_up", locales.Data{"Seat": seatName(w, lost)})
	if t.Phase == table.Playing {
		headline = w.Say("headline.time_up_out", locales.Data{"Seat": seatName(w, lost)})
	}
	moves, err := b.playComputers(ctx, w, t)
	if err != nil {
		return nil, err
	}
	if moves != "" {
		headline += "\n" + moves
	}
	t.FinishIfOver()
	t.ArmClock(b.tables.Now()) // the next mover's fresh clock, as the edit shows it
	if !b.canEditShown(t) {
		return nil, nil // the next interaction shows the result
	}
	resp := b.decorate(w, boardReply(w, t, headline), t, false)
	// The picture (a board too big for text) is drawn in the edit, after
	// the channel's lock is released: resp holds a copy of the game.
	return b.editShown(t, func() *WireMessage { return boardEdit(resp) }), nil
}

// canEditShown reports whether the message that last showed t can be
// edited: the bot has an editor, and knows the message by its
// interaction's token or by its ID.
func (b *Bot) canEditShown(t *table.Table) bool {
	return b.editor != nil && (t.Shown.Token != "" || t.Shown.Message != "")
}

// editShown returns the edit of the message that last showed t into what
// edit makes, to run once t's save is durable, outside the channel's lock.
func (b *Bot) editShown(t *table.Table, edit func() *WireMessage) func(context.Context) {
	shown, channel, now := t.Shown, t.Channel, b.tables.Now()
	return func(ctx context.Context) { b.editBoard(ctx, channel, shown, now, edit()) }
}

// boardEdit is resp as an edit of the message that showed the board: its
// card (text, buttons, mentions, and the V2 flag a card's edit must keep)
// and, where the board is shown as a picture, the new picture. The edit's
// attachments list names exactly its files, so it replaces the message's
// old picture, or drops it when the edit has none.
func boardEdit(resp Response) *WireMessage {
	m := resp.message(true)
	if m.Attachments == nil {
		m.Attachments = &[]WireAttachment{}
	}
	return m
}

// editBoard edits the board message: through the interaction's token while
// it lives, else by the message's ID where the bot may; else nothing, and
// the next interaction shows the result.
func (b *Bot) editBoard(ctx context.Context, channel string, shown table.Shown, now time.Time, edit *WireMessage) {
	body, err := edit.JSON()
	if err != nil {
		b.log.ErrorContext(ctx, "clock: encoding the board's edit failed", "channel", channel, "err", err)
		return
	}
	if shown.Token != "" && now.Sub(shown.At) < tokenLife {
		err := b.editor.EditOriginal(ctx, shown.App, shown.Token, body, edit.Files)
		if err == nil {
			return
		}
		b.log.WarnContext(ctx, "clock: editing the board through the interaction failed", "channel", channel, "err", err)
	}
	if shown.Message == "" {
		return
	}
	if err := b.editor.EditMessage(ctx, channel, shown.Message, body, edit.Files); err != nil {
		b.log.WarnContext(ctx, "clock: editing the board message failed", "channel", channel, "message", shown.Message, "err", err)
	}
}
