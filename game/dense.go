package game

// dense is the Fast board: one byte a cell, row-major, 0 for empty and
// player+1 otherwise.
type dense struct {
	rows, cols int
	filled     int
	cells      []uint8
}

func newDense(rows, cols int) *dense {
	return &dense{rows: rows, cols: cols, cells: make([]uint8, rows*cols)}
}

func (d *dense) Rows() int   { return d.rows }
func (d *dense) Cols() int   { return d.cols }
func (d *dense) Filled() int { return d.filled }

func (d *dense) At(c Coord) int {
	if !c.in(d.rows, d.cols) {
		return NoPlayer
	}
	return int(d.cells[c.Row*d.cols+c.Col]) - 1
}

func (d *dense) Set(c Coord, player int) error {
	if err := checkSet(d, c, player); err != nil {
		return err
	}
	d.cells[c.Row*d.cols+c.Col] = uint8(player + 1)
	d.filled++
	return nil
}

func (d *dense) Clone() Board {
	cp := *d
	cp.cells = append([]uint8(nil), d.cells...)
	return &cp
}
