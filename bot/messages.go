package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Every sentence a user reads is written in this file.

func mention(user string) string { return "<@" + user + ">" }

// seatName is a player as shown in messages: token and mention.
func seatName(s Seat) string { return fmt.Sprintf("**%s** %s", s.Token, who(s)) }

// who names a seat's occupant: a mention, or the computer and its level.
func who(s Seat) string {
	if s.AI != "" {
		return computerName(s.AI)
	}
	return mention(s.User)
}

func computerName(level string) string { return "the computer (" + level + ")" }

// playerName shows a standings ID: a mention, or the computer.
func playerName(id string) string {
	if level, ok := strings.CutPrefix(id, "ai:"); ok {
		return computerName(level)
	}
	return mention(id)
}

const noHumansLeft = "No people are left in this game, so it ends here."

// rulesLine describes a game's rules in one line.
func rulesLine(r game.Rules, e game.Engine) string {
	parts := []string{fmt.Sprintf("%d×%d", r.Rows, r.Cols), fmt.Sprintf("%d in a row", r.Win), fmt.Sprintf("%d players", r.Players)}
	if r.Gravity {
		parts = append(parts, "gravity")
	}
	if e == game.Compact {
		parts = append(parts, "compact engine")
	}
	return strings.Join(parts, " · ")
}

// howToMove is the hint for the player whose turn it is.
func howToMove(r game.Rules) string {
	switch {
	case r.Gravity:
		return fmt.Sprintf("`/ttt move position:` a column 0–%d", r.Cols-1)
	case r.IsClassic():
		return "`/ttt move position:` a cell 0–8, or row,col"
	}
	return fmt.Sprintf("`/ttt move position:` row,col (rows 0–%d, columns 0–%d)", r.Rows-1, r.Cols-1)
}

// lobbyText lists the seats of a table still waiting for players.
func lobbyText(t *Table, headline string) string {
	var sb strings.Builder
	sb.WriteString(headline + "\n")
	fmt.Fprintf(&sb, "Game: %s\n", rulesLine(t.Rules, t.Engine))
	for i := 0; i < t.Rules.Players; i++ {
		if i < len(t.Seats) {
			fmt.Fprintf(&sb, "Seat %d: %s\n", i+1, seatName(t.Seats[i]))
		} else {
			fmt.Fprintf(&sb, "Seat %d: open\n", i+1)
		}
	}
	open := t.Rules.Players - len(t.Seats)
	fmt.Fprintf(&sb, "Waiting for %d more %s: `/ttt join` to take a seat.", open, plural(open, "player", "players"))
	return sb.String()
}

// statusLine says how the game stands: whose turn, who won, or a draw.
func statusLine(t *Table) string {
	g := t.game
	switch g.State() {
	case game.Won:
		w := t.Seats[g.Winner()]
		if g.WinningLine() == nil {
			return fmt.Sprintf("Player %s (%s) won! Everyone else resigned.", w.Token, who(w))
		}
		return fmt.Sprintf("Player %s (%s) won!", w.Token, who(w))
	case game.Drawn:
		return fmt.Sprintf("It's a draw: the board is full and nobody got %d in a row.", t.Rules.Win)
	}
	if t.Phase == Ended {
		return endedLine(t)
	}
	next := t.Seats[g.Turn()]
	return fmt.Sprintf("Turn: %s — %s", seatName(next), howToMove(t.Rules))
}

func endedLine(t *Table) string {
	if t.EndReason == "expired" {
		return "This game ended: nobody moved for too long."
	}
	return "This game was ended before it finished."
}

func headlineNew(t *Table) string {
	return fmt.Sprintf("%s opened a game.", mention(t.Creator))
}

func headlineStart(t *Table) string {
	names := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i] = seatName(s)
	}
	return fmt.Sprintf("Game on: %s\n%s", strings.Join(names, " vs "), rulesLine(t.Rules, t.Engine))
}

func headlineJoin(s Seat) string { return fmt.Sprintf("%s joined.", seatName(s)) }

func headlineMove(t *Table, s Seat, at game.Coord) string {
	return fmt.Sprintf("%s played %s.", seatName(s), userCoord(t.Rules, at))
}

func headlineResign(s Seat) string { return fmt.Sprintf("%s resigned.", seatName(s)) }

func headlineLeave(s Seat) string { return fmt.Sprintf("%s left the lobby.", seatName(s)) }

func headlineEnd(user string) string { return fmt.Sprintf("%s ended the game.", mention(user)) }

func headlineRematch(t *Table) string {
	return fmt.Sprintf("Rematch #%d: %s starts this time.", t.Number, seatName(t.Seats[0]))
}

func headlineBoard(t *Table) string {
	return fmt.Sprintf("Game: %s · move %d", rulesLine(t.Rules, t.Engine), t.game.Filled())
}

// userCoord writes a cell the way a player types it.
func userCoord(r game.Rules, c game.Coord) string {
	if r.Gravity {
		return fmt.Sprintf("column %d (row %d)", c.Col, r.UserRow(c.Row))
	}
	return fmt.Sprintf("%d,%d", c.Row, c.Col)
}

