package render

import (
	"image"
	"image/color"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Charts are the tournament pictures (a standings table, a knockout
// bracket): plain input types that the caller fills in its own words,
// drawn with the same 7×13 font as boards. That font is ASCII only, so
// foldText folds what it can (accents dropped: "José" → "Jose") and
// shows the rest as '?'; the text reply beside a picture carries the
// names in full.

// The charts' palette.
var (
	chartBackground = color.RGBA{0xff, 0xff, 0xff, 0xff}
	chartRule       = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	chartText       = color.RGBA{0x30, 0x30, 0x30, 0xff}
	chartFaded      = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	chartHeader     = color.RGBA{0xe8, 0xee, 0xf4, 0xff}
	chartStripe     = color.RGBA{0xf6, 0xf6, 0xf6, 0xff}
	chartMark       = color.RGBA{0xff, 0xe0, 0x80, 0xff} // a winner's slot
)

const (
	chartIdxBackground uint8 = iota
	chartIdxRule
	chartIdxText
	chartIdxFaded
	chartIdxHeader
	chartIdxStripe
	chartIdxMark
)

func chartPalette() color.Palette {
	return color.Palette{chartBackground, chartRule, chartText, chartFaded, chartHeader, chartStripe, chartMark}
}

// newChart is a blank chart canvas of w×h pixels.
func newChart(w, h int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, w, h), chartPalette())
	fill(img, img.Bounds(), chartIdxBackground)
	return img
}

// foldText is s as the chart font can draw it, at most limit characters
// (cut with a trailing '.' when longer; limit 0 means none).
func foldText(s string, limit int) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue // a combining accent: the base letter stays
		case r == '½':
			b.WriteString(".5")
		case r >= ' ' && r <= '~':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			b.WriteByte('?')
		}
	}
	out := b.String()
	if limit > 0 && len(out) > limit {
		out = strings.TrimRight(out[:limit-1], " ") + "."
	}
	return out
}

// points writes a score in the chart font: "2", "2.5", "6.75".
func points(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64)
}

// chartWidth is s's width in pixels in the chart font.
func chartWidth(s string) int { return len(s) * charW }

// rect is the rectangle of w×h pixels at (x, y).
func rect(x, y, w, h int) image.Rectangle { return image.Rect(x, y, x+w, y+h) }
