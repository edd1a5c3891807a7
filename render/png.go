package render

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/tttbot/tttbot/game"
)

// Picture sizes: a board is drawn at most about maxSide pixels a side, with
// cells no smaller than minCell (a 100×100 board is 700 px) and no larger
// than maxCell.
const (
	maxSide = 720
	minCell = 7
	maxCell = 64
)

// Text in pictures is basicfont.Face7x13: charW pixels a character, lineH a
// line. A token is written inside its disc only in cells of at least
// minTokenCell pixels, where the 7×13 glyph fits inside the disc. The picture
// has a margin of blank pixels right and below the grid.
const (
	charW        = 7
	lineH        = 13
	minTokenCell = 16
	margin       = 4
)

// The palette: background, grid, text, highlights, then one colour per
// player. A paletted image keeps the PNG small and fast to encode.
var (
	colBackground = color.RGBA{0xff, 0xff, 0xff, 0xff}
	colGrid       = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	colText       = color.RGBA{0x30, 0x30, 0x30, 0xff}
	colLast       = color.RGBA{0xff, 0xe0, 0x80, 0xff}
	colLine       = color.RGBA{0x20, 0x20, 0x20, 0xff}
	colToken      = color.RGBA{0xff, 0xff, 0xff, 0xff}
	playerColors  = []color.RGBA{
		{0x1f, 0x77, 0xb4, 0xff}, // blue
		{0xd6, 0x27, 0x28, 0xff}, // red
		{0x2c, 0xa0, 0x2c, 0xff}, // green
		{0xff, 0x7f, 0x0e, 0xff}, // orange
		{0x94, 0x67, 0xbd, 0xff}, // purple
		{0x8c, 0x56, 0x4b, 0xff}, // brown
		{0xe3, 0x77, 0xc2, 0xff}, // pink
		{0x17, 0xbe, 0xcf, 0xff}, // cyan
		{0xbc, 0xbd, 0x22, 0xff}, // olive
		{0x7f, 0x7f, 0x7f, 0xff}, // grey
	}
)

const (
	idxBackground uint8 = iota
	idxGrid
	idxText
	idxLast
	idxLine
	idxToken
	idxPlayer0
)

// basePalette is the picture palette, made once: pictures share it and
// never change it (a palette that adds colours copies it first).
var basePalette = func() color.Palette {
	p := color.Palette{colBackground, colGrid, colText, colLast, colLine, colToken}
	for _, c := range playerColors {
		p = append(p, c)
	}
	return p
}()

// pictureLayout places the board in the picture.
type pictureLayout struct {
	cell       int // cell size in pixels
	left, top  int // margins for the coordinates
	labelEvery int // label every n-th row and column
}

func layoutFor(r game.Rules) pictureLayout {
	cell := min(maxCell, max(minCell, maxSide/max(r.Rows, r.Cols)))
	digits := len(strconv.Itoa(max(r.Rows, r.Cols) - 1))
	every := 1
	for _, n := range []int{1, 2, 5, 10, 20} {
		every = n
		if n*cell >= digits*charW+4 && n*cell >= lineH+2 {
			break
		}
	}
	return pictureLayout{cell: cell, left: digits*charW + 8, top: lineH + 6, labelEvery: every}
}

// drawPlay draws g's tokens, last move and (when struck) winning run onto
// the picture of its empty board, and the legend of an emoji game.
func (p *painter) drawPlay(img *image.Paletted, struck bool) {
	g, l := p.g, p.l
	r := g.Rules()
	last, hasLast := g.LastPlaced()
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			c := game.Coord{Row: row, Col: col}
			if s := g.At(c); s != game.NoPlayer || (hasLast && c == last) {
				p.cell(img, c, s, hasLast && c == last)
			}
		}
	}
	if struck {
		drawWinningLine(img, l, g.WinningLine())
	}
	p.drawLegend(img)
}

// pictureBounds is the size of g's picture drawn with look: the board, and
// under it the legend of an emoji game.
func pictureBounds(g *game.Game, look Look, l pictureLayout) image.Rectangle {
	r := g.Rules()
	lw, lh := legendSize(g, look)
	return image.Rect(0, 0, max(l.left+r.Cols*l.cell+1+margin, lw), l.boardBottom(r)+lh)
}

// boardBottom is the y under r's board and its margin: the legend's top.
func (l pictureLayout) boardBottom(r game.Rules) int { return l.top + r.Rows*l.cell + 1 + margin }

// emptyBoard draws the picture of g's empty board: background, grid and
// coordinates, in the painter's palette.
func (p *painter) emptyBoard() *image.Paletted {
	img := image.NewPaletted(pictureBounds(p.g, p.look, p.l), p.pal)
	drawEmpty(img, p.g.Rules(), p.l)
	return img
}

