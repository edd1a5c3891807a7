package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

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

// Board sizes /ttt new picks when the creator names none.
const (
	defaultSide                        = 3 // the classic board
	defaultGravityRows, defaultGravity = 6, 7
	defaultPlayers                     = 2
	defaultCheckWin                    = 3 // /ttt check, as tttbot verify
)

// rulesFrom reads the rules options of /ttt new, with defaults.
func rulesFrom(in *Interaction) (game.Rules, game.Engine, error) {
	r := game.Rules{Gravity: in.Bool(optGravity)}
	defRows, defCols := defaultSide, defaultSide
	if r.Gravity {
		defRows, defCols = defaultGravityRows, defaultGravity // Connect Four
	}
	var err error
	if r.Rows, err = in.Int(optRows, defRows); err != nil {
		return r, 0, err
	}
	if r.Cols, err = in.Int(optColumns, defCols); err != nil {
		return r, 0, err
	}
	if r.Win, err = in.Int(optWin, defaultWin(r.Rows, r.Cols, r.Gravity)); err != nil {
		return r, 0, err
	}
	if r.Players, err = in.Int(optPlayers, defaultPlayers); err != nil {
		return r, 0, err
	}
	if err := r.Validate(); err != nil {
		return r, 0, &RulesRefusal{Rules: r, Err: err}
	}
	if mostPlaced(r) < r.Win {
		return r, 0, &RulesRefusal{Rules: r, Err: ErrUnwinnable}
	}
	e, err := game.ParseEngine(in.String(optEngine))
	if err != nil {
		return r, 0, &OptionError{Option: optEngine, Want: WantEngine}
	}
	return r, e, nil
}

// tokenFrom reads an optional token option for a seat at t, by the token
// rule; "" means "the next free one".
func tokenFrom(in *Interaction, t *table.Table) (string, error) {
	if !in.Has(optToken) {
		return "", nil
	}
	return t.ParseToken(in.String(optToken))
}

// computerFrom reads /ttt new ai:, or table.Human when absent.
func computerFrom(in *Interaction) (table.SeatKind, error) {
	if !in.Has(optAI) {
		return table.Human, nil
	}
	k, ok := table.ParseComputer(in.String(optAI))
	if !ok {
		return table.Human, &OptionError{Option: optAI, Want: WantLevel}
	}
	return k, nil
}

func (b *Bot) newGame(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	if err := b.placeHere(in, cur); err != nil { // thread.go: here, or in a new thread
		return nil, Response{}, err
	}
	rules, engine, err := rulesFrom(in)
	if err != nil {
		return nil, Response{}, err
	}
	computer, err := computerFrom(in)
	if err != nil {
		return nil, Response{}, err
	}
	clock, err := clockFrom(in)
	if err != nil {
		return nil, Response{}, err
	}
	opponent, opponentIsBot, hasOpponent, err := in.UserOption(optOpponent)
	if err != nil {
		return nil, Response{}, err
	}
	switch {
	case hasOpponent && opponent == in.User:
		return nil, Response{}, ErrSelfOpponent
	case hasOpponent && opponent == in.AppID:
		// Inviting this bot means playing the computer.
		hasOpponent = false
		if computer == table.Human {
			computer = table.ComputerMedium
		}
	case hasOpponent && opponentIsBot:
		return nil, Response{}, ErrBotOpponent
	}
	t, err := table.New(cur, in.Guild, in.Channel, in.User, rules, engine, b.tables.Now())
	if err != nil {
		return nil, Response{}, err
	}
	if err := t.SetClock(clock); err != nil {
		return nil, Response{}, err
	}
	tok, err := tokenFrom(in, t)
	if err != nil {
		return nil, Response{}, err
	}
	if tok == "" {
		tok = "X"
	}
	if err := t.Join(in.User, tok); err != nil {
		return nil, Response{}, err
	}
	if hasOpponent { // a seat held for them until they answer: nobody plays unasked
		if err := b.challenge(ctx, t, opponent); err != nil {
			return nil, Response{}, err
		}
	}
	for computer != table.Human && t.Phase == table.Lobby && len(t.Seats)+len(t.Invitees) < rules.Players {
		if err := t.SeatComputer(computer); err != nil {
			return nil, Response{}, err
		}
	}
	w := in.Public
	switch {
	case t.Phase == table.Playing:
		return b.afterAction(ctx, w, t, headlineStart(w, t))
	case t.Challenging():
		return t, public(challengeText(w, t), t.Invitees...), nil
	}
	return t, public(lobbyText(w, t, w.Say("headline.new", locales.Data{"Creator": mention(t.Creator)}))), nil
}

