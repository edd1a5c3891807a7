package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle/progress"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/token"
	"github.com/tttbot/tttbot/tournament"
)

// sentinelKeys are the refusals whose sentence needs nothing but the error:
// checked in order, first match wins (more specific errors first).
var sentinelKeys = []struct {
	err error
	key string
}{
	{table.ErrExpired, "refuse.expired"},
	{table.ErrNoGame, "refuse.no_game"},
	{table.ErrStarted, "refuse.started"},
	{table.ErrSeated, "refuse.seated"},
	{table.ErrNotSeated, "refuse.not_seated"},
	{game.ErrNotPlayer, "refuse.not_seated"},
	{table.ErrResigned, "refuse.resigned"},
	{table.ErrNoRematch, "refuse.no_rematch"},
	{table.ErrNotInLastGame, "refuse.not_in_last_game"},
	{table.ErrConflict, "refuse.conflict"},
	{table.ErrDuplicate, "refuse.duplicate"},
	{progress.ErrDuplicate, "refuse.duplicate"},
	{progress.ErrStale, "refuse.puzzle_stale"},
	{progress.ErrNoPuzzle, "refuse.no_puzzle"},
	{table.ErrUnknownGame, "refuse.unknown_game"},
	{table.ErrNoFinishedGame, "refuse.no_finished_game"},
	{table.ErrPrivateGame, "refuse.private_game"},
	{table.ErrPrivateHistory, "refuse.private_history"},
	{ErrMalformed, "refuse.malformed"},
	{table.ErrSeatsReserved, "refuse.seats_reserved"},
	{table.ErrAlreadyChallenged, "refuse.already_challenged"},
	{table.ErrNotInvited, "refuse.not_invited"},
	{ErrSelfOpponent, "refuse.self_opponent"},
	{ErrBotOpponent, "refuse.bot_opponent"},
	{ErrStale, "refuse.stale"},
	{ErrOldButton, "refuse.old_button"},
	{ErrUnknown, "refuse.unknown"},
	{table.ErrClock, "refuse.clock"},
	{game.ErrGameOver, "refuse.game_over"},
	{game.ErrColumnFull, "refuse.column_full"},
}

// tokenKeys words each part of the token rule.
var tokenKeys = map[token.Rule]string{
	token.OneCharacter:  "refuse.token.not_one_character",
	token.Visible:       "refuse.token.invisible",
	token.NotAMark:      "refuse.token.mark",
	token.OneColumn:     "refuse.token.not_one_column",
	token.NotReserved:   "refuse.token.reserved",
	token.NoDigits:      "refuse.token.digit",
	token.NotTaken:      "refuse.token.taken",
	token.NotConfusable: "refuse.token.confusable",
	token.NotTooLong:    "refuse.token.too_long",
	token.CustomEmoji:   "refuse.token.custom",
}

// threadReasonKeys words why no thread could be made.
var threadReasonKeys = [...]string{
	ThreadInDM:         "refuse.thread.dm",
	ThreadNotInstalled: "refuse.thread.not_installed",
	ThreadNoPermission: "refuse.thread.permission",
	ThreadNested:       "refuse.thread.nested",
	ThreadChannelType:  "refuse.thread.channel_type",
	ThreadNoToken:      "refuse.thread.no_token",
	ThreadRateLimited:  "refuse.thread.rate_limited",
	ThreadFailed:       "refuse.thread.failed",
}

var optionKeys = map[OptionWant]string{
	WantWholeNumber: "refuse.option.int",
	WantEngine:      "refuse.option.engine",
	WantLevel:       "refuse.option.ai",
	WantUser:        "refuse.option.user",
	WantDeclared:    "refuse.option.type",
}

// challengeClosedKeys word why a challenge can no longer be answered.
var challengeClosedKeys = map[table.EndReason]string{
	table.NotEnded:   "refuse.challenge_closed.accepted",
	table.Declined:   "refuse.challenge_closed.declined",
	table.Withdrawn:  "refuse.challenge_closed.withdrawn",
	table.Unanswered: "refuse.challenge_closed.lapsed",
}

