package game

import "fmt"

// Coord is a cell of the board in engine coordinates: Row 0 is the top row and
// Col 0 the leftmost column.
type Coord struct {
	Row, Col int
}

// String formats c as "row,col".
func (c Coord) String() string { return fmt.Sprintf("%d,%d", c.Row, c.Col) }

// in reports whether c lies on a rows×cols board.
func (c Coord) in(rows, cols int) bool {
	return c.Row >= 0 && c.Row < rows && c.Col >= 0 && c.Col < cols
}

// add returns c moved by d steps in direction dir.
func (c Coord) add(dir Coord, d int) Coord {
	return Coord{c.Row + dir.Row*d, c.Col + dir.Col*d}
}

// directions returns the four lines through a cell: horizontal, vertical and
// the two diagonals. Looking both ways along each covers all eight neighbours.
// (A function rather than a package variable: the package keeps no globals.)
func directions() [4]Coord {
	return [4]Coord{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
}
