package bot

import (
	"context"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// History pages: historyPage games a page; at most historyOpponents
// opponents named a game (the rest counted), so a page of ten-player games
// stays within a message.
const (
	historyPage      = 8
	historyOpponents = 3
)

// history lists a player's finished games, newest first, a page at a time:
// in a server, the games played in it; in a DM, only the caller's own, from
// everywhere (see table.Finished.VisibleTo).
func (b *Bot) history(ctx context.Context, in *Interaction) (Response, error) {
	user, err := in.UserOrCaller(optUser)
	if err != nil {
		return Response{}, err
	}
	return b.historyPage(ctx, in, user, 0)
}

// clickHistory turns a history message to another page.
func (b *Bot) clickHistory(ctx context.Context, in *Interaction) (Response, error) {
	resp, err := b.historyPage(ctx, in, in.Vars.Text("user"), max(in.Vars.Int("offset"), 0))
	resp.Kind = Update
	return resp, err
}

func (b *Bot) historyPage(ctx context.Context, in *Interaction, user string, offset int) (Response, error) {
	w := in.Public
	scope := in.Guild
	if scope == "" {
		if user != in.User {
			return Response{}, table.ErrPrivateHistory
		}
		scope = table.Everywhere
	}
	// One more than a page: whether there is an older page.
	games, err := b.records.History(ctx, table.HistoryQuery{Player: user, Scope: scope, Offset: offset, Limit: historyPage + 1})
	if err != nil {
		return Response{}, err
	}
	if len(games) == 0 && offset == 0 {
		key := "history.none.server"
		if scope == table.Everywhere {
			key = "history.none.everywhere"
		}
		return public(w.Say(key, locales.Data{"User": mention(user)})), nil
	}
	older := len(games) > historyPage
	games = games[:min(len(games), historyPage)]
	lines := []string{w.Say("history.title", locales.Data{"User": mention(user), "Page": offset/historyPage + 1})}
	for _, f := range games {
		lines = append(lines, historyLine(w, f, user))
	}
	lines = append(lines, w.Say("history.replay_hint", nil))
	resp := public(strings.Join(lines, "\n"))
	resp.Components = []discordgo.MessageComponent{} // an update with no more pages clears the buttons
	if offset > 0 || older {
		resp.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: w.Say("button.newer", nil), Style: discordgo.SecondaryButton, Disabled: offset == 0,
				CustomID: buttonID(ButtonHistory, user, strconv.Itoa(max(offset-historyPage, 0)))},
			discordgo.Button{Label: w.Say("button.older", nil), Style: discordgo.SecondaryButton, Disabled: !older,
				CustomID: buttonID(ButtonHistory, user, strconv.Itoa(offset+historyPage))},
		}}}
	}
	return resp, nil
}

// historyLine is one game of a player's history: id, date, how it ended for
// them, against whom, and the kind of game.
func historyLine(w *locales.Speaker, f table.Finished, user string) string {
	r := f.Result
	seat := f.Seat(user)
	finish := r.Finish(seat)
	var names []string
	for i, p := range r.Players {
		if i != seat {
			names = append(names, playerName(w, p))
		}
	}
	if extra := len(names) - historyOpponents; extra > 0 {
		names = append(names[:historyOpponents], w.SayN("history.more", extra, nil))
	}
	return w.Say("history.line", locales.Data{"ID": f.ID, "When": f.At.Unix(),
		"Result":    w.Say("finish."+finish.String(), nil),
		"Opponents": strings.Join(names, w.Say("history.separator", nil)),
		"Kind":      gameKindLine(w, r)})
}

// gameKindLine names a finished game's kind: the named kinds by name, any
// other by its rules.
func gameKindLine(w *locales.Speaker, r table.Result) string {
	if k := r.Kind(); k != table.KindOther {
		return kindName(w, k)
	}
	return rulesLine(w, r.Rules, game.Fast)
}
