package render

import "github.com/tttbot/tttbot/game"

// Window is the rectangle of the board a drawing shows, in engine
// coordinates (row 0 at the top).
type Window struct {
	Top, Left  int // first row and column shown
	Rows, Cols int // how many rows and columns are shown
}

// Whole returns the window that shows the entire board.
func Whole(r game.Rules) Window {
	return Window{Rows: r.Rows, Cols: r.Cols}
}

// IsWhole reports whether w shows the entire board.
func (w Window) IsWhole(r game.Rules) bool {
	return w.Top == 0 && w.Left == 0 && w.Rows == r.Rows && w.Cols == r.Cols
}

// Contains reports whether c lies inside w.
func (w Window) Contains(c game.Coord) bool {
	return c.Row >= w.Top && c.Row < w.Top+w.Rows && c.Col >= w.Left && c.Col < w.Left+w.Cols
}

// UserRows returns the first and last row shown as a player numbers them
// (counted from the bottom under gravity), lowest first.
func (w Window) UserRows(r game.Rules) (lo, hi int) {
	a, b := r.UserRow(w.Top), r.UserRow(w.Top+w.Rows-1)
	return min(a, b), max(a, b)
}

// Fit returns the largest window centred as near c as the board's edges
// allow whose drawing by Text takes at most budget bytes. When the whole
// board fits, that is the window. It prefers the window whose shorter side is
// longest (square-ish windows read well on phones as on desktops), then the
// largest area. A budget too small for even one cell still returns 1×1.
func Fit(r game.Rules, budget int, c game.Coord) Window {
	l := measure(r)
	if l.size(r.Rows, r.Cols) <= budget {
		return Whole(r)
	}
	bestH, bestW := 1, 1
	for h := 1; h <= r.Rows; h++ {
		w := l.maxCols(h, budget)
		if w < 1 {
			break
		}
		w = min(w, r.Cols)
		side, bestSide := min(h, w), min(bestH, bestW)
		if side > bestSide || side == bestSide && h*w > bestH*bestW {
			bestH, bestW = h, w
		}
	}
	return Window{
		Top:  clamp(c.Row-bestH/2, 0, r.Rows-bestH),
		Left: clamp(c.Col-bestW/2, 0, r.Cols-bestW),
		Rows: bestH,
		Cols: bestW,
	}
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
