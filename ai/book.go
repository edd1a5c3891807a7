package ai

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/tttbot/tttbot/game"
)

// bookData holds exact scores of the opening positions of one board: every
// position a game can reach with at most Plies stones, whoever played the
// moves, except those the solver reads off at once (Trivial). Positions
// are stored once for a position and its mirror image.
type bookData struct {
	Rules game.Rules
	Plies int
	Weak  bool // scores are only −1, 0 or +1: who wins, not how fast
	// Complete: every reachable non-trivial position within Plies is in
	// the book. A partial book (a generation that has not finished) holds
	// only the positions its solved leaves decide; the rest are solved
	// when played.
	Complete bool
	keys     []uint64 // canonical keys, ascending
	scores   []int8
}

// newBookData builds a book from canonical keys and their scores.
func newBookData(r game.Rules, plies int, weak, complete bool, scores map[uint64]int8) *bookData {
	b := &bookData{Rules: r, Plies: plies, Weak: weak, Complete: complete}
	for k := range scores {
		b.keys = append(b.keys, k)
	}
	slices.Sort(b.keys)
	for _, k := range b.keys {
		b.scores = append(b.scores, scores[k])
	}
	return b
}

// Len is the number of positions in the book.
func (b *bookData) Len() int { return len(b.keys) }

// Entry returns the i-th key and score, in key order.
func (b *bookData) Entry(i int) (uint64, int) { return b.keys[i], int(b.scores[i]) }

// Lookup returns the score of p if the book has it.
func (b *bookData) Lookup(g *geometry, p bitPos) (int, bool) {
	k := g.Canonical(p)
	i, ok := slices.BinarySearch(b.keys, k)
	if !ok {
		return 0, false
	}
	return int(b.scores[i]), true
}

// Trivial returns the score of a position the solver reads off at once:
// the mover wins with one stone, or the opponent has two threats or a
// threat over the mover's only way to stop the other.
func (g *geometry) Trivial(p bitPos) (int, bool) {
	if g.CanWinNext(p) {
		return g.maxScore(p.Moves), true
	}
	if g.NonLosing(p) == 0 {
		return g.minScore(p.Moves), true
	}
	return 0, false
}

// The file format: "tttbook2", then DEFLATE of uvarints rows, cols, win,
// plies, flags (1 weak, 2 complete), count, count key deltas (keys
// ascending from 0), and count score bytes. Sorted keys of a few million
// positions differ by little, so the deltas are short. "tttbook1" files
// (flags only weak, always complete) still read.
const (
	bookMagic   = "tttbook2"
	bookMagicV1 = "tttbook1"
)

// MarshalBinary encodes the book.
func (b *bookData) MarshalBinary() ([]byte, error) {
	var raw []byte
	flags := 0
	if b.Weak {
		flags |= 1
	}
	if b.Complete {
		flags |= 2
	}
	for _, v := range []int{b.Rules.Rows, b.Rules.Cols, b.Rules.Win, b.Plies, flags, len(b.keys)} {
		raw = binary.AppendUvarint(raw, uint64(v))
	}
	prev := uint64(0)
	for _, k := range b.keys {
		raw = binary.AppendUvarint(raw, k-prev)
		prev = k
	}
	for _, s := range b.scores {
		raw = append(raw, byte(s))
	}
	var out bytes.Buffer
	out.WriteString(bookMagic)
	w, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// parseBook decodes a book written by MarshalBinary.
func parseBook(data []byte) (*bookData, error) {
	v1 := bytes.HasPrefix(data, []byte(bookMagicV1))
	if !v1 && !bytes.HasPrefix(data, []byte(bookMagic)) {
		return nil, errors.New("opening book: bad magic")
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(data[len(bookMagic):])))
	if err != nil {
		return nil, fmt.Errorf("opening book: %w", err)
	}
	rd := bytes.NewReader(raw)
	var head [6]uint64
	for i := range head {
		if head[i], err = binary.ReadUvarint(rd); err != nil {
			return nil, fmt.Errorf("opening book header: %w", err)
		}
	}
	n := int(head[5])
	if n > len(raw) {
		return nil, errors.New("opening book: truncated")
	}
	b := &bookData{
		Rules:    game.Rules{Rows: int(head[0]), Cols: int(head[1]), Win: int(head[2]), Gravity: true, Players: 2},
		Plies:    int(head[3]),
		Weak:     head[4]&1 != 0,
		Complete: v1 || head[4]&2 != 0,
		keys:     make([]uint64, n),
	}
	prev := uint64(0)
	for i := range b.keys {
		d, err := binary.ReadUvarint(rd)
		if err != nil {
			return nil, fmt.Errorf("opening book key %d: %w", i, err)
		}
		prev += d
		b.keys[i] = prev
	}
	scores := make([]byte, n)
	if _, err := io.ReadFull(rd, scores); err != nil {
		return nil, fmt.Errorf("opening book scores: %w", err)
	}
	b.scores = make([]int8, n)
	for i, s := range scores {
		b.scores[i] = int8(s)
	}
	return b, nil
}
