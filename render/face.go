package render

import (
	"context"
	"image"

	"github.com/tttbot/tttbot/game"
)

// FaceKind is what a seat's token is: a character, a Unicode emoji or a
// custom emoji.
type FaceKind uint8

// The kinds of face.
const (
	// Char is one character: drawn as itself in text, inside its disc in
	// the picture.
	Char FaceKind = iota
	// Unicode is one Unicode emoji: two columns in a terminal, drawn from
	// Twemoji in the picture.
	Unicode
	// Custom is a Discord custom emoji: its markup in the emoji grid, its
	// image (through Images) or else its name in the picture.
	Custom
)

// Face is how a seat's token looks on a board.
type Face struct {
	Kind FaceKind
	// Text is the token as written: the character, the emoji (fully
	// qualified), or a custom emoji's markup <:name:id>.
	Text string
	// Grid is how the emoji grid writes the token ("" when it has no emoji
	// form: then no emoji grid is drawn).
	Grid string
	// Name and ID are a custom emoji's: the name is drawn when its image
	// cannot be had; the id is what Images fetches.
	Name     string
	ID       string
	Animated bool
}

// Images gives custom emoji's pictures. render declares what it needs; a
// client of Discord's CDN satisfies it. Image returns an error when the
// picture cannot be had in time (the emoji's name is drawn instead); it must
// bound its own waiting, as drawing has no deadline of its own.
type Images interface {
	Image(ctx context.Context, id string, animated bool) (image.Image, error)
}

// Look is how a game is drawn: each seat's face and where custom emoji's
// pictures come from. The zero Look draws the engine's token runes, as Text,
// String, PNG and ReplayGIF do.
type Look struct {
	Faces  []Face // by seat; a seat without one shows its engine rune
	Images Images // nil: custom emoji are drawn by name
}

// face is seat p's face.
func (k Look) face(g *game.Game, p int) Face {
	if p >= 0 && p < len(k.Faces) && k.Faces[p].Text != "" {
		return k.Faces[p]
	}
	return Face{Kind: Char, Text: string(g.Token(p))}
}

// hasEmoji reports whether a seat's face is an emoji.
func (k Look) hasEmoji() bool {
	for _, f := range k.Faces {
		if f.Kind != Char {
			return true
		}
	}
	return false
}

// width is the columns a face takes in a monospaced terminal.
func (f Face) width() int {
	if f.Kind == Char {
		return 1
	}
	return 2
}
