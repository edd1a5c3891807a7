package game

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
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
	nums, n, err := splitNumbers(s)
	if err != nil {
		return Coord{}, err
	}
	switch {
	case r.Gravity && n == 1:
		if nums[0] < 0 || nums[0] >= r.Cols {
			return Coord{}, fmt.Errorf("%w: column %d is not 0–%d", ErrOutOfBounds, nums[0], r.Cols-1)
		}
		return Coord{Col: nums[0]}, nil
	case r.Gravity:
		return Coord{}, fmt.Errorf("%w: %q: on a gravity board give one column number, like 3", ErrBadPosition, s)
	case n == 1 && r.IsClassic():
		if nums[0] < 0 || nums[0] > 8 {
			return Coord{}, fmt.Errorf("%w: cell %d is not 0–8", ErrOutOfBounds, nums[0])
		}
		return Coord{nums[0] / 3, nums[0] % 3}, nil
	case n != 2:
		return Coord{}, fmt.Errorf("%w: %q: give row,col, like 1,2", ErrBadPosition, s)
	}
	c := Coord{nums[0], nums[1]}
	if !c.in(r.Rows, r.Cols) {
		return Coord{}, fmt.Errorf("%w: %v is not on the board (rows 0–%d, columns 0–%d)", ErrOutOfBounds, c, r.Rows-1, r.Cols-1)
	}
	return c, nil
}

// splitNumbers reads one or two integers separated by a comma and/or spaces,
// optionally wrapped in parentheses or brackets: n numbers, the first two
// in nums. Its words are the words strings.Fields finds once the comma is
// spaced out, read one by one rather than split into a slice: a move is
// typed for every turn.
func splitNumbers(s string) (nums [2]int, n int, err error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "" {
		return nums, 0, fmt.Errorf("%w: empty", ErrBadPosition)
	}
	if strings.Count(t, ",") > 1 {
		return nums, 0, fmt.Errorf("%w: %q has more than one comma", ErrBadPosition, s)
	}
	first := true
	for rest := t; ; first = false {
		f, after := nextWord(rest)
		if f == "" {
			break
		}
		rest = after
		if f == "," {
			if first || strings.TrimLeftFunc(rest, unicode.IsSpace) == "" {
				return nums, 0, fmt.Errorf("%w: %q: a number is missing around the comma", ErrBadPosition, s)
			}
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nums, 0, fmt.Errorf("%w: %q is not a number", ErrBadPosition, f)
		}
		if n < len(nums) {
			nums[n] = v
		}
		n++
	}
	if n > 2 {
		return nums, 0, fmt.Errorf("%w: %q has more than two numbers", ErrBadPosition, s)
	}
	return nums, n, nil
}

// nextWord is the first word of s, as strings.Fields of s with its comma
// spaced out would have it (a comma is a word of its own), and what
// follows it; "" when s has none.
func nextWord(s string) (word, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if s == "" {
		return "", ""
	}
	if s[0] == ',' {
		return s[:1], s[1:]
	}
	end := strings.IndexFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if end < 0 {
		end = len(s)
	}
	return s[:end], s[end:]
}