// windowLine explains which part of a big board a reply shows.
func windowLine(r game.Rules, rowLo, rowHi, colLo, colHi int) string {
	return fmt.Sprintf("Showing rows %d–%d and columns %d–%d of the %d×%d board, around the last move.", rowLo, rowHi, colLo, colHi, r.Rows, r.Cols)
}

func movesHeader(n, shown int) string {
	if shown < n {
		return fmt.Sprintf("Moves (the last %d of %d):", shown, n)
	}
	return fmt.Sprintf("Moves (%d):", n)
}

// moveLine is one line of the move list: number, token, where.
func moveLine(t *Table, i int, m game.Move) string {
	s := t.Seats[m.Player]
	if m.Kind == game.Resign {
		return fmt.Sprintf("%d. %s resigned", i+1, s.Token)
	}
	return fmt.Sprintf("%d. %s %s", i+1, s.Token, userCoord(t.Rules, m.At))
}

func statsText(user string, t game.Tally) string {
	if t.Games() == 0 {
		return fmt.Sprintf("%s has no finished games in this server yet.", mention(user))
	}
	return fmt.Sprintf("%s: %d %s, %d %s, %d %s (%d games).", mention(user),
		t.Wins, plural(t.Wins, "win", "wins"), t.Losses, plural(t.Losses, "loss", "losses"),
		t.Draws, plural(t.Draws, "draw", "draws"), t.Games())
}

func leaderboardText(ts []game.Tally) string {
	if len(ts) == 0 {
		return "No finished games in this server yet. Start one with `/ttt new`."
	}
	var sb strings.Builder
	sb.WriteString("**Leaderboard**\n")
	for i, t := range ts {
		fmt.Fprintf(&sb, "%d. %s — %d W · %d L · %d D\n", i+1, playerName(t.Player), t.Wins, t.Losses, t.Draws)
	}
	return strings.TrimRight(sb.String(), "\n")
}

// checkText puts the verdict first and echoes as much of the board as fits.
func checkText(board string, v game.Verdict) string {
	head := fmt.Sprintf("**%s**\n", v)
	room := MaxContent - len([]rune(head)) - 3
	if r := []rune(board); len(r) > room {
		board = string(r[:room-1]) + "…"
	}
	return head + "`" + strings.ReplaceAll(board, "`", "'") + "`"
}

const helpText = "**Tic-tac-toe, any size** — one game per channel.\n" +
	"• `/ttt new` opens a game: `rows`, `columns` (3–100), `win` (how many in a row, 3–25), `players` (2–10), " +
	"`gravity` (Connect Four style), `token` (your character), `opponent` (seat someone right away; pick me to play the computer), " +
	"`ai` (fill the empty seats with the computer: easy, medium or hard).\n" +
	"• `/ttt join` takes a seat (`token` optional). The game starts when every seat is taken; seats play in join order.\n" +
	"• `/ttt move position:` places your token.\n" +
	"  Free boards: `row,col` with 0,0 the top-left cell — `1,2` is row 1, column 2. `1 2` and `(1, 2)` work too; on 3×3 also a cell number 0–8.\n" +
	"  Gravity boards: just the column, e.g. `3`; your token drops to the lowest free row (row 0 is the bottom).\n" +
	"• `/ttt board` shows the board again (after a game: the move list). `/ttt resign` gives up; `/ttt end` closes the game " +
	"(its creator or anyone who can manage messages); `/ttt rematch` replays with the next player starting.\n" +
	"• `/ttt check board:XO./.XO/..X` judges a written board. `/ttt stats` and `/ttt leaderboard` show records in this server.\n" +
	"The last move is shown as [X]; a winning line as *X*."

// Button labels.
const (
	buttonJoin    = "Join"
	buttonRematch = "Rematch"
)

// notePictureHTTP replaces a board picture the HTTP endpoint cannot attach:
// Discord takes files only through the callback request, not inline replies.
const notePictureHTTP = "(Board pictures come with the gateway connection; this bot answers over HTTP.)"

const (
	textInternal = "Something went wrong on my side and nothing was changed. Please try again in a moment."
	textUnknown  = "I don't know that command. Try `/ttt help`."
)

