package bitboard

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

// Book holds exact scores of the opening positions of one board: every
// position a game can reach with at most Plies stones, whoever played the
// moves, except those the solver reads off at once (Trivial). Positions
// are stored once for a position and its mirror image.
type Book struct {
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

// NewBook builds a book from canonical keys and their scores.
func NewBook(r game.Rules, plies int, weak, complete bool, scores map[uint64]int8) *Book {
	b := &Book{Rules: r, Plies: plies, Weak: weak, Complete: complete}
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
func (b *Book) Len() int { return len(b.keys) }

// Entry returns the i-th key and score, in key order.
func (b *Book) Entry(i int) (uint64, int) { return b.keys[i], int(b.scores[i]) }

// Lookup returns the score of p if the book has it.
func (b *Book) Lookup(g *Geometry, p Pos) (int, bool) { return b.Get(g.Canonical(p)) }

// Get returns the score stored under a canonical key, if the book has it.
func (b *Book) Get(key uint64) (int, bool) {
	i, ok := slices.BinarySearch(b.keys, key)
	if !ok {
		return 0, false
	}
	return int(b.scores[i]), true
}

// Verify walks every position a game can reach within b's plies and
// returns the first fault: a position with at most covered stones (or any,
// in a complete book) that b lacks and cannot read off at once, or one
// above the deepest ply whose children are all known and whose value is not
// the one negamax gives over them. It reports how many positions it walked.
func (b *Book) Verify(g *Geometry, covered int) (walked int, err error) {
	clamp := func(v int) int {
		if b.Weak {
			return max(-1, min(1, v))
		}
		return v
	}
	value := func(p Pos) (int, bool, error) {
		if v, ok := g.Trivial(p); ok {
			return clamp(v), true, nil
		}
		v, ok := b.Lookup(g, p)
		if !ok && (b.Complete || p.Moves <= covered) {
			return 0, false, fmt.Errorf("position %x (%d stones) is not in the book", p.Key(), p.Moves)
		}
		return v, ok, nil
	}
	seen := map[uint64]bool{}
	var walk func(p Pos) error
	walk = func(p Pos) error {
		if seen[p.Key()] {
			return nil
		}
		seen[p.Key()] = true
		v, known, err := value(p)
		if err != nil || p.Moves == b.Plies {
			return err
		}
		best, all := -1<<30, true
		for _, m := range g.Moves(p) {
			if g.Wins(p, m) {
				best = max(best, clamp(g.MaxScore(p.Moves)))
				continue
			}
			c, ok, err := value(p.Play(m))
			if err != nil {
				return err
			}
			best, all = max(best, -c), all && ok
			if err := walk(p.Play(m)); err != nil {
				return err
			}
		}
		if _, trivial := g.Trivial(p); !trivial && known && all && best != v {
			return fmt.Errorf("position %x: book %d, its children give %d", p.Key(), v, best)
		}
		return nil
	}
	err = walk(Pos{})
	return len(seen), err
}

// Trivial returns the score of a position the solver reads off at once:
// the mover wins with one stone, or the opponent has two threats or a
// threat over the mover's only way to stop the other.
func (g *Geometry) Trivial(p Pos) (int, bool) {
	if g.CanWinNext(p) {
		return g.MaxScore(p.Moves), true
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
func (b *Book) MarshalBinary() ([]byte, error) {
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

// ParseBook decodes a book written by MarshalBinary.
func ParseBook(data []byte) (*Book, error) {
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
	b := &Book{
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

// BookMove chooses p's move from the opening book when every child of p is
// in it (or read off at once): the move to the child worst for the
// opponent, the centre first among equals, never one that lets the
// opponent win at once. A lost position is left to the caller when the
// book is weak: all its moves look alike there. A partial book may lack some
// children; then a child it holds is played if it keeps what the book
// says p is worth.
func BookMove(b *Book, geo *Geometry, r game.Rules, p Pos) (move uint64, value int, weak, ok bool) {
	if b == nil || b.Rules != r || p.Moves >= b.Plies {
		return 0, 0, false, false
	}
	next := geo.NonLosing(p)
	best, missing := -1<<30, false
	for _, m := range geo.Moves(p) {
		if m&next == 0 {
			continue // lets the opponent win at once
		}
		child := p.Play(m)
		v, ok := geo.Trivial(child)
		if !ok {
			if v, ok = b.Lookup(geo, child); !ok {
				missing = true
				continue
			}
		} else if b.Weak {
			v = max(-1, min(1, v))
		}
		if -v > best {
			best, move = -v, m
		}
	}
	if missing {
		// Only the value of p itself says the best child held is best.
		v, ok := b.Lookup(geo, p)
		if b.Weak {
			v = Sign(v)
		}
		if !ok || best < v {
			return 0, 0, false, false
		}
	}
	if b.Weak && best < 0 {
		// Lost, and a weak book cannot tell the slowest loss: the
		// solver or the heuristic chooses, to make the win hard.
		return 0, 0, false, false
	}
	return move, best, b.Weak, move != 0
}
