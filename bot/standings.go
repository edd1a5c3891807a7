package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// leaderboardSize is how many players /ttt leaderboard lists.
const leaderboardSize = 10

// stats is a player's record in this server, then their rating in each kind
// of game they have rated games in: in this server, and everywhere; then,
// once they have finished a counted puzzle try, their puzzles: solves,
// daily streak (current and best) and puzzle rating, which are the same
// everywhere.
func (b *Bot) stats(ctx context.Context, in *Interaction) (Response, error) {
	w := in.Public
	user, err := in.UserOrCaller(optUser)
	if err != nil {
		return Response{}, err
	}
	st := b.records
	t, err := st.Tally(ctx, in.Guild, user)
	if err != nil {
		return Response{}, err
	}
	lines := []string{statsText(w, in.DM(), user, t)}
	for _, scope := range ratingScopes(in.Guild) {
		ratings, err := st.Ratings(ctx, scope, user)
		if err != nil {
			return Response{}, err
		}
		key := "stats.rating.server"
		if scope == table.Everywhere {
			key = "stats.rating.everywhere"
		}
		for _, r := range ratings {
			lines = append(lines, w.Say(key, locales.Data{"Kind": kindName(w, r.Kind), "Rating": r.Display(),
				"Games": r.Games, "GamesWord": w.SayN("stats.rated_games", r.Games, nil)}))
		}
	}
	puzzles, err := b.puzzles.Load(ctx, user)
	if err != nil {
		return Response{}, err
	}
	if puzzles.Rated > 0 {
		lines = append(lines, w.Say("stats.puzzles", locales.Data{"Solved": puzzles.Solved,
			"Streak": puzzles.CurrentStreak(b.tables.Now()), "Best": puzzles.Best, "Rating": puzzles.RatingFigure()}))
	}
	return public(strings.Join(lines, "\n")), nil
}

// ratingScopes are the scopes stats shows: the server's and everywhere (in
// a DM only everywhere).
func ratingScopes(guild string) []string {
	if guild == "" {
		return []string{table.Everywhere}
	}
	return []string{guild, table.Everywhere}
}

// leaderboard ranks players by rating in one kind of game (kind:, or the
// first kind with rated games) in this server or everywhere (scope:).
func (b *Bot) leaderboard(ctx context.Context, in *Interaction) (Response, error) {
	w := in.Public
	scope := in.Guild
	if in.String(optScope) == scopeEverywhere || scope == "" {
		scope = table.Everywhere
	}
	kinds := table.Kinds()
	if in.Has(optKind) {
		k, ok := table.ParseKind(in.String(optKind))
		if !ok {
			return Response{}, fmt.Errorf("%w: kind %q", ErrUnknown, in.String(optKind)) // Discord offers only the choices
		}
		kinds = []table.Kind{k}
	}
	for _, k := range kinds {
		board, err := b.records.RatingBoard(ctx, scope, k, leaderboardSize)
		if err != nil {
			return Response{}, err
		}
		if len(board) > 0 {
			return public(ratingBoardText(w, scope, k, board)), nil
		}
	}
	key := "leaderboard.unrated.server"
	if scope == table.Everywhere {
		key = "leaderboard.unrated.everywhere"
	}
	return public(w.Say(key, nil)), nil
}

func ratingBoardText(w *locales.Speaker, scope string, k table.Kind, board []table.Standing) string {
	key := "leaderboard.rated.server"
	if scope == table.Everywhere {
		key = "leaderboard.rated.everywhere"
	}
	lines := []string{w.Say(key, locales.Data{"Kind": kindName(w, k)})}
	for i, s := range board {
		lines = append(lines, w.Say("leaderboard.rating_line", locales.Data{"N": i + 1, "Player": playerName(w, s.Player),
			"Rating": s.Display(), "Games": s.Games, "GamesWord": w.SayN("stats.rated_games", s.Games, nil)}))
	}
	return strings.Join(lines, "\n")
}

// kindName is a kind of game as players read it.
func kindName(w *locales.Speaker, k table.Kind) string { return w.Say("kind."+k.String(), nil) }
