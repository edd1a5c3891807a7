package render

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Empty is drawn for a free cell.
const Empty = '.'

// layout holds the widths a drawing of a board uses. Widths come from the
// whole board, not the window, so a window's columns line up with the whole
// board's.
type layout struct {
	label int // width of the row labels, 0 under gravity (no labels)
	cell  int // width of a cell: the digits of the largest column index, at least tok
	tok   int // width of a token: 1, or 2 when a seat's face is an emoji
}

func measure(r game.Rules) layout { return measureFor(r, 1) }

// measureFor is measure for tokens tok columns wide.
func measureFor(r game.Rules, tok int) layout {
	l := layout{cell: max(tok, len(strconv.Itoa(r.Cols-1))), tok: tok}
	if !r.Gravity {
		l.label = len(strconv.Itoa(r.Rows - 1))
	}
	return l
}

// lineLen is the longest a line of cols cells can be, newline included:
// the label, cell+1 characters a column, a closing mark.
func (l layout) lineLen(cols int) int { return l.label + cols*(l.cell+1) + 2 }

// size bounds the bytes Text writes for rows×cols cells with single-byte
// tokens (a header plus one line a row). Classic boards use their own drawing.
func (l layout) size(rows, cols int) int { return (rows + 1) * l.lineLen(cols) }

// maxCols is the widest window of h rows that fits budget.
func (l layout) maxCols(h, budget int) int {
	perLine := budget / (h + 1)
	return (perLine - l.label - 2) / (l.cell + 1)
}

// textWriter is what drawing needs: a *bufio.Writer for Text, a
// *strings.Builder for String (which so needs no buffer in between).
type textWriter interface {
	WriteString(string) (int, error)
	WriteRune(rune) (int, error)
	WriteByte(byte) error
}

// Text draws the part of g inside win to w. Classic 3×3 boards are always
// drawn whole, in the classic boxed style.
func Text(w io.Writer, g *game.Game, win Window) error { return Look{}.Text(w, g, win) }

// Text draws g as the package's Text does, each seat's token as its face.
// When a face is an emoji, every cell is two columns wide (an emoji's width
// in a monospaced terminal, as Unicode's East Asian Width gives it), so the
// columns stay aligned; characters are right-aligned in their two columns.
func (k Look) Text(w io.Writer, g *game.Game, win Window) error {
	bw := bufio.NewWriter(w)
	k.drawText(bw, g, win)
	return bw.Flush()
}

// String is Text into a string. A reply draws its board on every move, so
// this writes straight into one builder sized for the board.
func String(g *game.Game, win Window) string { return Look{}.String(g, win) }

// String is k.Text into a string.
func (k Look) String(g *game.Game, win Window) string {
	var sb strings.Builder
	if r := g.Rules(); !r.IsClassic() {
		sb.Grow(measure(r).size(win.Rows, win.Cols))
	}
	k.drawText(&sb, g, win)
	return sb.String()
}

func (k Look) drawText(w textWriter, g *game.Game, win Window) {
	last, hasLast := g.LastPlaced()
	mark := marker{line: g.WinningLine(), last: last, hasLast: hasLast}
	t := texts{look: k, g: g, w: w, tok: 1}
	if k.hasEmoji() {
		t.tok = 2
	}
	if g.Rules().IsClassic() {
		t.classic(mark)
	} else {
		t.grid(win, mark)
	}
}

// texts draws one text board: the writer, the game and its faces.
type texts struct {
	look Look
	g    *game.Game
	w    textWriter
	tok  int // token width: 1, or 2 with emoji faces
}

// skip marks a line position an emoji's second column takes; a negative
// rune -1-p stands for seat p's face, written whole.
const skip rune = -1 << 20

// put places cell c's content so that it ends at line[at].
func (t texts) put(line []rune, at int, c game.Coord) {
	p := t.g.At(c)
	switch {
	case p == game.NoPlayer:
		line[at] = Empty
	case t.tok == 1:
		line[at] = t.g.Token(p)
	case t.look.face(t.g, p).width() == 2:
		line[at-1], line[at] = skip, rune(-1-p)
	default:
		line[at] = rune(-1 - p)
	}
}