// explain turns an error a user caused into the sentence they read, saying
// what was wrong and what to do. ok is false for errors no user caused.
func explain(err error, t *Table, req *Request) (text string, ok bool) {
	if t == nil || t.game == nil && errors.Is(err, game.ErrNotYourTurn) {
		// The sentences below name the table's rules and players; without
		// a table, say the same thing in general words.
		if text, ok := withoutTable(err); ok {
			return text, true
		}
	}
	var re *game.RulesError
	var te *game.TokenError
	switch {
	case errors.As(err, &re):
		return fmt.Sprintf("Those rules don't work: %s %s. Pick again with `/ttt new`.", re.Field, re.Reason), true
	case errors.As(err, &te):
		return fmt.Sprintf("That token doesn't work: %s.", te.Reason), true
	case errors.Is(err, game.ErrTokenTaken):
		return fmt.Sprintf("That token is taken. Pick another with `token:`, or leave it out to get %c.", game.NextFreeToken(t.tokens())), true
	case errors.Is(err, ErrNoGame):
		if t != nil && t.Phase == Ended && t.EndReason == "expired" {
			return "The last game here ended because nobody moved for too long. Start a new one with `/ttt new`.", true
		}
		return "There's no game in this channel. Start one with `/ttt new`.", true
	case errors.Is(err, ErrGameOpen):
		return "A game is already open in this channel. Finish it, or `/ttt end` it (its creator or anyone who can manage messages).", true
	case errors.Is(err, ErrLobby):
		open := t.Rules.Players - len(t.Seats)
		return fmt.Sprintf("The game hasn't started: it's waiting for %d more %s to `/ttt join`.", open, plural(open, "player", "players")), true
	case errors.Is(err, ErrStarted):
		return "This game has already started and every seat is taken. Wait for the next one, or ask for a `/ttt rematch` later.", true
	case errors.Is(err, ErrSeated):
		return "You already have a seat in this game.", true
	case errors.Is(err, ErrNotSeated), errors.Is(err, game.ErrNotPlayer):
		return "You're not a player in this game. Wait for the next one, or `/ttt join` while a game has open seats.", true
	case errors.Is(err, ErrResigned):
		return "You resigned from this game, so you can't move in it. Wait for the next one.", true
	case errors.Is(err, ErrNotAllowed):
		return fmt.Sprintf("Only the game's creator (%s) or someone who can manage messages can end it. You can `/ttt resign`.", mention(t.Creator)), true
	case errors.Is(err, ErrNoRematch):
		return "There's no finished game here to rematch. Start one with `/ttt new`.", true
	case errors.Is(err, ErrNotInLastGame):
		return "Only the players of the last game can ask for a rematch. Start your own with `/ttt new`.", true
	case errors.Is(err, ErrSelfOpponent):
		return "You can't be your own opponent. Pick someone else, or leave `opponent` out and let people `/ttt join`.", true
	case errors.Is(err, ErrBotOpponent):
		return "That's another bot's account; it can't play here. Pick a person, invite me, or use `ai:` to play the computer.", true
	case errors.Is(err, ErrConflict):
		return "The board changed while your action was being applied, so nothing was done. Look at the board and try again.", true
	case errors.Is(err, ErrStale):
		return "That board is out of date: the game has moved on since. Use the newest board message, or `/ttt board` to see it again.", true
	case errors.Is(err, ErrBadOption):
		return fmt.Sprintf("That option doesn't work: %s. See `/ttt help`.", strings.TrimPrefix(err.Error(), ErrBadOption.Error()+": ")), true
	case errors.Is(err, game.ErrGameOver):
		return "This game is over. `/ttt rematch` to play again, or `/ttt new` for a different game.", true
	case errors.Is(err, game.ErrNotYourTurn):
		next := t.Seats[t.game.Turn()]
		return fmt.Sprintf("It's not your turn: it's %s's turn (%s).", next.Token, who(next)), true
	case errors.Is(err, game.ErrCellTaken):
		return "That cell is taken. Pick an empty one (shown as . on the board).", true
	case errors.Is(err, game.ErrColumnFull):
		return "That column is full. Pick another column.", true
	case errors.Is(err, game.ErrOutOfBounds):
		r := t.Rules
		if r.Gravity {
			return fmt.Sprintf("That column is off the board: columns are 0–%d.", r.Cols-1), true
		}
		if r.IsClassic() {
			return "That's off the board: use a cell 0–8, or row,col with rows and columns 0–2.", true
		}
		return fmt.Sprintf("That's off the board: rows are 0–%d and columns 0–%d, with 0,0 the top-left.", r.Rows-1, r.Cols-1), true
	case errors.Is(err, game.ErrBadPosition):
		if t.Rules.Gravity {
			return fmt.Sprintf("I can't read that position. On this gravity board give just a column number, 0–%d, like `3`.", t.Rules.Cols-1), true
		}
		return "I can't read that position. Write row,col, like `1,2` (0,0 is the top-left).", true
	case errors.Is(err, ErrUnknown):
		return textUnknown, true
	}
	return textInternal, false
}

// withoutTable explains the errors whose usual sentence needs a table.
func withoutTable(err error) (string, bool) {
	switch {
	case errors.Is(err, game.ErrTokenTaken):
		return "That token is taken. Pick another with `token:`.", true
	case errors.Is(err, ErrLobby):
		return "The game hasn't started yet: it's waiting for players to `/ttt join`.", true
	case errors.Is(err, ErrNotAllowed):
		return "Only the game's creator or someone who can manage messages can end it.", true
	case errors.Is(err, game.ErrNotYourTurn):
		return "It's not your turn.", true
	case errors.Is(err, game.ErrOutOfBounds):
		return "That's off the board. See `/ttt help` for coordinates.", true
	case errors.Is(err, game.ErrBadPosition):
		return "I can't read that position. See `/ttt help` for coordinates.", true
	}
	return "", false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
