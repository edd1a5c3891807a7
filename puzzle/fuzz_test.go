package puzzle

import (
	"context"
	"errors"
	"testing"

	"github.com/tttbot/tttbot/game"
)

// FuzzDecodeID: any text either names a position, which encodes back to
// the same text, or is refused; it never panics.
func FuzzDecodeID(f *testing.F) {
	for _, s := range []string{"c4-3255642243", "t333-01236", "t443-012345b8", "c4-", "t999-0", "c4-0000000", "t333-z", "-", "t33-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k, r, moves, err := decodeID(id)
		if err != nil {
			return
		}
		if back := encodeID(k, r, moves); back != id {
			t.Fatalf("%q decodes to moves that encode as %q", id, back)
		}
	})
}

// FuzzJudge: any moves at a classic puzzle are judged or refused with
// ErrBadTry; Judge never panics.
func FuzzJudge(f *testing.F) {
	f.Add([]byte{3, 3})
	f.Add([]byte{0, 0, 1, 1, 2, 2})
	f.Add([]byte{9, 9})
	p := Pool(Classic, Hard)[0]
	f.Fuzz(func(t *testing.T, data []byte) {
		var played []game.Coord
		for i := 0; i+1 < len(data) && len(played) < 16; i += 2 {
			played = append(played, game.Coord{Row: int(data[i]%6) - 1, Col: int(data[i+1]%6) - 1})
		}
		if _, err := Judge(context.Background(), p, played); err != nil && !errors.Is(err, ErrBadTry) {
			t.Fatalf("%v: %v", played, err)
		}
	})
}
