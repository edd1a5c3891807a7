package bot

import (
	"strings"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// The pieces of public messages, each a lookup in bot/locales, said by the
// Speaker w of the message's locale (Interaction.Public or .Private). The
// ones every move's reply says pass their values as locales.Args
// (SayArgs), not a Data map.

func mention(user string) string { return "<@" + user + ">" }

// seatName is a player as shown in messages: token and who.
func seatName(w *locales.Speaker, s table.Seat) string {
	return w.SayArgs("seat", locales.Text("Token", s.Token), whoArg(w, "Who", s))
}

// whoArg is who(w, s) as the placeholder name's value: a mention written
// straight into the sentence (every board reply names two players).
func whoArg(w *locales.Speaker, name string, s table.Seat) locales.Arg {
	if s.Kind.Computer() {
		return locales.Text(name, computerName(w, s.Kind.String()))
	}
	return locales.Mention(name, s.User)
}

// who names a seat's occupant: a mention, or the computer and its level.
func who(w *locales.Speaker, s table.Seat) string {
	if s.Kind.Computer() {
		return computerName(w, s.Kind.String())
	}
	return mention(s.User)
}

// computerName is the computer at a level ("easy", "medium", "hard"), the
// level named as the ai: choice is in the reader's language.
func computerName(w *locales.Speaker, level string) string {
	return w.Say("computer", locales.Data{"Level": w.Say(choiceKey(RouteNew.subcommand(), optAI, level), nil)})
}

// playerName shows a standings ID: a mention, or the computer.
func playerName(w *locales.Speaker, id string) string {
	if level, ok := table.ComputerLevel(id); ok {
		return computerName(w, level)
	}
	return mention(id)
}

// rulesLine describes a game's rules in one line.
func rulesLine(w *locales.Speaker, r game.Rules, e game.Engine) string {
	parts := []string{
		w.Say("rules.size", locales.Data{"Rows": r.Rows, "Cols": r.Cols}),
		w.Say("rules.win", locales.Data{"Win": r.Win}),
		w.SayN("rules.players", r.Players, nil),
	}
	if r.Gravity {
		parts = append(parts, w.Say("rules.gravity", nil))
	}
	if e == game.Compact {
		parts = append(parts, w.Say("rules.compact", nil))
	}
	return strings.Join(parts, w.Say("rules.separator", nil))
}

// howToMove is the hint for the player whose turn it is.
func howToMove(w *locales.Speaker, r game.Rules) string {
	switch {
	case r.Gravity:
		return w.SayArgs("hint.gravity", locales.Num("MaxCol", r.Cols-1))
	case r.IsClassic():
		return w.Say("hint.classic", nil)
	}
	return w.SayArgs("hint.free", locales.Num("MaxRow", r.Rows-1), locales.Num("MaxCol", r.Cols-1))
}

// lobbyText lists the seats of a table still waiting for players.
func lobbyText(w *locales.Speaker, t *table.Table, headline string) string {
	lines := []string{headline, w.Say("lobby.game", locales.Data{"Rules": rulesLine(w, t.Rules, t.Engine)})}
	if t.Challenging() && t.Clock != 0 { // part of what the invited agree to
		lines = append(lines, w.Say("challenge.clock", locales.Data{"Clock": w.Say(choiceKey(RouteNew.subcommand(), optClock, t.Clock), nil)}))
	}
	held := 0
	for i := range t.Rules.Players {
		switch {
		case i < len(t.Seats):
			lines = append(lines, w.Say("lobby.seat", locales.Data{"N": i + 1, "Seat": seatName(w, t.Seats[i])}))
		case held < len(t.Invitees):
			lines = append(lines, w.Say("lobby.held_seat", locales.Data{"N": i + 1, "User": mention(t.Invitees[held])}))
			held++
		default:
			lines = append(lines, w.Say("lobby.open_seat", locales.Data{"N": i + 1}))
		}
	}
	if t.Challenging() {
		lines = append(lines, w.Say("challenge.answer", locales.Data{"Invitees": invitees(w, t.Invitees), "Expires": discordTime(t.InviteExpires, "R")}))
	} else {
		lines = append(lines, w.SayN("lobby.waiting", t.Rules.Players-len(t.Seats), nil))
	}
	return strings.Join(lines, "\n")
}

// statusLine says how the game stands: whose turn, who won, or a draw.
func statusLine(w *locales.Speaker, t *table.Table) string {
	g := t.Game()
	switch g.State() {
	case game.Won:
		s := t.Seats[g.Winner()]
		if g.WinningLine() == nil {
			return w.SayArgs("status.won_resigned", locales.Text("Token", s.Token), whoArg(w, "Who", s))
		}
		return w.SayArgs("status.won", locales.Text("Token", s.Token), whoArg(w, "Who", s))
	case game.Drawn:
		return w.SayArgs("status.draw", locales.Num("Win", t.Rules.Win))
	}
	if t.Phase == table.Ended {
		if t.EndReason == table.Expired {
			return w.Say("status.expired", nil)
		}
		return w.Say("status.ended", nil)
	}
	return w.SayArgs("status.turn", locales.Text("Seat", seatName(w, t.Seats[g.Turn()])), locales.Text("Hint", howToMove(w, t.Rules)))
}

func headlineStart(w *locales.Speaker, t *table.Table) string {
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = seatName(w, s)
	}
	return w.Say("headline.start", locales.Data{"Seats": strings.Join(names, w.Say("board.versus", nil)), "Rules": rulesLine(w, t.Rules, t.Engine)})
}