func (b *Bot) join(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := table.Current(cur)
	if err != nil {
		return nil, Response{}, err
	}
	switch { // before the token: a seat taken says so whatever the token
	case t.Phase != table.Lobby:
		return nil, Response{}, table.ErrStarted
	case t.SeatOf(in.User) >= 0:
		return nil, Response{}, table.ErrSeated
	}
	tok, err := tokenFrom(in, t)
	if err != nil {
		return nil, Response{}, err
	}
	if t.Invited(in.User) { // joining the seat held for you is accepting
		if err := t.Accept(in.User, tok, b.tables.Now()); err != nil {
			return nil, Response{}, err
		}
		return b.accepted(ctx, in, t)
	}
	if err := t.Join(in.User, tok); err != nil {
		return nil, Response{}, err
	}
	w := in.Public
	joined := w.Say("headline.join", locales.Data{"Seat": seatName(w, t.Seats[len(t.Seats)-1])})
	if t.Phase == table.Playing {
		return b.afterAction(ctx, w, t, joined+"\n"+headlineStart(w, t))
	}
	return t, public(lobbyText(w, t, joined)), nil
}

func (b *Bot) move(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := table.Current(cur)
	if err != nil {
		return nil, Response{}, err
	}
	seat, at, err := t.Move(in.User, in.String(optPosition))
	if err != nil {
		return nil, Response{}, err
	}
	return b.afterAction(ctx, in.Public, t, headlineMove(in.Public, t, seat, at))
}

// place is a click on a cell or column of a board that is still current.
func (b *Bot) place(ctx context.Context, in *Interaction, cur *table.Table, c game.Coord) (*table.Table, Response, error) {
	if cur == nil || cur.Phase != table.Playing || in.Vars.Text("stamp") != moveStamp(cur) {
		return nil, Response{}, ErrStale
	}
	t := cur
	seat, at, err := t.Place(in.User, c)
	if err != nil {
		return nil, Response{}, err
	}
	t, resp, err := b.afterAction(ctx, in.Public, t, headlineMove(in.Public, t, seat, at))
	resp.Kind = Update // a move redraws the board that was clicked
	return t, resp, err
}

func (b *Bot) clickCell(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	return b.place(ctx, in, cur, game.Coord{Row: in.Vars.Int("row"), Col: in.Vars.Int("col")})
}

func (b *Bot) clickColumn(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	return b.place(ctx, in, cur, game.Coord{Col: in.Vars.Int("col")})
}

func (b *Bot) clickJoin(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	if cur == nil || cur.Phase != table.Lobby || in.Vars.Int("game") != cur.Number {
		return nil, Response{}, ErrStale
	}
	t, resp, err := b.join(ctx, in, cur)
	resp.Kind = Update // the lobby message shows the new seat
	return t, resp, err
}

func (b *Bot) clickRematch(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	if cur == nil || in.Vars.Int("game") != cur.Number {
		return nil, Response{}, ErrStale
	}
	return b.rematch(ctx, in, cur) // a new game gets a message of its own
}

// afterAction finishes an accepted action on a running game: the computer
// seats due to move make their moves, a game that ended moves to Over (its
// result is saved with it), and the reply shows the board under headline and
// every move made.
func (b *Bot) afterAction(ctx context.Context, w *locales.Speaker, t *table.Table, headline string) (*table.Table, Response, error) {
	moves, err := b.playComputers(ctx, w, t)
	if err != nil {
		return nil, Response{}, err
	}
	if moves != "" {
		headline += "\n" + moves
	}
	t.ArmClock(b.tables.Now()) // the deadline the reply shows is the one saved
	resp := boardReply(w, t, headline)
	t.FinishIfOver()
	return t, resp, nil
}

