package puzzle

import "testing"

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
