package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/puzzle/progress"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/table"
)

// /ttt puzzle: a position from solved play in which the player to move wins
// in N of their own moves, and exactly one first move does (package puzzle
// proves it). Each press is answered by the solver's best defence; a move
// that lets the win slip ends the try and shows the refutation. The
// person's record (package puzzle/progress) keeps their tries, solves,
// daily streak and puzzle rating; the first try at a puzzle is the one
// that counts, later ones are practice.
//
// Puzzle messages are ephemeral: only the person solving sees one, so the
// daily puzzle's solution is no spoiler for the channel, and nobody presses
// another person's buttons (a press acts on the presser's own record, where
// someone else's try number is stale anyway).

// The kind: choices are puzzle.Kinds (the first the default), the
// difficulty: choices puzzle.Difficulties (none is the daily puzzle).
func puzzleKindNames() []string       { return stringsOf(puzzle.Kinds()) }
func puzzleDifficultyNames() []string { return stringsOf(puzzle.Difficulties()) }

func stringsOf[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// puzzleOptions reads kind: and difficulty: (Discord offers only the
// choices, so anything else is forged).
func puzzleOptions(in *Interaction) (puzzle.Kind, puzzle.Difficulty, error) {
	kind := puzzle.Kinds()[0]
	if in.Has(optKind) {
		kind = puzzle.Kind(in.String(optKind))
		if !slices.Contains(puzzle.Kinds(), kind) {
			return "", "", fmt.Errorf("%w: puzzle kind %q", ErrUnknown, in.String(optKind))
		}
	}
	var d puzzle.Difficulty
	if in.Has(optDifficulty) {
		d = puzzle.Difficulty(in.String(optDifficulty))
		if !slices.Contains(puzzle.Difficulties(), d) {
			return "", "", fmt.Errorf("%w: puzzle difficulty %q", ErrUnknown, in.String(optDifficulty))
		}
	}
	return kind, d, nil
}

// puzzleRequest is the person and interaction a puzzle action answers.
func puzzleRequest(in *Interaction, deliver bool) progress.Request {
	return progress.Request{User: in.User, Interaction: in.ID, Deliver: deliver}
}

// puzzle starts the person's try at the puzzle asked for, or shows their
// unfinished try in that slot again.
func (b *Bot) puzzle(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	kind, d, err := puzzleOptions(in)
	if err != nil {
		return Response{}, false, err
	}
	a, recorded, err := b.puzzles.Start(ctx, puzzleRequest(in, deliver), kind, d)
	if err != nil {
		return Response{}, recorded, err
	}
	w := in.Private
	var notes []string
	if !a.Counted {
		notes = append(notes, w.Say("puzzle.practice", nil))
	}
	resp, err := puzzleReply(w, a, "", notes)
	return resp, recorded, err
}

func (b *Bot) clickPuzzleColumn(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	return b.pressPuzzle(ctx, in, deliver, game.Coord{Col: in.Vars.Int("col")})
}

func (b *Bot) clickPuzzleCell(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	return b.pressPuzzle(ctx, in, deliver, game.Coord{Row: in.Vars.Int("row"), Col: in.Vars.Int("col")})
}

// pressPuzzle plays the person's move in the try the button belongs to and
// redraws the message: the solver's answer, or how the try ended.
func (b *Bot) pressPuzzle(ctx context.Context, in *Interaction, deliver bool, at game.Coord) (Response, bool, error) {
	s, recorded, err := b.puzzles.Press(ctx, puzzleRequest(in, deliver), in.Vars.Int("try"), in.Vars.Int("ply"), at)
	if err != nil {
		return Response{}, recorded, err
	}
	w := in.Private
	a := s.Attempt
	r := a.Puzzle.Rules
	var headline string
	var notes []string
	switch {
	case !a.Over:
		headline = w.Say("puzzle.step", locales.Data{"Where": userCoord(w, r, s.Move), "Reply": userCoord(w, r, s.Reply)})
	case a.Solved:
		headline = w.Say("puzzle.solved", locales.Data{"Line": puzzleLine(w, a, a.Line)})
	default:
		headline = w.Say("puzzle.failed", locales.Data{"Where": userCoord(w, r, s.Move), "Line": puzzleLine(w, a, a.Line)})
	}
	if s.Rated {
		notes = append(notes, w.Say("puzzle.rating", locales.Data{"Before": s.Before, "After": s.After}))
		if a.Solved && a.Daily() {
			notes = append(notes, w.SayN("puzzle.streak", s.Streak, nil))
		}
	}
	resp, err := puzzleReply(w, a, headline, notes)
	resp.Kind = Update // the press redraws the message it was on
	return resp, recorded, err
}

// puzzleReply lays out a try: its title, headline, the board, what the
// person is to do (while it is open) and notes, with a button a move.
func puzzleReply(w *locales.Speaker, a progress.Attempt, headline string, notes []string) (Response, error) {
	g, err := a.Position()
	if err != nil {
		return Response{}, err
	}
	lines := []string{puzzleTitle(w, a)}
	if headline != "" {
		lines = append(lines, headline)
	}
	r := g.Rules()
	focus, ok := g.LastPlaced()
	if !ok {
		focus = game.Coord{Row: r.Rows / 2, Col: r.Cols / 2}
	}
	lines = append(lines, "```\n"+render.String(g, render.Fit(r, textBoardBudget, focus))+"```")
	if !a.Over {
		lines = append(lines, w.SayN("puzzle.goal", a.MovesLeft(), locales.Data{"Token": locales.Code(string(g.Token(g.Turn())))}))
	}
	lines = append(lines, notes...)
	resp := ephemeral(strings.Join(lines, "\n"))
	resp.Components = puzzleButtons(a, g)
	resp.Card, resp.Accent = true, accentOf(g, !a.Over) // a board, shown as every board is
	return resp, nil
}

// puzzleTitle names the puzzle: the daily one of its kind of game and day,
// or its kind of game and difficulty.
func puzzleTitle(w *locales.Speaker, a progress.Attempt) string {
	kind := rulesLine(w, a.Puzzle.Rules, game.Fast) // a classic puzzle on 4×4
	if k := table.KindOf(a.Puzzle.Rules); k != table.KindOther {
		kind = kindName(w, k)
	}
	if a.Daily() {
		day, _ := time.Parse(time.DateOnly, a.Day)
		return w.Say("puzzle.title.daily", locales.Data{"Kind": kind, "Day": discordTime(day, "D")})
	}
	return w.Say("puzzle.title.pick", locales.Data{"Kind": kind,
		"Difficulty": w.Say(choiceKey(RoutePuzzle.subcommand(), optDifficulty, a.Puzzle.Difficulty), nil)})
}

// puzzleLine writes moves of a try, from the position the try had reached
// when they began, one after another with their tokens.
func puzzleLine(w *locales.Speaker, a progress.Attempt, line []game.Coord) string {
	g, err := a.Puzzle.Position()
	if err != nil {
		return ""
	}
	// The line starts from the puzzle's position when it repeats the
	// moves played, else after them.
	if !slices.Equal(a.Played, line[:min(len(a.Played), len(line))]) {
		for _, c := range a.Played {
			if _, err := g.Play(g.Turn(), c); err != nil {
				return ""
			}
		}
	}
	parts := make([]string, 0, len(line))
	for _, c := range line {
		tok := g.Token(g.Turn())
		at, err := g.Play(g.Turn(), c)
		if err != nil {
			break
		}
		parts = append(parts, w.Say("puzzle.move", locales.Data{"Token": string(tok), "Where": userCoord(w, g.Rules(), at)}))
	}
	return strings.Join(parts, w.Say("puzzle.separator", nil))
}

// gameTokens are g's tokens by seat, as text (a puzzle's X and O).
func gameTokens(g *game.Game) []string {
	tokens := make([]string, g.Rules().Players)
	for p := range tokens {
		tokens[p] = string(g.Token(p))
	}
	return tokens
}

// puzzleButtons are a try's moves: a button a free column under gravity, a
// button a cell on a free board (taken cells shown, disabled). A finished
// try keeps a free board's cells, all disabled; a gravity board's buttons
// are cleared.
func puzzleButtons(a progress.Attempt, g *game.Game) []discordgo.MessageComponent {
	try, ply := strconv.Itoa(a.N), strconv.Itoa(len(a.Played))
	r := g.Rules()
	var rows []discordgo.MessageComponent
	switch {
	case r.Gravity && r.Cols <= maxColumns && !a.Over:
		rows = columnButtons(g, nil, ButtonPuzzleColumn, try, ply)
	case !r.Gravity && r.Rows <= maxGridSide && r.Cols <= maxGridSide:
		rows = cellGrid(g, gameTokens(g), a.Over, ButtonPuzzleCell, try, ply)
	}
	if rows == nil {
		rows = []discordgo.MessageComponent{} // an update clears the buttons
	}
	return rows
}
