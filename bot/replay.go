package bot

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// replay sends a finished game as an animated GIF, a frame a move: the game
// whose id game: names (from /ttt history), or this channel's last one. A
// game from elsewhere is replayed only for its players (VisibleTo).
func (b *Bot) replay(ctx context.Context, in *Interaction) (Response, error) {
	st := b.records
	var (
		f     table.Finished
		found bool
		err   error
	)
	if in.Has(optGame) {
		id, ok := parseGameID(in.String(optGame))
		if !ok {
			return Response{}, table.ErrUnknownGame
		}
		if f, found, err = st.FinishedGame(ctx, id); err == nil && !found {
			return Response{}, table.ErrUnknownGame
		}
	} else if f, found, err = st.LastFinished(ctx, in.Channel); err == nil && !found {
		return Response{}, table.ErrNoFinishedGame
	}
	if err != nil {
		return Response{}, err
	}
	if err := f.VisibleTo(in.Guild, in.Channel, in.User); err != nil {
		return Response{}, err
	}
	g, err := f.Game()
	if err != nil { // a result recorded before moves were kept has none to replay
		return Response{}, fmt.Errorf("%w: game %d: %v", table.ErrUnknownGame, f.ID, err)
	}
	resp, look := public(replayText(in.Public, f)), b.look(f.Result.Tokens)
	resp.Files = []File{{Name: fmt.Sprintf("game-%d.gif", f.ID), ContentType: "image/gif",
		Write: func(w io.Writer) error { return look.ReplayGIF(w, g) }}}
	resp.NoFiles = in.Public.Say("status.no_replay", nil)
	return resp, nil
}

// parseGameID reads a game id as history shows it, with or without "#".
func parseGameID(s string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64)
	return id, err == nil && id > 0
}

// replayText introduces a replay: which game, when, who played, the rules
// and how it ended.
func replayText(w *locales.Speaker, f table.Finished) string {
	r := f.Result
	seats := make([]string, len(r.Players))
	for i, p := range r.Players {
		seats[i] = w.Say("seat", locales.Data{"Token": r.Tokens[i], "Who": playerName(w, p)})
	}
	ending := w.Say("replay.draw", nil)
	if r.Winner != game.NoPlayer {
		ending = w.Say("replay.won", locales.Data{"Seat": seats[r.Winner]})
	}
	return strings.Join([]string{
		w.Say("replay.title", locales.Data{"ID": f.ID, "When": f.At.Unix(), "Seats": strings.Join(seats, w.Say("board.versus", nil))}),
		w.SayN("replay.rules", r.Moves, locales.Data{"Rules": gameKindLine(w, r)}),
		ending,
	}, "\n")
}
