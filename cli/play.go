package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/token"
)

// Play runs the original terminal game on in and out: it asks for the rules,
// plays turns until a win or a draw, and offers another game with new
// settings. It returns nil when the players decline or input ends.
func Play(in io.Reader, out io.Writer) error {
	p := newPrompter(in, out)
	for {
		err := playOne(p)
		if err == nil {
			var again bool
			again, err = p.askYesNo("Would you like to play again? Y/N")
			if err == nil && again {
				continue
			}
		}
		if errors.Is(err, errEndOfInput) {
			fmt.Fprintln(out)
			return nil
		}
		return err
	}
}

// playOne sets up one game from the players' answers and plays it out.
func playOne(p *prompter) error {
	g, tokens, err := setup(p)
	if err != nil {
		return err
	}
	look := terminalLook(tokens)
	for !g.Over() {
		fmt.Fprintln(p.out)
		if err := look.Text(p.out, g, render.Whole(g.Rules())); err != nil {
			return err
		}
		if err := turn(p, g, tokens); err != nil {
			return err
		}
	}
	fmt.Fprintln(p.out)
	if err := look.Text(p.out, g, render.Whole(g.Rules())); err != nil {
		return err
	}
	if g.State() == game.Won {
		fmt.Fprintf(p.out, "Player %s Won!\n", tokens[g.Winner()])
	} else {
		fmt.Fprintln(p.out, "The game is a tie: the board is full and nobody won.")
	}
	return nil
}

// setup asks for the rules and tokens and starts the game; tokens are the
// players' tokens as typed (a character or a Unicode emoji), which the
// engine knows by stand-in runes (token.Runes).
func setup(p *prompter) (*game.Game, []string, error) {
	var r game.Rules
	var err error
	if r.Rows, err = p.askInt("How many rows should be on the board?", game.MinSize, game.MaxSize); err != nil {
		return nil, nil, err
	}
	if r.Cols, err = p.askInt("How many columns should be on the board?", game.MinSize, game.MaxSize); err != nil {
		return nil, nil, err
	}
	if r.Win, err = p.askInt("How many in a row to win?", game.MinWin, min(game.MaxWin, r.Rows, r.Cols)); err != nil {
		return nil, nil, err
	}
	if r.Players, err = p.askInt("How many players?", game.MinPlayers, game.MaxPlayers); err != nil {
		return nil, nil, err
	}
	tokens := make([]string, 0, r.Players)
	for i := 1; i <= r.Players; i++ {
		err := p.ask(fmt.Sprintf("Enter the character to represent player %d", i), func(a string) string {
			t, err := token.Parse(a, r, tokens)
			var te *token.Error
			switch {
			case errors.As(err, &te) && te.Rule == token.NotTaken:
				return fmt.Sprintf("%s is already taken as a player token! Try %s.", te.Clash, te.Suggest)
			case errors.As(err, &te):
				return fmt.Sprintf("That token doesn't work: %q %s (%s). Try %s.", a, te.Detail, te.Rule, te.Suggest)
			case err != nil:
				return err.Error()
			case token.Describe(t).Kind == token.Custom:
				return fmt.Sprintf("%s is a Discord custom emoji, which a terminal cannot show. Pick a character or an emoji, like %s.", t, token.Suggest(r, tokens))
			}
			tokens = append(tokens, t)
			return ""
		})
		if err != nil {
			return nil, nil, err
		}
	}
	var engine game.Engine
	err = p.ask("Would you like a Fast Game (F/f) or a Memory Efficient Game (M/m)?", func(a string) string {
		var err error
		if engine, err = game.ParseEngine(a); a == "" || err != nil {
			return "Please enter F or M."
		}
		return ""
	})
	if err != nil {
		return nil, nil, err
	}
	if r.Gravity, err = p.askYesNo("Should tokens drop to the lowest free row, like Connect Four? Y/N"); err != nil {
		return nil, nil, err
	}
	g, err := game.New(r, engine, token.Runes(tokens))
	return g, tokens, err
}

// terminalLook draws the tokens as typed: with an emoji among them, every
// cell is two columns wide, so the board's columns stay aligned.
func terminalLook(tokens []string) render.Look {
	faces := make([]render.Face, len(tokens))
	for i, t := range tokens {
		faces[i] = render.Face{Kind: render.Char, Text: t}
		if token.Describe(t).Kind == token.Unicode {
			faces[i].Kind = render.Unicode
		}
	}
	return render.Look{Faces: faces}
}

// turn asks the player to move until a move is accepted.
func turn(p *prompter, g *game.Game, tokens []string) error {
	r := g.Rules()
	tok := tokens[g.Turn()]
	question := fmt.Sprintf("Player %s, what is your move? Enter row,col (0,0 is the top-left).", tok)
	switch {
	case r.Gravity:
		question = fmt.Sprintf("Player %s, what column do you want to place your marker in?", tok)
	case r.IsClassic():
		question = fmt.Sprintf("Player %s, what is your move? Enter a cell number 0-8, or row,col.", tok)
	}
	return p.ask(question, func(a string) string {
		c, err := game.ParsePosition(r, a)
		if err == nil {
			_, err = g.Play(g.Turn(), c)
		}
		return moveProblem(err, r)
	})
}

// moveProblem turns a refused move into the line the player reads, or ""
// when the move was played.
func moveProblem(err error, r game.Rules) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, game.ErrColumnFull):
		return "Column is full"
	case errors.Is(err, game.ErrOutOfBounds) && r.Gravity:
		return fmt.Sprintf("Column must be from 0 to %d", r.Cols-1)
	case errors.Is(err, game.ErrOutOfBounds):
		return fmt.Sprintf("That space is off the board: rows are 0-%d and columns 0-%d", r.Rows-1, r.Cols-1)
	case errors.Is(err, game.ErrCellTaken):
		return "That space is unavailable, please pick again"
	case errors.Is(err, game.ErrBadPosition) && r.Gravity:
		return "Please enter a column number, like 3"
	case errors.Is(err, game.ErrBadPosition):
		return "Please enter your move as row,col, like 1,2"
	}
	return err.Error()
}
