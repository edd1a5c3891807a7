package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
)

// tableHandlers act on the channel's table, under its lock.
var tableHandlers = map[string]tableHandler{
	"new":     handleNew,
	"join":    handleJoin,
	"move":    handleMove,
	"board":   handleBoard,
	"rematch": handleRematch,
	"resign":  handleResign,
	"end":     handleEnd,
}

// queryHandlers answer without a channel's table.
var queryHandlers = map[string]queryHandler{
	"check":       handleCheck,
	"stats":       handleStats,
	"leaderboard": handleLeaderboard,
	"help":        handleHelp,
}

// openTable returns cur when it holds an open game, or why not: the last
// game is over (game.ErrGameOver), or there is none (ErrNoGame).
func openTable(cur *Table) (*Table, error) {
	switch {
	case cur != nil && cur.Phase == Over:
		return nil, game.ErrGameOver
	case cur == nil || !cur.Phase.Open():
		return nil, ErrNoGame
	}
	return cur, nil
}

// defaultWin picks how many in a row win when the creator does not say:
// three on small boards, Connect Four's four under gravity, four on medium
// boards and gomoku's five on big ones, never more than fits.
func defaultWin(rows, cols int, gravity bool) int {
	side := min(rows, cols)
	win := 5
	switch {
	case gravity:
		win = 4
	case rows <= 5 && cols <= 5:
		win = 3
	case rows <= 9 && cols <= 9:
		win = 4
	}
	return max(game.MinWin, min(win, side, game.MaxWin))
}

// rulesFrom reads the rules options of /ttt new, with defaults.
func rulesFrom(req *Request) (game.Rules, game.Engine, error) {
	r := game.Rules{Gravity: req.Bool(optGravity)}
	defRows, defCols := 3, 3
	if r.Gravity {
		defRows, defCols = 6, 7 // Connect Four
	}
	var err error
	if r.Rows, err = req.Int(optRows, defRows); err != nil {
		return r, 0, err
	}
	if r.Cols, err = req.Int(optColumns, defCols); err != nil {
		return r, 0, err
	}
	if r.Win, err = req.Int(optWin, defaultWin(r.Rows, r.Cols, r.Gravity)); err != nil {
		return r, 0, err
	}
	if r.Players, err = req.Int(optPlayers, 2); err != nil {
		return r, 0, err
	}
	if err := r.Validate(); err != nil {
		return r, 0, err
	}
	e, err := game.ParseEngine(req.String(optEngine))
	if err != nil {
		return r, 0, fmt.Errorf("%w: engine must be fast or compact", ErrBadOption)
	}
	return r, e, nil
}

// tokenFrom reads an optional token option; 0 means "the next free one".
func tokenFrom(req *Request) (rune, error) {
	if !req.Has(optToken) {
		return 0, nil
	}
	return game.ParseToken(req.String(optToken))
}

func handleNew(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	if cur != nil && cur.Phase.Open() {
		return change{}, ErrGameOpen
	}
	rules, engine, err := rulesFrom(req)
	if err != nil {
		return change{}, err
	}
	tok, err := tokenFrom(req)
	if err != nil {
		return change{}, err
	}
	level, err := aiOption(req)
	if err != nil {
		return change{}, err
	}
	opponent, opponentIsBot, hasOpponent := req.UserOption(optOpponent)
	switch {
	case hasOpponent && opponent == req.User:
		return change{}, ErrSelfOpponent
	case hasOpponent && opponentIsBot && opponent == req.AppID:
		// Inviting this bot means playing the computer.
		hasOpponent = false
		if level == "" {
			level = "medium"
		}
	case hasOpponent && opponentIsBot:
		return change{}, ErrBotOpponent
	}
	now := b.now()
	t := &Table{
		Guild: req.Guild, Channel: req.Channel, Creator: req.User,
		Rules: rules, Engine: engine, Phase: Lobby,
		Number: 1, Created: now, Updated: now,
	}
	if cur != nil {
		t.version, t.Number = cur.version, cur.Number+1
	}
	if tok == 0 {
		tok = 'X'
	}
	if err := t.seat(req.User, tok); err != nil {
		return change{}, err
	}
	if hasOpponent {
		if err := t.seat(opponent, 0); err != nil {
			return change{}, err
		}
	}
	for level != "" && t.Phase == Lobby {
		if err := t.seatComputer(level); err != nil {
			return change{}, err
		}
	}
	if t.Phase == Playing {
		return b.afterAction(ctx, t, headlineStart(t))
	}
	var ping []string
	if hasOpponent {
		ping = []string{opponent}
	}
	return change{table: t, resp: public(lobbyText(t, headlineNew(t)), ping...)}, nil
}

func handleJoin(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	t, err := openTable(cur)
	if err != nil {
		return change{}, err
	}
	tok, err := tokenFrom(req)
	if err != nil {
		return change{}, err
	}
	if err := t.seat(req.User, tok); err != nil {
		return change{}, err
	}
	seat := t.Seats[len(t.Seats)-1]
	if t.Phase == Playing {
		return b.afterAction(ctx, t, headlineJoin(seat)+"\n"+headlineStart(t))
	}
	return change{table: t, resp: public(lobbyText(t, headlineJoin(seat)))}, nil
}

// playerOf checks that req's user can act in t's running game and returns
// their seat.
func playerOf(req *Request, cur *Table) (*Table, int, error) {
	t, err := openTable(cur)
	if err != nil {
		return nil, 0, err
	}
	seat := t.seatOf(req.User)
	switch {
	case t.Phase == Lobby && seat < 0:
		return nil, 0, ErrLobby
	case t.Phase == Lobby:
		return t, seat, ErrLobby
	case seat < 0:
		return nil, 0, ErrNotSeated
	case t.game.Resigned(seat):
		return nil, 0, ErrResigned
	}
	return t, seat, nil
}