// explain turns an error a user caused into the key and data of the sentence
// they read, saying what was wrong and what to do, in w's words (some data
// are phrases: a seat, the computer). dm is whether the interaction came
// from a DM, where nobody can manage messages. known is false for errors no
// user caused.
func explain(w *locales.Speaker, dm bool, err error) (key string, data locales.Data, known bool) {
	var (
		rulesErr  *RulesRefusal
		tokenErr  *token.Error
		lobbyErr  *table.LobbyError
		allowErr  *table.NotAllowedError
		turnErr   *table.TurnError
		posErr    *table.PositionError
		optionErr *OptionError
		timeErr   *table.TimeUpError
		threadErr *ThreadError
	)
	if key, data, ok := explainChallenge(w, err); ok {
		return key, data, true
	}
	if key, data, ok := explainTournament(err); ok {
		return key, data, true
	}
	if errors.As(err, &posErr) {
		if key, data, ok := explainPosition(posErr); ok {
			return key, data, true
		}
	}
	switch {
	case errors.As(err, &threadErr):
		key, data := explainThread(threadErr)
		return key, data, true
	case errors.As(err, &optionErr) && optionErr.Want == WantUser && optionErr.Option == optOpponent:
		return "refuse.opponent", nil, true // says how to play the computer instead
	case errors.As(err, &timeErr):
		key := "refuse.time_up"
		if timeErr.Out {
			key = "refuse.time_up_out"
		}
		return key, locales.Data{"Seat": seatName(w, timeErr.Seat), "When": discordTime(timeErr.At, "R")}, true
	case errors.As(err, &rulesErr):
		return explainRules(rulesErr)
	case errors.As(err, &tokenErr):
		return explainToken(tokenErr)
	case errors.As(err, &lobbyErr):
		return "refuse.lobby", locales.Data{"Count": lobbyErr.Open}, true
	case errors.As(err, &allowErr):
		if dm {
			return "refuse.not_allowed.dm", locales.Data{"Creator": mention(allowErr.Creator)}, true
		}
		return "refuse.not_allowed", locales.Data{"Creator": mention(allowErr.Creator)}, true
	case errors.Is(err, table.ErrGameOpen):
		if dm {
			return "refuse.game_open.dm", nil, true
		}
		return "refuse.game_open", nil, true
	case errors.As(err, &turnErr):
		return "refuse.not_your_turn", locales.Data{"Token": turnErr.Next.Token, "Who": who(w, turnErr.Next)}, true
	case errors.As(err, &optionErr) && optionErr.Want == WantWholeNumber && optionErr.Min == optionErr.Max:
		return "refuse.option.int_any", locales.Data{"Option": optionErr.Option}, true // no range in intBounds
	case errors.As(err, &optionErr):
		return optionKeys[optionErr.Want], locales.Data{"Option": optionErr.Option, "Min": optionErr.Min, "Max": optionErr.Max}, true
	case errors.Is(err, game.ErrCellTaken):
		return "refuse.cell_taken", nil, true
	}
	for _, s := range sentinelKeys {
		if errors.Is(err, s.err) {
			return s.key, nil, true
		}
	}
	return "refuse.internal", nil, false
}

// explainChallenge words what a challenge's rules refused: an answer from
// someone not invited or to a challenge that is over, a challenger past the
// limits, a move before the invited have accepted. ok is false for any other
// error.
func explainChallenge(w *locales.Speaker, err error) (key string, data locales.Data, ok bool) {
	var (
		notInvErr *table.NotInvitedError
		closedErr *table.ChallengeClosedError
		lobbyErr  *table.LobbyError
	)
	switch {
	case errors.As(err, &notInvErr):
		return "refuse.not_invited", locales.Data{"Invitees": invitees(w, notInvErr.Invitees)}, true
	case errors.As(err, &closedErr) && challengeClosedKeys[closedErr.Why] != "":
		return challengeClosedKeys[closedErr.Why], nil, true
	case errors.Is(err, table.ErrTooManyChallenges):
		return "refuse.too_many_challenges", locales.Data{"Count": table.MaxOpenChallenges}, true
	case errors.As(err, &lobbyErr) && len(lobbyErr.Invitees) > 0:
		return "refuse.lobby.challenge", locales.Data{"Invitees": invitees(w, lobbyErr.Invitees)}, true
	}
	return "", nil, false
}

// tournamentKeys word the refusals of /ttt tournament that need nothing
// but the error, first match wins.
var tournamentKeys = []struct {
	err error
	key string
}{
	{ErrTournamentDM, "refuse.tournament.dm"},
	{ErrTournamentOpen, "refuse.tournament.open"},
	{ErrNoTournament, "refuse.tournament.none"},
	{ErrTournamentBot, "refuse.tournament.bot"},
	{tournament.ErrAlreadyJoined, "refuse.tournament.joined"},
	{tournament.ErrNotJoined, "refuse.tournament.not_joined"},
	{tournament.ErrAlreadyLeft, "refuse.tournament.left"},
	{tournament.ErrFull, "refuse.tournament.full"},
	{tournament.ErrStarted, "refuse.tournament.started"},
	{tournament.ErrFinished, "refuse.tournament.finished"},
	{tournament.ErrRoundsOnlySwiss, "refuse.tournament.rounds"},
	{table.ErrTournamentGame, "refuse.tournament.game"},
}

// explainTournament words what /ttt tournament refused; ok is false for
// any other error.
func explainTournament(err error) (key string, data locales.Data, ok bool) {
	var (
		orgErr *NotOrganiserError
		fewErr *TooFewError
	)
	switch {
	case errors.As(err, &orgErr):
		return "refuse.tournament.not_organiser", locales.Data{"Organiser": mention(orgErr.Organiser)}, true
	case errors.As(err, &fewErr):
		return "refuse.tournament.too_few", locales.Data{"N": fewErr.Joined}, true
	}
	for _, s := range tournamentKeys {
		if errors.Is(err, s.err) {
			return s.key, nil, true
		}
	}
	return "", nil, false
}

