package golden

import "image"

// SamePixels reports whether a and b have the same bounds and, at every
// point, the same colour once both are read as 16-bit premultiplied RGBA.
// Pictures are compared this way, not by their encoded bytes, so a golden
// picture still matches when the encoder, or the image type it stores (a
// palette or plain RGBA), changes while what is shown does not.
func SamePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
