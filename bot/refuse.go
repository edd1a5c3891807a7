package bot

import (
	"context"
	"errors"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// sentinelKeys are the refusals whose sentence needs nothing but the error:
// checked in order, first match wins (more specific errors first).
var sentinelKeys = []struct {
	err error
	key string
}{
	{table.ErrExpired, "refuse.expired"},
	{table.ErrNoGame, "refuse.no_game"},
	{table.ErrGameOpen, "refuse.game_open"},
	{table.ErrStarted, "refuse.started"},
	{table.ErrSeated, "refuse.seated"},
	{table.ErrNotSeated, "refuse.not_seated"},
	{game.ErrNotPlayer, "refuse.not_seated"},
	{table.ErrResigned, "refuse.resigned"},
	{table.ErrNoRematch, "refuse.no_rematch"},
	{table.ErrNotInLastGame, "refuse.not_in_last_game"},
	{table.ErrConflict, "refuse.conflict"},
	{ErrSelfOpponent, "refuse.self_opponent"},
	{ErrBotOpponent, "refuse.bot_opponent"},
	{ErrStale, "refuse.stale"},
	{ErrOldButton, "refuse.old_button"},
	{ErrUnknown, "refuse.unknown"},
	{table.ErrClock, "refuse.clock"},
	{game.ErrGameOver, "refuse.game_over"},
	{game.ErrCellTaken, "refuse.cell_taken"},
	{game.ErrColumnFull, "refuse.column_full"},
}

var optionKeys = map[OptionWant]string{
	WantWholeNumber: "refuse.option.int",
	WantEngine:      "refuse.option.engine",
	WantLevel:       "refuse.option.ai",
}

// explain turns an error a user caused into the key and data of the sentence
// they read, saying what was wrong and what to do. known is false for errors
// no user caused.
func explain(err error) (key string, data locales.Data, known bool) {
	var (
		rulesErr  *game.RulesError
		tokenErr  *game.TokenError
		takenErr  *table.TokenTakenError
		lobbyErr  *table.LobbyError
		allowErr  *table.NotAllowedError
		turnErr   *table.TurnError
		posErr    *table.PositionError
		optionErr *OptionError
		timeErr   *table.TimeUpError
	)
	switch {
	case errors.As(err, &timeErr):
		key := "refuse.time_up"
		if timeErr.Out {
			key = "refuse.time_up_out"
		}
		return key, locales.Data{"Seat": seatName(timeErr.Seat), "When": discordTime(timeErr.At, "R")}, true
	case errors.As(err, &rulesErr):
		return "refuse.rules", locales.Data{"Field": rulesErr.Field, "Reason": rulesErr.Reason}, true
	case errors.As(err, &tokenErr):
		return "refuse.token", locales.Data{"Reason": tokenErr.Reason}, true
	case errors.As(err, &takenErr):
		return "refuse.token_taken", locales.Data{"Free": string(takenErr.Free)}, true
	case errors.As(err, &lobbyErr):
		return "refuse.lobby." + locales.PluralForm(lobbyErr.Open), locales.Data{"Count": lobbyErr.Open}, true
	case errors.As(err, &allowErr):
		return "refuse.not_allowed", locales.Data{"Creator": mention(allowErr.Creator)}, true
	case errors.As(err, &turnErr):
		return "refuse.not_your_turn", locales.Data{"Token": turnErr.Next.Token, "Who": who(turnErr.Next)}, true
	case errors.As(err, &optionErr):
		return optionKeys[optionErr.Want], locales.Data{"Option": optionErr.Option}, true
	case errors.As(err, &posErr) && errors.Is(err, game.ErrOutOfBounds):
		r := posErr.Rules
		switch {
		case r.Gravity:
			return "refuse.off_board.gravity", locales.Data{"MaxCol": r.Cols - 1}, true
		case r.IsClassic():
			return "refuse.off_board.classic", nil, true
		}
		return "refuse.off_board", locales.Data{"MaxRow": r.Rows - 1, "MaxCol": r.Cols - 1}, true
	case errors.As(err, &posErr) && errors.Is(err, game.ErrBadPosition):
		if posErr.Rules.Gravity {
			return "refuse.unreadable.gravity", locales.Data{"MaxCol": posErr.Rules.Cols - 1}, true
		}
		return "refuse.unreadable", nil, true
	}
	for _, s := range sentinelKeys {
		if errors.Is(err, s.err) {
			return s.key, nil, true
		}
	}
	return "refuse.internal", nil, false
}

// refuse is the one place errors become replies: what a user caused is
// explained to them alone; anything else is logged with its context and
// shown as one polite line.
func (b *Bot) refuse(ctx context.Context, in *Interaction, err error) (resp Response, known bool) {
	key, data, known := explain(err)
	attrs := []any{"err", err, "interaction", in.ID, "channel", in.Channel, "guild", in.Guild, "route", in.Route.String(), "user", in.User}
	if known {
		b.log.DebugContext(ctx, "interaction refused", attrs...)
	} else {
		b.log.ErrorContext(ctx, "interaction failed", attrs...)
	}
	return ephemeral(locales.Say(key, data)), known
}
