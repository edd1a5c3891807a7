package game

import "maps"

// sparse is the Compact board. The seeds kept a map from player to the list of
// that player's positions, which makes "who is at r,c?" a search through every
// list; this keeps the same idea (only placed tokens are stored, an empty board
// holds nothing) but keys the map by cell, so a lookup is one hash probe.
// Cells are packed into a uint16 (100×100 < 65536) and players into a byte.
type sparse struct {
	rows, cols int
	cells      map[uint16]uint8 // cell index → player; nil until the first move
}

func newSparse(rows, cols int) *sparse {
	return &sparse{rows: rows, cols: cols}
}

func (s *sparse) Rows() int   { return s.rows }
func (s *sparse) Cols() int   { return s.cols }
func (s *sparse) Filled() int { return len(s.cells) }

func (s *sparse) At(c Coord) int {
	if !c.in(s.rows, s.cols) {
		return NoPlayer
	}
	p, ok := s.cells[uint16(c.Row*s.cols+c.Col)]
	if !ok {
		return NoPlayer
	}
	return int(p)
}

func (s *sparse) Set(c Coord, player int) error {
	if err := checkSet(s, c, player); err != nil {
		return err
	}
	if s.cells == nil {
		s.cells = make(map[uint16]uint8)
	}
	s.cells[uint16(c.Row*s.cols+c.Col)] = uint8(player)
	return nil
}

func (s *sparse) Clone() Board {
	return &sparse{rows: s.rows, cols: s.cols, cells: maps.Clone(s.cells)}
}
