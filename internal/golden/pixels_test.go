package golden

import (
	"image"
	"image/color"
	"testing"
)

// TestSamePixels: one picture held as RGBA and as a palette is the same;
// one changed pixel, or the same pixels at other bounds, is not.
func TestSamePixels(t *testing.T) {
	red, blue := color.RGBA{R: 0xff, A: 0xff}, color.RGBA{B: 0xff, A: 0xff}
	rgba := image.NewRGBA(image.Rect(0, 0, 3, 2))
	paletted := image.NewPaletted(rgba.Bounds(), color.Palette{red, blue})
	for y := 0; y < 2; y++ {
		for x := 0; x < 3; x++ {
			c := red
			if x == y {
				c = blue
			}
			rgba.Set(x, y, c)
			paletted.Set(x, y, c)
		}
	}
	if !SamePixels(rgba, paletted) || !SamePixels(paletted, rgba) {
		t.Error("one picture in two image types differs")
	}
	changed := image.NewRGBA(rgba.Bounds())
	copy(changed.Pix, rgba.Pix)
	changed.Set(2, 1, color.RGBA{R: 0xff, A: 0xfe})
	if SamePixels(rgba, changed) {
		t.Error("a changed pixel is the same")
	}
	moved := image.NewRGBA(rgba.Bounds().Add(image.Pt(1, 0)))
	if SamePixels(rgba, moved) || SamePixels(rgba, rgba.SubImage(image.Rect(0, 0, 3, 1))) {
		t.Error("other bounds are the same")
	}
}
