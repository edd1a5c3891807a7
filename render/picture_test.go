package render

import (
	"image"

	"github.com/tttbot/tttbot/game"
)

// Image draws g as PNG does, on an image of its own: the tests' reference
// for PNG's pooled canvases and for ReplayGIF's frames.
func Image(g *game.Game) *image.Paletted { return picture(g, Look{}, true) }

// picture draws g with look as Image does, with the winning run struck
// through only when struck is set.
func picture(g *game.Game, look Look, struck bool) *image.Paletted {
	p := newPainter(g, look, layoutFor(g.Rules()))
	img := p.emptyBoard()
	p.drawPlay(img, struck)
	return img
}
