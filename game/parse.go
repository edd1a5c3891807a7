package game

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePosition reads what a player typed as a move under r:
//
//   - free placement: "row,col", "row col" or "(row, col)", any spacing,
//     0,0 the top-left cell;
//   - classic 3×3 also: one cell number 0–8, numbered left to right, top to
//     bottom, as the classic board shows them;
//   - gravity: one column number; the returned Coord's Row is 0 and ignored
//     by Game.Play.
//
// It checks the position lies on the board but not whether it is free. Errors
// match ErrBadPosition (unreadable) or ErrOutOfBounds.
func ParsePosition(r Rules, s string) (Coord, error) {
	nums, err := splitNumbers(s)
	if err != nil {
		return Coord{}, err
	}
	switch {
	case r.Gravity && len(nums) == 1:
		if nums[0] < 0 || nums[0] >= r.Cols {
			return Coord{}, fmt.Errorf("%w: column %d is not 0–%d", ErrOutOfBounds, nums[0], r.Cols-1)
		}
		return Coord{Col: nums[0]}, nil
	case r.Gravity:
		return Coord{}, fmt.Errorf("%w: %q: on a gravity board give one column number, like 3", ErrBadPosition, s)
	case len(nums) == 1 && r.IsClassic():
		if nums[0] < 0 || nums[0] > 8 {
			return Coord{}, fmt.Errorf("%w: cell %d is not 0–8", ErrOutOfBounds, nums[0])
		}
		return Coord{nums[0] / 3, nums[0] % 3}, nil
	case len(nums) != 2:
		return Coord{}, fmt.Errorf("%w: %q: give row,col, like 1,2", ErrBadPosition, s)
	}
	c := Coord{nums[0], nums[1]}
	if !c.in(r.Rows, r.Cols) {
		return Coord{}, fmt.Errorf("%w: %v is not on the board (rows 0–%d, columns 0–%d)", ErrOutOfBounds, c, r.Rows-1, r.Cols-1)
	}
	return c, nil
}

// splitNumbers reads one or two integers separated by a comma and/or spaces,
// optionally wrapped in parentheses or brackets.
func splitNumbers(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "" {
		return nil, fmt.Errorf("%w: empty", ErrBadPosition)
	}
	if strings.Count(t, ",") > 1 {
		return nil, fmt.Errorf("%w: %q has more than one comma", ErrBadPosition, s)
	}
	fields := strings.Fields(strings.Replace(t, ",", " , ", 1))
	var nums []int
	for i, f := range fields {
		if f == "," {
			if i == 0 || i == len(fields)-1 {
				return nil, fmt.Errorf("%w: %q: a number is missing around the comma", ErrBadPosition, s)
			}
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a number", ErrBadPosition, f)
		}
		nums = append(nums, n)
	}
	if len(nums) > 2 {
		return nil, fmt.Errorf("%w: %q has more than two numbers", ErrBadPosition, s)
	}
	return nums, nil
}
