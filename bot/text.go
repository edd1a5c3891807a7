package bot

import (
	"strings"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// The pieces of public messages, each a lookup in words.go.

func mention(user string) string { return "<@" + user + ">" }

// seatName is a player as shown in messages: token and who.
func seatName(s table.Seat) string {
	return locales.Say("seat", locales.Data{"Token": s.Token, "Who": who(s)})
}

// who names a seat's occupant: a mention, or the computer and its level.
func who(s table.Seat) string {
	if s.Kind.Computer() {
		return locales.Say("computer", locales.Data{"Level": s.Kind.String()})
	}
	return mention(s.User)
}

// playerName shows a standings ID: a mention, or the computer.
func playerName(id string) string {
	if level, ok := strings.CutPrefix(id, "ai:"); ok {
		return locales.Say("computer", locales.Data{"Level": level})
	}
	return mention(id)
}

// rulesLine describes a game's rules in one line.
func rulesLine(r game.Rules, e game.Engine) string {
	parts := []string{
		locales.Say("rules.size", locales.Data{"Rows": r.Rows, "Cols": r.Cols}),
		locales.Say("rules.win", locales.Data{"Win": r.Win}),
		locales.Say("rules.players", locales.Data{"Players": r.Players}),
	}
	if r.Gravity {
		parts = append(parts, locales.Say("rules.gravity", nil))
	}
	if e == game.Compact {
		parts = append(parts, locales.Say("rules.compact", nil))
	}
	return strings.Join(parts, locales.Say("rules.separator", nil))
}

// howToMove is the hint for the player whose turn it is.
func howToMove(r game.Rules) string {
	switch {
	case r.Gravity:
		return locales.Say("hint.gravity", locales.Data{"MaxCol": r.Cols - 1})
	case r.IsClassic():
		return locales.Say("hint.classic", nil)
	}
	return locales.Say("hint.free", locales.Data{"MaxRow": r.Rows - 1, "MaxCol": r.Cols - 1})
}

// lobbyText lists the seats of a table still waiting for players.
func lobbyText(t *table.Table, headline string) string {
	lines := []string{headline, locales.Say("lobby.game", locales.Data{"Rules": rulesLine(t.Rules, t.Engine)})}
	for i := 0; i < t.Rules.Players; i++ {
		if i < len(t.Seats) {
			lines = append(lines, locales.Say("lobby.seat", locales.Data{"N": i + 1, "Seat": seatName(t.Seats[i])}))
		} else {
			lines = append(lines, locales.Say("lobby.open_seat", locales.Data{"N": i + 1}))
		}
	}
	lines = append(lines, locales.SayN("lobby.waiting", t.Rules.Players-len(t.Seats), nil))
	return strings.Join(lines, "\n")
}

// statusLine says how the game stands: whose turn, who won, or a draw.
func statusLine(t *table.Table) string {
	g := t.Game()
	switch g.State() {
	case game.Won:
		w := t.Seats[g.Winner()]
		if g.WinningLine() == nil {
			return locales.Say("status.won_resigned", locales.Data{"Token": w.Token, "Who": who(w)})
		}
		return locales.Say("status.won", locales.Data{"Token": w.Token, "Who": who(w)})
	case game.Drawn:
		return locales.Say("status.draw", locales.Data{"Win": t.Rules.Win})
	}
	if t.Phase == table.Ended {
		if t.EndReason == table.Expired {
			return locales.Say("status.expired", nil)
		}
		return locales.Say("status.ended", nil)
	}
	return locales.Say("status.turn", locales.Data{"Seat": seatName(t.Seats[g.Turn()]), "Hint": howToMove(t.Rules)})
}

func headlineStart(t *table.Table) string {
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = seatName(s)
	}
	return locales.Say("headline.start", locales.Data{"Seats": strings.Join(names, locales.Say("board.versus", nil)), "Rules": rulesLine(t.Rules, t.Engine)})
}

func headlineMove(t *table.Table, seat int, at game.Coord) string {
	return locales.Say("headline.move", locales.Data{"Seat": seatName(t.Seats[seat]), "Where": userCoord(t.Rules, at)})
}

func headlineBoard(t *table.Table) string {
	return locales.Say("headline.board", locales.Data{"Rules": rulesLine(t.Rules, t.Engine), "Moves": t.Game().Filled()})
}

// userCoord writes a cell the way a player reads it: game.Typed notation on
// a free board; under gravity the column a player types and the row it
// landed on, counted from the bottom.
func userCoord(r game.Rules, c game.Coord) string {
	if r.Gravity {
		return locales.Say("coord.gravity", locales.Data{"Col": c.Col, "Row": r.UserRow(c.Row)})
	}
	return locales.Say("coord.free", locales.Data{"Row": c.Row, "Col": c.Col})
}

// windowLine explains which part of a big board a reply shows.
func windowLine(r game.Rules, rowLo, rowHi, colLo, colHi int) string {
	return locales.Say("status.window", locales.Data{"RowLo": rowLo, "RowHi": rowHi, "ColLo": colLo, "ColHi": colHi, "Rows": r.Rows, "Cols": r.Cols})
}

// moveLine is one line of the move list: number, token, where.
func moveLine(t *table.Table, i int, m game.Move) string {
	s := t.Seats[m.Player]
	if m.Kind == game.Resign {
		return locales.Say("moves.resigned", locales.Data{"N": i + 1, "Token": s.Token})
	}
	return locales.Say("moves.placed", locales.Data{"N": i + 1, "Token": s.Token, "Where": userCoord(t.Rules, m.At)})
}

func statsText(user string, t table.Tally) string {
	if t.Games() == 0 {
		return locales.Say("stats.none", locales.Data{"User": mention(user)})
	}
	return locales.Say("stats.record", locales.Data{"User": mention(user),
		"Wins": t.Wins, "WinsWord": locales.SayN("stats.wins", t.Wins, nil),
		"Losses": t.Losses, "LossesWord": locales.SayN("stats.losses", t.Losses, nil),
		"Draws": t.Draws, "DrawsWord": locales.SayN("stats.draws", t.Draws, nil),
		"Games": t.Games(), "GamesWord": locales.SayN("stats.games", t.Games(), nil)})
}

func leaderboardText(ts []table.Tally) string {
	if len(ts) == 0 {
		return locales.Say("leaderboard.none", nil)
	}
	lines := []string{locales.Say("leaderboard.title", nil)}
	for i, t := range ts {
		lines = append(lines, locales.Say("leaderboard.line", locales.Data{"N": i + 1, "Player": playerName(t.Player), "Wins": t.Wins, "Losses": t.Losses, "Draws": t.Draws}))
	}
	return strings.Join(lines, "\n")
}

// checkText puts the verdict first and echoes as much of the board as fits,
// in a code span: the board is text the user typed.
func checkText(board string, v game.Verdict) string {
	head := locales.Say("check.verdict", locales.Data{"Verdict": locales.Code(v.String())}) + "\n"
	room := MaxContent - len([]rune(head)) - 3 // two backticks and room for the ellipsis
	if r := []rune(board); len(r) > room {
		board = string(r[:room-1]) + "…"
	}
	return head + locales.Code(board)
}
