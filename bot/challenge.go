package bot

import (
	"context"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// Challenges, the bot's side: /ttt new opponent:@bob posts an invitation
// that mentions bob, with Accept and Decline buttons; the game starts when
// bob accepts (the button, or /ttt join), and a decline, a withdrawal
// (/ttt end by the challenger) or the invitation lapsing ends it with
// nothing played, rated or kept. Package table holds the rules and applies
// the lapse once; this file has the words and the message edits.

// challenge opens t's challenge to invitee, made by the creator already
// seated: the invitee's seat is held until the invitation lapses, and the
// challenger's open invitations stay within the limits.
func (b *Bot) challenge(ctx context.Context, t *table.Table, invitee string) error {
	expires := b.tables.Now().Add(b.challengeTimeout)
	if err := b.tables.ReserveChallenge(ctx, t.Creator, invitee, t.Channel, expires); err != nil {
		return err
	}
	return t.Invite([]string{invitee}, expires)
}

// invitees are the people t's challenge is waiting for, as mentions.
func invitees(w *locales.Speaker, users []string) string {
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = mention(u)
	}
	return strings.Join(names, w.Say("list.separator", nil))
}

// challengeText is the invitation: who challenges whom to what, the seats
// (those held for the invited people among them), the clock, and what to do.
func challengeText(w *locales.Speaker, t *table.Table) string {
	return lobbyText(w, t, w.Say("challenge.new", locales.Data{"Challenger": mention(t.Creator), "Invitees": invitees(w, t.Invitees)}))
}

// challengeEnd says how a challenge ended without a game: declined,
// withdrawn or left unanswered.
func challengeEnd(w *locales.Speaker, t *table.Table, by string) string {
	data := locales.Data{"Challenger": mention(t.Creator), "Invitees": invitees(w, t.Challenged), "User": mention(by)}
	switch t.EndReason {
	case table.Declined:
		return w.Say("challenge.declined", data)
	case table.Withdrawn:
		return w.Say("challenge.withdrawn", data)
	}
	return w.Say("challenge.lapsed", data)
}

// challengeButtons are Accept and Decline, and Join while a seat is free
// for anyone.
func challengeButtons(w *locales.Speaker, t *table.Table) []discordgo.MessageComponent {
	stamp := gameStamp(t)
	row := []discordgo.MessageComponent{
		discordgo.Button{Label: w.Say("button.accept", nil), Style: discordgo.SuccessButton, CustomID: buttonID(ButtonAccept, stamp)},
		discordgo.Button{Label: w.Say("button.decline", nil), Style: discordgo.DangerButton, CustomID: buttonID(ButtonDecline, stamp)},
	}
	if len(t.Seats)+len(t.Invitees) < t.Rules.Players {
		row = append(row, discordgo.Button{Label: w.Say("button.join", nil), Style: discordgo.PrimaryButton, CustomID: buttonID(ButtonJoin, stamp)})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// answering returns the table a button on the invitation for game number
// game answers, or why it cannot be answered from that message.
func answering(cur *table.Table, game int) (*table.Table, error) {
	if cur == nil || game != cur.Number {
		return nil, ErrStale // a message of an earlier game in this channel
	}
	return cur, nil
}

func (b *Bot) clickAccept(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := answering(cur, in.Vars.Int("game"))
	if err != nil {
		return nil, Response{}, err
	}
	if err := t.Accept(in.User, "", b.tables.Now()); err != nil {
		return nil, Response{}, err
	}
	t, resp, err := b.accepted(ctx, in, t)
	resp.Kind = Update // the invitation becomes the board
	return t, resp, err
}

// accepted is the reply to an accepted challenge: the board when the game
// has started, else the invitation still waiting for the others.
func (b *Bot) accepted(ctx context.Context, in *Interaction, t *table.Table) (*table.Table, Response, error) {
	w := in.Public
	headline := w.Say("challenge.accepted", locales.Data{"User": mention(in.User), "Challenger": mention(t.Creator)})
	if t.Phase == table.Playing {
		return b.afterAction(ctx, w, t, headline+"\n"+headlineStart(w, t))
	}
	return t, public(lobbyText(w, t, headline)), nil
}

func (b *Bot) clickDecline(_ context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := answering(cur, in.Vars.Int("game"))
	if err != nil {
		return nil, Response{}, err
	}
	if err := t.Decline(in.User, b.tables.Now()); err != nil {
		return nil, Response{}, err
	}
	resp := public(challengeEnd(in.Public, t, in.User))
	resp.Kind = Update // the invitation says it was declined
	return t, resp, nil
}

// withdrawn is /ttt end's reply when it withdrew a challenge: said in the
// channel, and the invitation message edited to say it too (after the save,
// in the background).
func (b *Bot) withdrawn(in *Interaction, t *table.Table) Response {
	text := challengeEnd(in.Public, t, in.User)
	resp := public(text)
	if b.canEditShown(t) {
		resp.afterSave = b.editShown(t, func() *WireMessage { return endedEdit(text) })
	}
	return resp
}

// challengeLapsed is table's ChallengeLapsedFunc: once the lapse is saved,
// the invitation message is edited to say nobody answered, in the language
// it was written in.
func (b *Bot) challengeLapsed(_ context.Context, t *table.Table) (func(context.Context), error) {
	if !b.canEditShown(t) {
		return nil, nil // the next interaction in the channel finds it ended
	}
	text := challengeEnd(b.words.For(t.Shown.Locale), t, "")
	return b.editShown(t, func() *WireMessage { return endedEdit(text) }), nil
}

// endedEdit turns an invitation into text alone, a neutral card without
// buttons.
func endedEdit(text string) *WireMessage {
	resp := public(text)
	resp.Card, resp.Accent = true, neutralAccent
	return boardEdit(resp)
}

// outlivesToken reports whether t's open clock or challenge may end after
// the interaction token that showed it has expired: its message's ID is
// then needed to edit it.
func outlivesToken(t *table.Table, challengeTimeout time.Duration) bool {
	if t.Challenging() {
		return challengeTimeout > tokenLife
	}
	return t.MoveClock() > tokenLife
}