func (b *Bot) board(_ context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	w := in.Public
	// With a picture asked for, keep room for the note a transport without
	// files adds, so nothing is cut to make room for it.
	var reserve int
	if in.Bool(optImage) {
		reserve = runeLen(w.Say("status.no_picture", nil)) + 1
	}
	switch {
	case cur == nil:
		return nil, Response{}, table.ErrNoGame
	case cur.Challenging():
		return nil, public(challengeText(w, cur)), nil
	case cur.Phase == table.Lobby:
		return nil, public(lobbyText(w, cur, w.Say("headline.new", locales.Data{"Creator": mention(cur.Creator)}))), nil
	case cur.Game() == nil: // a lobby that was ended
		return nil, Response{}, table.ErrNoGame
	case cur.Phase.Open():
		return nil, public(boardText(w, cur, headlineBoard(w, cur), "", reserve)), nil
	}
	// A finished game: the final board and the move list, to replay or share.
	return nil, public(boardText(w, cur, headlineBoard(w, cur), moveList(w, cur, moveListShare), reserve)), nil
}

func (b *Bot) rematch(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	next, err := table.Rematch(cur, in.User, b.tables.Now())
	if err != nil {
		return nil, Response{}, err
	}
	w := in.Public
	headline := w.Say("headline.rematch", locales.Data{"Number": next.Number, "Seat": seatName(w, next.Seats[0])})
	return b.afterAction(ctx, w, next, headline+"\n"+headlineStart(w, next))
}

func (b *Bot) resign(ctx context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := table.Current(cur)
	if err != nil {
		return nil, Response{}, err
	}
	r, err := t.Resign(in.User)
	if err != nil {
		return nil, Response{}, err
	}
	w := in.Public
	seat := seatName(w, r.Seat)
	switch {
	case t.EndReason == table.Withdrawn: // the challenger left their own challenge
		return t, b.withdrawn(in, t), nil
	case r.ClosedLobby:
		return t, public(w.Say("headline.leave_closed", locales.Data{"Seat": seat})), nil
	case r.LeftLobby:
		return t, public(lobbyText(w, t, w.Say("headline.leave", locales.Data{"Seat": seat}))), nil
	}
	return b.afterAction(ctx, w, t, w.Say("headline.resign", locales.Data{"Seat": seat}))
}

func (b *Bot) end(_ context.Context, in *Interaction, cur *table.Table) (*table.Table, Response, error) {
	t, err := table.Current(cur)
	if err != nil {
		return nil, Response{}, err
	}
	if err := t.End(in.User, in.CanManage); err != nil {
		return nil, Response{}, err
	}
	w := in.Public
	if t.EndReason == table.Withdrawn {
		return t, b.withdrawn(in, t), nil
	}
	if t.Game() == nil {
		return t, public(w.Say("headline.end_lobby", locales.Data{"User": mention(in.User)})), nil
	}
	return t, public(boardText(w, t, w.Say("headline.end", locales.Data{"User": mention(in.User)}), "", 0)), nil
}

func (b *Bot) check(_ context.Context, in *Interaction) (Response, error) {
	board := in.String(optBoard)
	win, err := in.Int(optWin, defaultCheckWin)
	if err != nil {
		return Response{}, err
	}
	v := game.CheckBoard(board, game.CheckOptions{Win: win, Gravity: in.Bool(optGravity), Tokens: tokensOf(board)})
	return public(checkText(in.Public, board, v)), nil
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

// helpKeys are the paragraphs of /ttt help, in order.
var helpKeys = []string{"help.title", "help.new", "help.join", "help.move", "help.move.free", "help.move.gravity",
	"help.thread", "help.board", "help.check", "help.marks", "help.tournament", "help.puzzle", "help.install"}

// help is one private embed: its paragraphs together are longer than a
// message's content may be in several languages, and an embed's
// description holds twice as much.
func (b *Bot) help(_ context.Context, in *Interaction) (Response, error) {
	lines := make([]string, len(helpKeys))
	for i, key := range helpKeys {
		lines[i] = in.Private.Say(key, nil)
	}
	text := clipLines(strings.Join(lines, "\n"), "…", MaxEmbedDescription)
	return Response{Kind: Message, Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{Description: text}}}, nil
}
