package render

import (
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"

	"github.com/tttbot/tttbot/game"
)

// Replay timing, in hundredths of a second (GIF's unit). The moves of a
// game play in about replayLength whatever their number, each frame between
// minMoveDelay (browsers show delays of 0 or 1 as 10, so faster is not
// reliable) and maxMoveDelay (a 3×3 game should not crawl). The empty board
// shows for startDelay and the final position holds for holdDelay before
// the animation starts again. unmarkDelay is the shortest delay browsers
// honour, for the frame that clears a far-away highlight (see splitFactor).
const (
	replayLength = 2000
	minMoveDelay = 3
	maxMoveDelay = 80
	startDelay   = 100
	holdDelay    = 400
	unmarkDelay  = 2
)

// splitFactor decides when a move's frame would be mostly transparent
// filler: when the rectangle spanning the previous move's cell (whose
// highlight goes) and the new move's cell is more than splitFactor times
// their two areas, the old highlight is cleared in a frame of its own just
// before the move. Without this, two cells at opposite corners of a 100×100
// board make a frame of the whole picture, and a long game's frames held in
// memory run to gigabytes; with it, every frame after the first is at most a
// few cells, whatever the board.
const splitFactor = 4

// replayPalette is a picture palette with, last, the transparent colour of
// a replay frame: the pixels a frame leaves as they were.
func replayPalette(pal color.Palette) (color.Palette, uint8) {
	return append(slices.Clone(pal), color.RGBA{}), uint8(len(pal))
}

// moveDelay is the delay of each move's frame in a replay of n placements.
func moveDelay(n int) int {
	return min(maxMoveDelay, max(minMoveDelay, replayLength/max(n, 1)))
}

// ReplayGIF writes an animated GIF of g, looping: the empty board, then one
// frame a placement with that move's cell highlighted, then a final frame
// that strikes through the winning run (if any) and holds for four seconds.
// The final frame shows exactly the picture PNG draws. Resignations change no cell and get
// no frame of their own. g may be finished or not; to replay a stored game,
// rebuild it with game.Replay.
//
// The first frame is the whole picture; every later one covers only the
// rectangle that changed, with unchanged pixels transparent and each frame
// left in place for the next (GIF's "do not dispose"), so a move costs tens
// to hundreds of bytes however big the board. When a move lands far from
// the one before, the old highlight is cleared by a frame of its own shown
// for 20 ms just before the move's frame, which keeps every frame a few
// cells small. Cells shrink with the board as in Image. The output depends
// only on g.
func ReplayGIF(w io.Writer, g *game.Game) error { return Look{}.ReplayGIF(w, g) }

// ReplayGIF animates g as the package's ReplayGIF does, each seat's token
// drawn as its face (see Look.PNG); the final frame is Look.PNG's picture.
func (k Look) ReplayGIF(w io.Writer, g *game.Game) error {
	l := layoutFor(g.Rules())
	p := newPainter(g, k, l)
	want := p.emptyBoard() // the picture after the frames so far
	p.drawLegend(want)
	seen := image.NewPaletted(want.Bounds(), want.Palette)
	copy(seen.Pix, want.Pix) // what a viewer sees: the same, frame by frame
	pal, idxClear := replayPalette(p.pal)
	moves := g.Moves()

	first := image.NewPaletted(want.Bounds(), pal)
	copy(first.Pix, want.Pix)
	anim := &animation{Config: image.Config{ColorModel: pal, Width: want.Rect.Dx(), Height: want.Rect.Dy()}}
	anim.add(first, startDelay)
	placed := 0
	for _, m := range moves {
		if m.Kind == game.Place {
			placed++
		}
	}
	delay := moveDelay(placed)
	var prev game.Move
	hasPrev := false
	for _, m := range moves {
		if m.Kind != game.Place {
			continue
		}
		changed := cellRect(l, m.At)
		if hasPrev {
			old := cellRect(l, prev.At)
			p.cell(want, prev.At, prev.Player, false)
			if both := changed.Union(old); area(both) > splitFactor*(area(changed)+area(old)) {
				anim.add(diffFrame(seen, want, old, pal, idxClear), unmarkDelay)
			} else {
				changed = both
			}
		}
		p.cell(want, m.At, m.Player, true)
		anim.add(diffFrame(seen, want, changed, pal, idxClear), delay)
		prev, hasPrev = m, true
	}
	drawWinningLine(want, l, g.WinningLine())
	anim.add(diffFrame(seen, want, want.Bounds(), pal, idxClear), holdDelay)
	return gif.EncodeAll(w, (*gif.GIF)(anim))
}

// animation builds a gif.GIF whose frames are each left in place.
type animation gif.GIF

func (a *animation) add(frame *image.Paletted, delay int) {
	a.Image = append(a.Image, frame)
	a.Delay = append(a.Delay, delay)
	a.Disposal = append(a.Disposal, gif.DisposalNone)
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }

// diffFrame returns the frame that turns seen into want within area: the
// smallest rectangle holding every pixel that differs, with the pixels that
// do not differ transparent, and updates seen. When nothing differs it is a
// single transparent pixel (a GIF frame cannot be empty).
func diffFrame(seen, want *image.Paletted, area image.Rectangle, pal color.Palette, idxClear uint8) *image.Paletted {
	area = area.Intersect(want.Bounds())
	box := image.Rectangle{}
	for y := area.Min.Y; y < area.Max.Y; y++ {
		i := want.PixOffset(area.Min.X, y)
		a, b := want.Pix[i:i+area.Dx()], seen.Pix[i:i+area.Dx()]
		lo := 0
		for lo < len(a) && a[lo] == b[lo] {
			lo++
		}
		if lo == len(a) {
			continue
		}
		hi := len(a)
		for a[hi-1] == b[hi-1] {
			hi--
		}
		box = box.Union(image.Rect(area.Min.X+lo, y, area.Min.X+hi, y+1))
	}
	if box.Empty() {
		f := image.NewPaletted(image.Rect(0, 0, 1, 1), pal)
		f.Pix[0] = idxClear
		return f
	}
	f := image.NewPaletted(box, pal)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		i := want.PixOffset(box.Min.X, y)
		a, b := want.Pix[i:i+box.Dx()], seen.Pix[i:i+box.Dx()]
		dst := f.Pix[f.PixOffset(box.Min.X, y):][:box.Dx()]
		for x := range a {
			if a[x] == b[x] {
				dst[x] = idxClear
			} else {
				dst[x] = a[x]
			}
		}
		copy(b, a)
	}
	return f
}