func headlineMove(w *locales.Speaker, t *table.Table, seat int, at game.Coord) string {
	return w.SayArgs("headline.move", locales.Text("Seat", seatName(w, t.Seats[seat])), locales.Text("Where", userCoord(w, t.Rules, at)))
}

func headlineBoard(w *locales.Speaker, t *table.Table) string {
	return w.Say("headline.board", locales.Data{"Rules": rulesLine(w, t.Rules, t.Engine), "Moves": t.Game().Filled()})
}

// userCoord writes a cell the way a player reads it: game.Typed notation on
// a free board; under gravity the column a player types and the row it
// landed on, counted from the bottom.
func userCoord(w *locales.Speaker, r game.Rules, c game.Coord) string {
	if r.Gravity {
		return w.SayArgs("coord.gravity", locales.Num("Col", c.Col), locales.Num("Row", r.UserRow(c.Row)))
	}
	return w.SayArgs("coord.free", locales.Num("Row", c.Row), locales.Num("Col", c.Col))
}

// windowLine explains which part of a big board a reply shows.
func windowLine(w *locales.Speaker, r game.Rules, rowLo, rowHi, colLo, colHi int) string {
	args := windowArgs(r, rowLo, rowHi, colLo, colHi)
	return w.SayArgs("status.window", args[:]...)
}

// appendWindowLine appends windowLine(w, r, rowLo, rowHi, colLo, colHi) to
// dst: every reply measures the line at its widest to keep room for it,
// and most never show it.
func appendWindowLine(dst []byte, w *locales.Speaker, r game.Rules, rowLo, rowHi, colLo, colHi int) []byte {
	args := windowArgs(r, rowLo, rowHi, colLo, colHi)
	return w.AppendArgs(dst, "status.window", args[:]...)
}

// windowArgs are windowLine's placeholders, in an array: a slice returned
// would be made on the heap.
func windowArgs(r game.Rules, rowLo, rowHi, colLo, colHi int) [6]locales.Arg {
	return [...]locales.Arg{locales.Num("RowLo", rowLo), locales.Num("RowHi", rowHi), locales.Num("ColLo", colLo), locales.Num("ColHi", colHi),
		locales.Num("Rows", r.Rows), locales.Num("Cols", r.Cols)}
}

// moveLine is one line of the move list: number, token, where.
func moveLine(w *locales.Speaker, t *table.Table, i int, m game.Move) string {
	s := t.Seats[m.Player]
	if m.Kind == game.Resign {
		key := "moves.resigned"
		if t.RanOutOfTime(m.Player) {
			key = "moves.timed_out"
		}
		return w.Say(key, locales.Data{"N": i + 1, "Token": s.Token})
	}
	return w.Say("moves.placed", locales.Data{"N": i + 1, "Token": s.Token, "Where": userCoord(w, t.Rules, m.At)})
}

// statsText is a player's record; in a DM it counts the games of DMs.
func statsText(w *locales.Speaker, dm bool, user string, t table.Tally) string {
	if t.Games() == 0 {
		if dm {
			return w.Say("stats.none.dm", locales.Data{"User": mention(user)})
		}
		return w.Say("stats.none", locales.Data{"User": mention(user)})
	}
	return w.Say("stats.record", locales.Data{"User": mention(user),
		"Wins":   w.SayN("stats.wins", t.Wins, nil),
		"Losses": w.SayN("stats.losses", t.Losses, nil),
		"Draws":  w.SayN("stats.draws", t.Draws, nil),
		"Games":  w.SayN("stats.games", t.Games(), nil)})
}

// checkText puts the verdict first and echoes as much of the board as fits,
// each in a code span the text cannot close: the verdict's reason may quote
// what the user typed, and the board is what they typed.
func checkText(w *locales.Speaker, board string, v game.Verdict) string {
	head := w.Say("check.verdict", locales.Data{"Verdict": locales.Code(v.String())})
	echo := locales.Code(board)
	if runeLen(head)+1+runeLen(echo) <= MaxContent {
		return head + "\n" + echo
	}
	note := w.Say("check.clipped", nil)
	// Drop runes from the end until the span fits: Code may pad and lengthen
	// its fence, so measure what it makes.
	r := []rune(board)
	room := MaxContent - runeLen(head) - runeLen(note) - 2
	lo, hi := 0, min(len(r), room)
	for lo < hi { // the longest prefix whose span (with "…") fits in room
		mid := (lo + hi + 1) / 2
		if runeLen(locales.Code(string(r[:mid])+"…")) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return head + "\n" + locales.Code(string(r[:lo])+"…") + "\n" + note
}

func runeLen(s string) int { return len([]rune(s)) }
