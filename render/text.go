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
	cell  int // width of a cell: the digits of the largest column index
}

func measure(r game.Rules) layout {
	l := layout{cell: len(strconv.Itoa(r.Cols - 1))}
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
func Text(w io.Writer, g *game.Game, win Window) error {
	bw := bufio.NewWriter(w)
	drawText(bw, g, win)
	return bw.Flush()
}

// String is Text into a string. A reply draws its board on every move, so
// this writes straight into one builder sized for the board.
func String(g *game.Game, win Window) string {
	var sb strings.Builder
	if r := g.Rules(); !r.IsClassic() {
		sb.Grow(measure(r).size(win.Rows, win.Cols))
	}
	drawText(&sb, g, win)
	return sb.String()
}

func drawText(w textWriter, g *game.Game, win Window) {
	last, hasLast := g.LastPlaced()
	mark := marker{line: g.WinningLine(), last: last, hasLast: hasLast}
	if g.Rules().IsClassic() {
		classic(w, g, mark)
	} else {
		grid(w, g, win, mark)
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

// cellRune is what a cell shows: its token, or Empty.
func cellRune(g *game.Game, c game.Coord) rune {
	if p := g.At(c); p != game.NoPlayer {
		return g.Token(p)
	}
	return Empty
}

// grid draws a window of a free or gravity board. Each column takes cell+1
// characters with the token in the last one, so the characters just left
// and right of a token are free for its marks: [X] for the last move, *X* for
// the winning run.
func grid(w textWriter, g *game.Game, win Window, m marker) {
	r := g.Rules()
	l := measure(r)
	width := l.label + win.Cols*(l.cell+1) + 1
	line := make([]rune, width)
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
	writeLine(w, line)
	for row := win.Top; row < win.Top+win.Rows; row++ {
		blank()
		if l.label > 0 {
			putRight(line, strconv.Itoa(r.UserRow(row)), l.label-1)
		}
		for col := win.Left; col < win.Left+win.Cols; col++ {
			c := game.Coord{Row: row, Col: col}
			at := tokenAt(col)
			line[at] = cellRune(g, c)
			if m.inLine(c) && line[at-1] == ' ' {
				line[at-1], line[at+1] = '*', '*'
			}
		}
		if m.hasLast && m.last.Row == row && win.Contains(m.last) {
			at := tokenAt(m.last.Col)
			line[at-1], line[at+1] = '[', ']'
		}
		writeLine(w, line)
	}
}

// putRight writes s so that its last character lands on index end.
func putRight(line []rune, s string, end int) {
	rs := []rune(s)
	copy(line[end-len(rs)+1:], rs)
}

// classic draws the classic 3×3 box, with cell numbers in the empty cells.
func classic(w textWriter, g *game.Game, m marker) {
	const rule = "+---+---+---+"
	writeLine(w, []rune(rule))
	for row := 0; row < 3; row++ {
		line := []rune{'|'}
		for col := 0; col < 3; col++ {
			c := game.Coord{Row: row, Col: col}
			cell := cellRune(g, c)
			if cell == Empty {
				cell = rune('0' + row*3 + col)
			}
			open, end := ' ', ' '
			switch {
			case m.isLast(c):
				open, end = '[', ']'
			case m.inLine(c):
				open, end = '*', '*'
			}
			line = append(line, open, cell, end, '|')
		}
		writeLine(w, line)
		writeLine(w, []rune(rule))
	}
}

// writeLine writes line without trailing spaces, then a newline.
func writeLine(w textWriter, line []rune) {
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		end--
	}
	for _, r := range line[:end] {
		w.WriteRune(r)
	}
	w.WriteByte('\n')
}
