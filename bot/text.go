package bot

import (
	"strings"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// The pieces of public messages, each a lookup in words.go.

func mention(user string) string { return "<@" + user + ">" }

// seatName is a player as shown in messages: token and who.
func seatName(s table.Seat) string { return say("seat", Data{"Token": s.Token, "Who": who(s)}) }

// who names a seat's occupant: a mention, or the computer and its level.
func who(s table.Seat) string {
	if s.Kind.Computer() {
		return say("computer", Data{"Level": s.Kind.String()})
	}
	return mention(s.User)
}

// playerName shows a standings ID: a mention, or the computer.
func playerName(id string) string {
	if level, ok := strings.CutPrefix(id, "ai:"); ok {
		return say("computer", Data{"Level": level})
	}
	return mention(id)
}

// rulesLine describes a game's rules in one line.
func rulesLine(r game.Rules, e game.Engine) string {
	parts := []string{
		say("rules.size", Data{"Rows": r.Rows, "Cols": r.Cols}),
		say("rules.win", Data{"Win": r.Win}),
		say("rules.players", Data{"Players": r.Players}),
	}
	if r.Gravity {
		parts = append(parts, say("rules.gravity", nil))
	}
	if e == game.Compact {
		parts = append(parts, say("rules.compact", nil))
	}
	return strings.Join(parts, say("rules.separator", nil))
}

// howToMove is the hint for the player whose turn it is.
func howToMove(r game.Rules) string {
	switch {
	case r.Gravity:
		return say("hint.gravity", Data{"MaxCol": r.Cols - 1})
	case r.IsClassic():
		return say("hint.classic", nil)
	}
	return say("hint.free", Data{"MaxRow": r.Rows - 1, "MaxCol": r.Cols - 1})
}

// lobbyText lists the seats of a table still waiting for players.
func lobbyText(t *table.Table, headline string) string {
	lines := []string{headline, say("lobby.game", Data{"Rules": rulesLine(t.Rules, t.Engine)})}
	for i := 0; i < t.Rules.Players; i++ {
		if i < len(t.Seats) {
			lines = append(lines, say("lobby.seat", Data{"N": i + 1, "Seat": seatName(t.Seats[i])}))
		} else {
			lines = append(lines, say("lobby.open_seat", Data{"N": i + 1}))
		}
	}
	lines = append(lines, sayN("lobby.waiting", t.Rules.Players-len(t.Seats), nil))
	return strings.Join(lines, "\n")
}

// statusLine says how the game stands: whose turn, who won, or a draw.
func statusLine(t *table.Table) string {
	g := t.Game()
	switch g.State() {
	case game.Won:
		w := t.Seats[g.Winner()]
		if g.WinningLine() == nil {
			return say("status.won_resigned", Data{"Token": w.Token, "Who": who(w)})
		}
		return say("status.won", Data{"Token": w.Token, "Who": who(w)})
	case game.Drawn:
		return say("status.draw", Data{"Win": t.Rules.Win})
	}
	if t.Phase == table.Ended {
		if t.EndReason == table.Expired {
			return say("status.expired", nil)
		}
		return say("status.ended", nil)
	}
	return say("status.turn", Data{"Seat": seatName(t.Seats[g.Turn()]), "Hint": howToMove(t.Rules)})
}

func headlineStart(t *table.Table) string {
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = seatName(s)
	}
	return say("headline.start", Data{"Seats": strings.Join(names, say("board.versus", nil)), "Rules": rulesLine(t.Rules, t.Engine)})
}

func headlineMove(t *table.Table, seat int, at game.Coord) string {
	return say("headline.move", Data{"Seat": seatName(t.Seats[seat]), "Where": userCoord(t.Rules, at)})
}

func headlineBoard(t *table.Table) string {
	return say("headline.board", Data{"Rules": rulesLine(t.Rules, t.Engine), "Moves": t.Game().Filled()})
}

// userCoord writes a cell the way a player reads it: game.Typed notation on
// a free board; under gravity the column a player types and the row it
// landed on, counted from the bottom.
func userCoord(r game.Rules, c game.Coord) string {
	if r.Gravity {
		return say("coord.gravity", Data{"Col": c.Col, "Row": r.UserRow(c.Row)})
	}
	return say("coord.free", Data{"Row": c.Row, "Col": c.Col})
}

// windowLine explains which part of a big board a reply shows.
func windowLine(r game.Rules, rowLo, rowHi, colLo, colHi int) string {
	return say("status.window", Data{"RowLo": rowLo, "RowHi": rowHi, "ColLo": colLo, "ColHi": colHi, "Rows": r.Rows, "Cols": r.Cols})
}

// moveLine is one line of the move list: number, token, where.
func moveLine(t *table.Table, i int, m game.Move) string {
	s := t.Seats[m.Player]
	if m.Kind == game.Resign {
		return say("moves.resigned", Data{"N": i + 1, "Token": s.Token})
	}
	return say("moves.placed", Data{"N": i + 1, "Token": s.Token, "Where": userCoord(t.Rules, m.At)})
}

func statsText(user string, t table.Tally) string {
	if t.Games() == 0 {
		return say("stats.none", Data{"User": mention(user)})
	}
	return say("stats.record", Data{"User": mention(user),
		"Wins": t.Wins, "WinsWord": sayN("stats.wins", t.Wins, nil),
		"Losses": t.Losses, "LossesWord": sayN("stats.losses", t.Losses, nil),
		"Draws": t.Draws, "DrawsWord": sayN("stats.draws", t.Draws, nil),
		"Games": t.Games()})
}

func leaderboardText(ts []table.Tally) string {
	if len(ts) == 0 {
		return say("leaderboard.none", nil)
	}
	lines := []string{say("leaderboard.title", nil)}
	for i, t := range ts {
		lines = append(lines, say("leaderboard.line", Data{"N": i + 1, "Player": playerName(t.Player), "Wins": t.Wins, "Losses": t.Losses, "Draws": t.Draws}))
	}
	return strings.Join(lines, "\n")
}

// checkText puts the verdict first and echoes as much of the board as fits,
// in a code span: the board is text the user typed.
func checkText(board string, v game.Verdict) string {
	head := say("check.verdict", Data{"Verdict": v.String()}) + "\n"
	room := MaxContent - len([]rune(head)) - 3 // two backticks and room for the ellipsis
	if r := []rune(board); len(r) > room {
		board = string(r[:room-1]) + "…"
	}
	return head + code(board)
}