// marker knows which cells are highlighted.
type marker struct {
	line    []game.Coord
	last    game.Coord
	hasLast bool
}

func (m marker) isLast(c game.Coord) bool { return m.hasLast && c == m.last }
func (m marker) inLine(c game.Coord) bool { return slices.Contains(m.line, c) }

// grid draws a window of a free or gravity board. Each column takes cell+1
// characters with the token in the last one, so the characters just left
// and right of a token are free for its marks: [X] for the last move, *X* for
// the winning run.
func (t texts) grid(win Window, m marker) {
	r := t.g.Rules()
	l := measureFor(r, t.tok)
	width := l.label + win.Cols*(l.cell+1) + 1
	// The line is on the stack when it is as short as a message's board
	// lines are; a longer one (a file's wide board) is made for it.
	var stack [128]rune
	var line []rune
	if width <= len(stack) {
		line = stack[:width]
	} else {
		line = make([]rune, width)
	}
	tokenAt := func(col int) int { return l.label + (col-win.Left)*(l.cell+1) + l.cell }
	blank := func() {
		for i := range line {
			line[i] = ' '
		}
	}
	// Header: the column numbers, right-aligned over the tokens.
	blank()
	for col := win.Left; col < win.Left+win.Cols; col++ {
		putRight(line, strconv.Itoa(col), tokenAt(col))
	}
	t.writeLine(line)
	for row := win.Top; row < win.Top+win.Rows; row++ {
		blank()
		if l.label > 0 {
			putRight(line, strconv.Itoa(r.UserRow(row)), l.label-1)
		}
		for col := win.Left; col < win.Left+win.Cols; col++ {
			c := game.Coord{Row: row, Col: col}
			at := tokenAt(col)
			t.put(line, at, c)
			if m.inLine(c) && line[at-l.tok] == ' ' {
				line[at-l.tok], line[at+1] = '*', '*'
			}
		}
		if m.hasLast && m.last.Row == row && win.Contains(m.last) {
			at := tokenAt(m.last.Col)
			line[at-l.tok], line[at+1] = '[', ']'
		}
		t.writeLine(line)
	}
}

// putRight writes s so that its last character lands on index end.
func putRight(line []rune, s string, end int) {
	rs := []rune(s)
	copy(line[end-len(rs)+1:], rs)
}

// classic draws the classic 3×3 box, with cell numbers in the empty cells.
func (t texts) classic(m marker) {
	rule := []rune("+---+---+---+")
	if t.tok == 2 {
		rule = []rune("+----+----+----+")
	}
	t.writeLine(rule)
	for row := 0; row < 3; row++ {
		line := []rune{'|'}
		for col := 0; col < 3; col++ {
			c := game.Coord{Row: row, Col: col}
			cell := make([]rune, t.tok)
			for i := range cell {
				cell[i] = ' '
			}
			t.put(cell, t.tok-1, c)
			if cell[t.tok-1] == Empty {
				cell[t.tok-1] = rune('0' + row*3 + col)
			}
			open, end := ' ', ' '
			switch {
			case m.isLast(c):
				open, end = '[', ']'
			case m.inLine(c):
				open, end = '*', '*'
			}
			line = append(append(append(line, open), cell...), end, '|')
		}
		t.writeLine(line)
		t.writeLine(rule)
	}
}

// writeLine writes line without trailing spaces, then a newline; a seat's
// face stands in the line as -1-seat.
func (t texts) writeLine(line []rune) {
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		end--
	}
	for _, r := range line[:end] {
		switch {
		case r == skip:
		case r < 0:
			t.w.WriteString(t.look.face(t.g, int(-1-r)).Text)
		default:
			t.w.WriteRune(r)
		}
	}
	t.w.WriteByte('\n')
}
