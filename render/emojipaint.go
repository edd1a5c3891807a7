package render

import (
	"context"
	"image"
	"image/color"
	"slices"

	xdraw "golang.org/x/image/draw"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/twemoji"
)

// Emoji in pictures: an emoji is drawn in a cell of at least minEmojiCell
// pixels, emojiScale/4 of the cell a side, over its seat's disc (whose rim
// stays visible, so seats with look-alike emoji keep their colours). Smaller
// cells show the discs alone, and the legend under the board says which
// disc is whose. A legend line is legendLine pixels high, its emoji
// legendEmoji a side.
const (
	minEmojiCell = minTokenCell
	emojiScale   = 3
	legendLine   = 26
	legendEmoji  = 20
)

// emojiPalette is the picture palette extended with Twemoji's colours (made
// opaque), for pictures of games with emoji: 16 + 128 colours, which leaves
// room in a GIF for the replay's transparent colour.
var emojiPalette = func() color.Palette {
	p := slices.Clone(basePalette)
	for _, c := range twemoji.Palette() {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		if n.A == 0 {
			continue
		}
		p = append(p, color.RGBA{n.R, n.G, n.B, 0xff})
	}
	return p
}()

// painter draws a game's cells with its look: the discs, and in them each
// seat's character, emoji or custom emoji (or its name).
type painter struct {
	l       pictureLayout
	look    Look
	g       *game.Game
	pal     color.Palette
	quant   map[color.RGBA]uint8 // nearest palette index of each colour seen
	stamps  []*image.RGBA        // by seat: the emoji drawn in a cell, nil for none
	legend  []*image.RGBA        // by seat: the emoji drawn in the legend, nil for none
	withKey bool                 // the picture has a legend
}

// newPainter prepares g's faces for cells of l's size: it scales each
// seat's emoji once, and fetches custom emoji's pictures through
// look.Images (a failed fetch leaves the seat drawn by name).
func newPainter(g *game.Game, look Look, l pictureLayout) *painter {
	p := &painter{l: l, look: look, g: g, pal: basePalette}
	if !look.hasEmoji() {
		return p
	}
	p.pal, p.withKey = emojiPalette, true
	p.quant = map[color.RGBA]uint8{}
	p.stamps = make([]*image.RGBA, g.Rules().Players)
	p.legend = make([]*image.RGBA, g.Rules().Players)
	side := l.cell * emojiScale / 4
	for s := range p.stamps {
		src := look.picture(look.face(g, s))
		if src == nil {
			continue
		}
		if l.cell >= minEmojiCell {
			p.stamps[s] = scaled(src, side)
		}
		p.legend[s] = scaled(src, legendEmoji)
	}
	return p
}

// picture is f's emoji picture, or nil for a character or a custom emoji
// whose picture cannot be had.
func (k Look) picture(f Face) image.Image {
	switch f.Kind {
	case Unicode:
		if img, ok := twemoji.Image(f.Text); ok {
			return img
		}
	case Custom:
		if k.Images == nil || f.ID == "" {
			return nil
		}
		// Images bounds its own waiting (see Images); drawing has no
		// deadline to pass on.
		if img, err := k.Images.Image(context.Background(), f.ID, f.Animated); err == nil && img != nil && !img.Bounds().Empty() {
			return img
		}
	}
	return nil
}

// scaled is src resized to side×side pixels, smoothly, with its alpha.
func scaled(src image.Image, side int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	xdraw.CatmullRom.Scale(dst, dst.Rect, src, src.Bounds(), xdraw.Src, nil)
	return dst
}