// drawEmpty paints all of img (whatever it held) as r's empty board.
func drawEmpty(img *image.Paletted, r game.Rules, l pictureLayout) {
	fill(img, img.Bounds(), idxBackground)
	for i := 0; i <= r.Rows; i++ { // horizontal grid lines
		fill(img, image.Rect(l.left, l.top+i*l.cell, l.left+r.Cols*l.cell+1, l.top+i*l.cell+1), idxGrid)
	}
	for i := 0; i <= r.Cols; i++ { // vertical grid lines
		fill(img, image.Rect(l.left+i*l.cell, l.top, l.left+i*l.cell+1, l.top+r.Rows*l.cell+1), idxGrid)
	}
	for c := 0; c < r.Cols; c += l.labelEvery {
		s := strconv.Itoa(c)
		text(img, s, l.left+c*l.cell+l.cell/2-len(s)*charW/2, l.top-5, colText)
	}
	for row := 0; row < r.Rows; row++ {
		if r.UserRow(row)%l.labelEvery != 0 {
			continue
		}
		s := strconv.Itoa(r.UserRow(row))
		text(img, s, l.left-4-len(s)*charW, l.top+row*l.cell+l.cell/2+5, colText)
	}
}

// drawWinningLine strikes through a winning run (end to end), if any.
func drawWinningLine(img *image.Paletted, l pictureLayout, line []game.Coord) {
	if len(line) < 2 {
		return
	}
	x0, y0 := center(l, line[0])
	x1, y1 := center(l, line[len(line)-1])
	stroke(img, x0, y0, x1, y1, max(1, l.cell/10), idxLine)
}

// encoder reuses the PNG encoder's compression buffers (about a megabyte)
// between pictures; it is safe for concurrent use.
var encoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ pool sync.Pool }

func (p *bufferPool) Get() *png.EncoderBuffer {
	b, _ := p.pool.Get().(*png.EncoderBuffer)
	return b
}

func (p *bufferPool) Put(b *png.EncoderBuffer) { p.pool.Put(b) }

// canvases holds, per picture size, images to draw PNGs on: a big board's
// picture is half a megabyte, drawn on every move that shows it, and is
// garbage as soon as it is encoded. Every pixel is repainted before use.
var canvases sync.Map // canvasKind → *sync.Pool of *image.Paletted

// canvasKind tells canvases apart: their size, and whether they carry the
// emoji palette.
type canvasKind struct {
	size  image.Point
	emoji bool
}

// PNG writes a picture of g: a grid with column numbers along the top and
// row numbers down the left (counted from the bottom under gravity), each
// token a disc in its player's colour with the token character inside when
// the cell is big enough, the last move's cell highlighted, and the winning
// run struck through. The output depends only on g.
func PNG(w io.Writer, g *game.Game) error { return Look{}.PNG(w, g) }

// PNG draws g as the package's PNG does, each seat's token as its face: a
// Unicode emoji from Twemoji and a custom emoji's picture (through Images,
// else its name) over the seat's disc, in cells big enough to show them.
// A game with an emoji face gets a legend under the board, a line a seat:
// its disc, its emoji, and a custom emoji's :name:. The output depends only
// on g, the faces and the pictures Images gives.
func (k Look) PNG(w io.Writer, g *game.Game) error {
	l := layoutFor(g.Rules())
	p := newPainter(g, k, l)
	bounds := pictureBounds(g, k, l)
	kind := canvasKind{size: bounds.Size(), emoji: p.withKey}
	pool, _ := canvases.LoadOrStore(kind, &sync.Pool{New: func() any { return image.NewPaletted(bounds, p.pal) }})
	img := pool.(*sync.Pool).Get().(*image.Paletted)
	defer pool.(*sync.Pool).Put(img)
	drawEmpty(img, g.Rules(), l)
	p.drawPlay(img, true)
	return encoder.Encode(w, img)
}

func cellRect(l pictureLayout, c game.Coord) image.Rectangle {
	x, y := l.left+c.Col*l.cell, l.top+c.Row*l.cell
	return image.Rect(x, y, x+l.cell+1, y+l.cell+1)
}

func center(l pictureLayout, c game.Coord) (int, int) {
	return l.left + c.Col*l.cell + l.cell/2, l.top + c.Row*l.cell + l.cell/2
}

func fill(img *image.Paletted, r image.Rectangle, idx uint8) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = idx
		}
	}
}

func disc(img *image.Paletted, cx, cy, radius int, idx uint8) {
	for y := -radius; y <= radius; y++ {
		for x := -radius; x <= radius; x++ {
			if x*x+y*y <= radius*radius && image.Pt(cx+x, cy+y).In(img.Bounds()) {
				img.SetColorIndex(cx+x, cy+y, idx)
			}
		}
	}
}

// stroke draws a thick straight line by stamping discs along it.
func stroke(img *image.Paletted, x0, y0, x1, y1, width int, idx uint8) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= steps; i++ {
		disc(img, x0+(x1-x0)*i/steps, y0+(y1-y0)*i/steps, width, idx)
	}
}

// text draws s in colour c with its baseline at (x, y).
func text(img *image.Paletted, s string, x, y int, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
