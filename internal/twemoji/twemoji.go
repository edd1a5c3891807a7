// Package twemoji is Twemoji's pictures of every Unicode emoji it draws, at
// 64×64 pixels, embedded in the binary, and the list of those emoji.
//
// Twemoji is the emoji set Discord's clients draw, so a board picture shows a
// player's emoji token as the chat does. The pictures come from the npm
// package emoji-datasource-twitter's 128-colour sprite sheet (cut into tiles by
// ./internal/twemojigen); the graphics are © Twitter, Inc. and other
// contributors, licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/),
// as NOTICE beside this file says. The tiles cost about 2.4 MB in the binary
// (the stripped binary grows by 2.9 MB with the list and the code that reads
// it); a tile is inflated only when drawn, 4 KB at a time.
//
// To rebuild tiles.bin and table.go: npm pack emoji-datasource-twitter, unpack
// it, and run EMOJI_DATASOURCE_TWITTER=path/to/package go generate
// ./internal/twemoji.
package twemoji

//go:generate sh -c "test -n \"$EMOJI_DATASOURCE_TWITTER\" && go run ./internal/twemojigen -pkg \"$EMOJI_DATASOURCE_TWITTER\" -version 16.0.0 -out ."

import (
	"compress/zlib"
	_ "embed"
	"image"
	"image/color"
	"io"
	"sort"
	"strings"
)

// Size is the side of every picture, in pixels.
const Size = 64

//go:embed tiles.bin
var tileData string

// tileRef is where an emoji's compressed tile lies in tileData.
type tileRef struct {
	seq      string
	off, len int
}

// Palette returns the colours every picture is drawn in (a copy). Many carry
// alpha: the edges of a picture are see-through.
func Palette() color.Palette { return append(color.Palette(nil), sheetPalette...) }

// Qualified returns the fully-qualified spelling of the emoji s (with the
// U+FE0F variation selectors Unicode recommends), and whether Twemoji has a
// picture of it. s may be fully qualified already, or spelled without some or
// all of its U+FE0F selectors.
func Qualified(s string) (string, bool) {
	if _, ok := find(s); ok {
		return s, true
	}
	if q, ok := unqualified[s]; ok {
		return q, true
	}
	if stripped := strings.ReplaceAll(s, "\uFE0F", ""); stripped != s {
		if _, ok := find(stripped); ok {
			return stripped, true
		}
		if q, ok := unqualified[stripped]; ok {
			return q, true
		}
	}
	return "", false
}

// Count is how many emoji have a picture.
func Count() int { return len(tiles) }

// Image returns the picture of the fully-qualified emoji s (see Qualified),
// 64×64 pixels in Palette's colours, or false when Twemoji has none.
func Image(s string) (*image.Paletted, bool) {
	i, ok := find(s)
	if !ok {
		return nil, false
	}
	t := tiles[i]
	zr, err := zlib.NewReader(strings.NewReader(tileData[t.off : t.off+t.len]))
	if err != nil {
		return nil, false // the embedded data is checked by the tests
	}
	img := image.NewPaletted(image.Rect(0, 0, Size, Size), sheetPalette)
	if _, err := io.ReadFull(zr, img.Pix); err != nil {
		return nil, false
	}
	return img, true
}

// find returns the index of the fully-qualified emoji s in tiles.
func find(s string) (int, bool) {
	i := sort.Search(len(tiles), func(i int) bool { return tiles[i].seq >= s })
	return i, i < len(tiles) && tiles[i].seq == s
}
