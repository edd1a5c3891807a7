package game

// dense is the Fast board: a grid of 4-bit cells, two to a byte, row-major;
// 0 is empty and player+1 otherwise (at most 10 players fit in a nibble).
// Half a byte a cell keeps a 100×100 board under 5 kB, and reading a cell
// is still an index, a shift and a mask.
type dense struct {
	rows, cols int
	filled     int
	cells      []uint8
}

func newDense(rows, cols int) *dense {
	return &dense{rows: rows, cols: cols, cells: make([]uint8, (rows*cols+1)/2)}
}

func (d *dense) Rows() int   { return d.rows }
func (d *dense) Cols() int   { return d.cols }
func (d *dense) Filled() int { return d.filled }

func (d *dense) At(c Coord) int {
	if !c.in(d.rows, d.cols) {
		return NoPlayer
	}
	i := c.Row*d.cols + c.Col
	return int(d.cells[i>>1]>>(uint(i&1)*4)&0xF) - 1
}

func (d *dense) Set(c Coord, player int) error {
	if err := checkSet(d, c, player); err != nil {
		return err
	}
	i := c.Row*d.cols + c.Col
	d.cells[i>>1] |= uint8(player+1) << (uint(i&1) * 4) // the cell is empty: its nibble is 0
	d.filled++
	return nil
}

func (d *dense) Clone() Board {
	cp := *d
	cp.cells = append([]uint8(nil), d.cells...)
	return &cp
}

// run is countFrom for the dense board, reading the grid directly.
func (d *dense) run(from, dir Coord, player, limit int) int {
	want := uint8(player + 1)
	r, c := from.Row+dir.Row, from.Col+dir.Col
	n := 0
	for n < limit && r >= 0 && r < d.rows && c >= 0 && c < d.cols {
		i := r*d.cols + c
		if d.cells[i>>1]>>(uint(i&1)*4)&0xF != want {
			break
		}
		n++
		r, c = r+dir.Row, c+dir.Col
	}
	return n
}