// explainPosition words a position the board refused: a taken cell, off
// the board, or unreadable, each with the coordinates this board takes. ok
// is false for a position error of another kind.
func explainPosition(e *table.PositionError) (key string, data locales.Data, ok bool) {
	r := e.Rules
	switch {
	case errors.Is(e, game.ErrCellTaken) && r.IsClassic(): // empty cells show their numbers there
		return "refuse.cell_taken.numbered", nil, true
	case errors.Is(e, game.ErrCellTaken):
		return "refuse.cell_taken", nil, true
	case errors.Is(e, game.ErrOutOfBounds) && r.Gravity:
		return "refuse.off_board.gravity", locales.Data{"MaxCol": r.Cols - 1}, true
	case errors.Is(e, game.ErrOutOfBounds) && r.IsClassic():
		return "refuse.off_board.classic", nil, true
	case errors.Is(e, game.ErrOutOfBounds):
		return "refuse.off_board", locales.Data{"MaxRow": r.Rows - 1, "MaxCol": r.Cols - 1}, true
	case errors.Is(e, game.ErrBadPosition) && r.Gravity:
		return "refuse.unreadable.gravity", locales.Data{"MaxCol": r.Cols - 1}, true
	case errors.Is(e, game.ErrBadPosition):
		return "refuse.unreadable", nil, true
	}
	return "", nil, false
}

// explainThread words a ThreadError.
func explainThread(e *ThreadError) (string, locales.Data) {
	data := locales.Data{}
	switch e.Reason {
	case ThreadNested:
		data["Parent"] = channelMention(e.Parent)
	case ThreadRateLimited:
		data["Count"] = max(1, int((e.RetryAfter+time.Second-1)/time.Second))
	}
	return threadReasonKeys[e.Reason], data
}

// explainToken words a broken token rule: which rule, the token as typed (in
// a code span: the user wrote it), what it clashes with and a free token.
func explainToken(e *token.Error) (string, locales.Data, bool) {
	data := locales.Data{"Token": locales.Code(e.Token), "Clash": locales.Code(e.Clash), "Suggest": locales.Code(e.Suggest)}
	if r := []rune(e.Token); len(r) > 0 {
		data["CodePoint"] = fmt.Sprintf("U+%04X", r[0])
	}
	key, ok := tokenKeys[e.Rule]
	switch {
	case !ok:
		return "refuse.internal", nil, false
	case e.Suggest == "":
		return "refuse.token.none_free", data, true
	case e.Rule == token.OneCharacter && isBlank(e.Token):
		return "refuse.token.blank", data, true
	}
	return key, data, true
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

// explainRules words rules that /ttt new cannot play, naming the bound.
func explainRules(e *RulesRefusal) (string, locales.Data, bool) {
	r := e.Rules
	if errors.Is(e.Err, ErrUnwinnable) {
		return "refuse.rules.unwinnable", locales.Data{"Players": r.Players, "Rows": r.Rows, "Cols": r.Cols, "Win": r.Win, "Count": mostPlaced(r)}, true
	}
	var re *game.RulesError
	if !errors.As(e.Err, &re) {
		return "refuse.internal", nil, false
	}
	b, ok := intBounds[re.Field]
	switch {
	case !ok:
		return "refuse.internal", nil, false
	case re.Value < b.min || re.Value > b.max:
		return "refuse.rules.range", locales.Data{"Option": re.Field, "Min": b.min, "Max": b.max}, true
	case re.Field == optWin && r.Win > r.Rows:
		return "refuse.rules.win_rows", locales.Data{"Rows": r.Rows}, true
	case re.Field == optWin:
		return "refuse.rules.win_cols", locales.Data{"Cols": r.Cols}, true
	}
	return "refuse.internal", nil, false
}

// refuse is the one place errors become replies: what a user caused is
// explained to them alone, in their own language; anything else is logged
// with its context and shown as one polite line.
func (b *Bot) refuse(ctx context.Context, in *Interaction, err error) (resp Response, known bool) {
	w := in.Private
	if w == nil {
		w = b.words.For(in.Locale)
	}
	key, data, known := explain(w, in.DM(), err)
	attrs := []any{"err", err, "interaction", in.ID, "channel", in.Channel, "guild", in.Guild, "route", in.Route.String(), "user", in.User}
	if known {
		b.log.DebugContext(ctx, "interaction refused", attrs...)
	} else {
		b.log.ErrorContext(ctx, "interaction failed", attrs...)
	}
	return ephemeral(say(w, key, data)), known
}

// say says key with data; a sentence with a {{.Count}} counts it, so its
// plural form follows the count.
func say(w *locales.Speaker, key string, data locales.Data) string {
	if n, ok := data["Count"].(int); ok {
		return w.SayN(key, n, data)
	}
	return w.Say(key, data)
}
