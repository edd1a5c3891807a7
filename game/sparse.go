package game

import "slices"

// sparse is the Compact board. The original kept a map from player to the list of
// that player's positions, which makes "who is at r,c?" a search through every
// list; this keeps the same idea (only placed tokens are stored, an empty board
// holds nothing) but indexes the tokens by cell in a small open-addressing
// hash table, so a lookup is a multiply and usually one probe. Cells are
// packed into a uint16 (100×100 < 65536) and players into a byte: three bytes
// a slot, at most half the slots used.
type sparse struct {
	rows, cols int
	n          int      // tokens placed
	keys       []uint16 // cell index + 1 per slot, 0 for a free slot; nil until the first move
	vals       []uint8  // the player in each used slot
	shift      uint     // 32 − log2(len(keys)), for the multiplicative hash
}

func newSparse(rows, cols int) *sparse {
	return &sparse{rows: rows, cols: cols}
}

func (s *sparse) Rows() int   { return s.rows }
func (s *sparse) Cols() int   { return s.cols }
func (s *sparse) Filled() int { return s.n }

// slot returns where key is, or the free slot where it would go.
func (s *sparse) slot(key uint16) int {
	mask := len(s.keys) - 1
	i := int((uint32(key) * 2654435769) >> s.shift) // Fibonacci hashing
	for s.keys[i] != 0 && s.keys[i] != key {
		i = (i + 1) & mask
	}
	return i
}

func (s *sparse) At(c Coord) int {
	if !c.in(s.rows, s.cols) || s.keys == nil {
		return NoPlayer
	}
	key := uint16(c.Row*s.cols + c.Col + 1)
	if i := s.slot(key); s.keys[i] == key {
		return int(s.vals[i])
	}
	return NoPlayer
}

func (s *sparse) Set(c Coord, player int) error {
	if err := checkSet(s, c, player); err != nil {
		return err
	}
	if 2*(s.n+1) > len(s.keys) {
		s.grow()
	}
	key := uint16(c.Row*s.cols + c.Col + 1)
	i := s.slot(key)
	s.keys[i], s.vals[i] = key, uint8(player)
	s.n++
	return nil
}

// grow doubles the table (16 slots at first) and re-inserts every token.
func (s *sparse) grow() {
	oldKeys, oldVals := s.keys, s.vals
	size := max(16, 2*len(oldKeys))
	s.keys, s.vals = make([]uint16, size), make([]uint8, size)
	s.shift = 32
	for n := size; n > 1; n >>= 1 {
		s.shift--
	}
	for i, key := range oldKeys {
		if key != 0 {
			j := s.slot(key)
			s.keys[j], s.vals[j] = key, oldVals[i]
		}
	}
}

func (s *sparse) Clone() Board {
	cp := *s
	cp.keys, cp.vals = slices.Clone(s.keys), slices.Clone(s.vals)
	return &cp
}