// stamp draws img centred on (cx, cy), blending its edges with what is
// under them, each pixel in the nearest palette colour.
func (p *painter) stamp(dst *image.Paletted, img *image.RGBA, cx, cy int) {
	x0, y0 := cx-img.Rect.Dx()/2, cy-img.Rect.Dy()/2
	for y := 0; y < img.Rect.Dy(); y++ {
		for x := 0; x < img.Rect.Dx(); x++ {
			i := img.PixOffset(x, y)
			s := img.Pix[i : i+4 : i+4]
			if s[3] == 0 || !image.Pt(x0+x, y0+y).In(dst.Rect) {
				continue
			}
			c := color.RGBA{s[0], s[1], s[2], 0xff}
			if s[3] != 0xff { // premultiplied: src + (1-α)·dst
				under := p.pal[dst.ColorIndexAt(x0+x, y0+y)].(color.RGBA)
				inv := 0xff - uint32(s[3])
				c.R = uint8(uint32(s[0]) + uint32(under.R)*inv/0xff)
				c.G = uint8(uint32(s[1]) + uint32(under.G)*inv/0xff)
				c.B = uint8(uint32(s[2]) + uint32(under.B)*inv/0xff)
			}
			dst.SetColorIndex(x0+x, y0+y, p.index(c))
		}
	}
}

// index is the palette colour nearest c.
func (p *painter) index(c color.RGBA) uint8 {
	i, ok := p.quant[c]
	if !ok {
		i = uint8(p.pal.Index(c))
		p.quant[c] = i
	}
	return i
}

// cell paints the inside of cell c (never its grid lines): highlighted when
// it holds the last move, then player's disc with its token when the cell is
// big enough to show it. player may be game.NoPlayer for an empty cell.
func (p *painter) cell(img *image.Paletted, c game.Coord, player int, last bool) {
	l := p.l
	bg := idxBackground
	if last {
		bg = idxLast
	}
	fill(img, cellRect(l, c).Inset(1), bg)
	if player == game.NoPlayer {
		return
	}
	cx, cy := center(l, c)
	disc(img, cx, cy, max(2, l.cell*2/5), idxPlayer0+uint8(player))
	if l.cell < minTokenCell {
		return
	}
	switch f := p.look.face(p.g, player); {
	case p.stamps != nil && p.stamps[player] != nil:
		p.stamp(img, p.stamps[player], cx, cy)
	case f.Kind == Char:
		if tok := p.g.Token(player); tok >= '!' && tok <= '~' {
			text(img, string(tok), cx-3, cy+5, colToken)
		}
	case f.Kind == Custom:
		name := f.Name[:min(len(f.Name), max(1, (l.cell-4)/charW))]
		text(img, name, cx-len(name)*charW/2, cy+5, colToken)
	}
}

// legendSize is the width and height of the legend under a board of g
// drawn with look: a line a seat when a face is an emoji, else none.
func legendSize(g *game.Game, look Look) (w, h int) {
	if !look.hasEmoji() {
		return 0, 0
	}
	name := 0
	for s := range g.Rules().Players {
		if f := look.face(g, s); f.Kind == Custom {
			name = max(name, len(f.Name)+2)
		}
	}
	return margin + legendLine + 4 + legendEmoji + 4 + name*charW + margin, g.Rules().Players*legendLine + margin
}

// drawLegend writes under the board, a line a seat, the seat's disc and its
// token: the emoji, or the character, and a custom emoji's :name:.
func (p *painter) drawLegend(img *image.Paletted) {
	if !p.withKey {
		return
	}
	top := p.l.boardBottom(p.g.Rules())
	for s := range p.g.Rules().Players {
		cy := top + s*legendLine + legendLine/2
		cx := margin + legendLine/2
		disc(img, cx, cy, legendLine*2/5, idxPlayer0+uint8(s))
		f := p.look.face(p.g, s)
		x := cx + legendLine/2 + 4
		if p.legend[s] != nil {
			p.stamp(img, p.legend[s], x+legendEmoji/2, cy)
			x += legendEmoji + 4
		}
		switch {
		case f.Kind == Char:
			if tok := p.g.Token(s); tok >= '!' && tok <= '~' {
				text(img, string(tok), cx-3, cy+5, colToken)
			}
		case f.Kind == Custom:
			text(img, ":"+f.Name+":", x, cy+5, colText)
		}
	}
}
