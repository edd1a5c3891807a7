package render

import (
	"image"

	"github.com/tttbot/tttbot/game"
)

// Image draws g as PNG does, on an image of its own: the tests' reference
// for PNG's pooled canvases and for ReplayGIF's frames.
func Image(g *game.Game) *image.Paletted { return picture(g, true) }

// picture draws g as Image does, with the winning run struck through only
// when struck is set.
func picture(g *game.Game, struck bool) *image.Paletted {
	r := g.Rules()
	l := layoutFor(r)
	img := emptyBoard(r, l)
	drawPlay(img, g, l, struck)
	return img
}