func handleMove(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	t, seat, err := playerOf(req, cur)
	if err != nil {
		return change{}, err
	}
	g := t.game
	if seat != g.Turn() {
		return change{}, game.ErrNotYourTurn
	}
	c, err := game.ParsePosition(t.Rules, req.String(optPosition))
	if err != nil {
		return change{}, err
	}
	at, err := g.Play(seat, c)
	if err != nil {
		return change{}, err
	}
	return b.afterAction(ctx, t, headlineMove(t, t.Seats[seat], at))
}

// afterAction finishes an accepted action on a running game: the computer
// seats due to move make their moves, a game that ended moves to Over with
// its result for the store, and the reply shows the board under headline
// and every move made.
func (b *Bot) afterAction(ctx context.Context, t *Table, headline string) (change, error) {
	moves, err := b.playComputers(ctx, t)
	if err != nil {
		return change{}, err
	}
	ch := change{table: t, resp: boardReply(t, headline+moves)}
	t.finishIfOver()
	if t.Phase == Over {
		r := t.result()
		ch.result = &r
	}
	return ch, nil
}

func handleBoard(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	switch {
	case cur == nil:
		return change{}, ErrNoGame
	case cur.Phase == Lobby:
		return change{resp: public(lobbyText(cur, headlineNew(cur)))}, nil
	case cur.game == nil: // a lobby that was ended
		return change{}, ErrNoGame
	}
	if cur.Phase.Open() {
		return change{resp: public(boardText(cur, headlineBoard(cur), ""))}, nil
	}
	// A finished game: the final board and the move list, to replay or share.
	return change{resp: public(boardText(cur, headlineBoard(cur), moveList(cur, MaxContent/2)))}, nil
}

func handleRematch(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	switch {
	case cur != nil && cur.Phase.Open():
		return change{}, ErrGameOpen
	case cur == nil || cur.game == nil:
		return change{}, ErrNoRematch
	case cur.seatOf(req.User) < 0:
		return change{}, ErrNotInLastGame
	}
	next, err := cur.rematch(b.now())
	if err != nil {
		return change{}, err
	}
	return b.afterAction(ctx, next, headlineRematch(next)+"\n"+headlineStart(next))
}

func handleResign(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	t, seat, err := playerOf(req, cur)
	if errors.Is(err, ErrLobby) && t != nil {
		return leaveLobby(t, seat)
	}
	if err != nil {
		return change{}, err
	}
	if err := t.game.Resign(seat); err != nil {
		return change{}, err
	}
	return b.afterAction(ctx, t, headlineResign(t.Seats[seat]))
}

// leaveLobby gives up a seat before the game starts; the creator leaving
// closes the lobby.
func leaveLobby(t *Table, seat int) (change, error) {
	left := t.Seats[seat]
	if left.User == t.Creator {
		t.Phase, t.EndReason = Ended, "ended"
		return change{table: t, resp: public(headlineLeave(left) + " The lobby is closed; `/ttt new` to open another.")}, nil
	}
	t.Seats = append(t.Seats[:seat:seat], t.Seats[seat+1:]...)
	return change{table: t, resp: public(lobbyText(t, headlineLeave(left)))}, nil
}

func handleEnd(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error) {
	t, err := openTable(cur)
	if err != nil {
		return change{}, err
	}
	if req.User != t.Creator && !req.CanManage {
		return change{}, ErrNotAllowed
	}
	t.Phase, t.EndReason = Ended, "ended"
	if t.game == nil {
		return change{table: t, resp: public(headlineEnd(req.User) + " The lobby is closed.")}, nil
	}
	return change{table: t, resp: public(boardText(t, headlineEnd(req.User), ""))}, nil
}

func handleCheck(_ context.Context, _ *Bot, req *Request) (*discordgo.InteractionResponse, error) {
	board := req.String(optBoard)
	win, err := req.Int(optWin, 3)
	if err != nil {
		return nil, err
	}
	v := game.CheckBoard(board, game.CheckOptions{Win: win, Gravity: req.Bool(optGravity), Tokens: tokensOf(board)})
	return public(checkText(board, v)), nil
}

// tokensOf guesses the turn order of a written board: X then O when present,
// then the other characters in order of appearance. (The verify command
// takes the order as a flag; a slash command has no room for it.)
func tokensOf(board string) []rune {
	seen := map[rune]bool{}
	var order []rune
	add := func(r rune) {
		if !seen[r] {
			seen[r] = true
			order = append(order, r)
		}
	}
	add('X')
	add('O')
	for _, r := range board {
		if r != '.' && r != '/' && r != ' ' {
			if tok, err := game.ParseToken(string(r)); err == nil {
				add(tok)
			}
		}
	}
	return order[:min(len(order), game.MaxPlayers)]
}

func handleStats(ctx context.Context, b *Bot, req *Request) (*discordgo.InteractionResponse, error) {
	user := req.User
	if id, _, ok := req.UserOption(optUser); ok {
		user = id
	}
	t, err := b.store.Tally(ctx, req.Guild, user)
	if err != nil {
		return nil, err
	}
	return public(statsText(user, t)), nil
}

func handleLeaderboard(ctx context.Context, b *Bot, req *Request) (*discordgo.InteractionResponse, error) {
	ts, err := b.store.Leaderboard(ctx, req.Guild, 10)
	if err != nil {
		return nil, err
	}
	return public(leaderboardText(ts)), nil
}

func handleHelp(context.Context, *Bot, *Request) (*discordgo.InteractionResponse, error) {
	return ephemeral(helpText), nil
}
