package game

import (
	"errors"
	"testing"
)

func TestParsePosition(t *testing.T) {
	free := Rules{Rows: 10, Cols: 12, Win: 4, Players: 2}
	grav := Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	classic := Classic()
	tests := []struct {
		name  string
		rules Rules
		in    string
		want  Coord
		err   error
	}{
		{"comma", free, "1,2", Coord{1, 2}, nil},
		{"space", free, "1 2", Coord{1, 2}, nil},
		{"parens", free, "( 9 , 11 )", Coord{9, 11}, nil},
		{"brackets", free, "[3,4]", Coord{3, 4}, nil},
		{"spacesAround", free, "  0 ,   0  ", Coord{0, 0}, nil},
		{"classicCell", classic, "5", Coord{1, 2}, nil},
		{"classicCell0", classic, "0", Coord{0, 0}, nil},
		{"classicPair", classic, "2,2", Coord{2, 2}, nil},
		{"gravityColumn", grav, "6", Coord{0, 6}, nil},
		{"gravitySpaces", grav, " 0 ", Coord{0, 0}, nil},
		{"ErrBadPosition/empty", free, "", Coord{}, ErrBadPosition},
		{"ErrBadPosition/word", free, "a1", Coord{}, ErrBadPosition},
		{"ErrBadPosition/oneNumber", free, "3", Coord{}, ErrBadPosition},
		{"ErrBadPosition/three", free, "1 2 3", Coord{}, ErrBadPosition},
		{"ErrBadPosition/twoCommas", free, "1,,2", Coord{}, ErrBadPosition},
		{"ErrBadPosition/trailingComma", free, "1,", Coord{}, ErrBadPosition},
		{"ErrBadPosition/float", free, "1.5,2", Coord{}, ErrBadPosition},
		{"ErrBadPosition/huge", free, "99999999999999999999,1", Coord{}, ErrBadPosition},
		{"ErrBadPosition/gravityPair", grav, "1,2", Coord{}, ErrBadPosition},
		{"ErrOutOfBounds/row", free, "10,0", Coord{}, ErrOutOfBounds},
		{"ErrOutOfBounds/col", free, "0,12", Coord{}, ErrOutOfBounds},
		{"ErrOutOfBounds/negative", free, "-1,0", Coord{}, ErrOutOfBounds},
		{"ErrOutOfBounds/classicCell", classic, "9", Coord{}, ErrOutOfBounds},
		{"ErrOutOfBounds/column", grav, "7", Coord{}, ErrOutOfBounds},
		{"ErrOutOfBounds/negativeColumn", grav, "-1", Coord{}, ErrOutOfBounds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePosition(tt.rules, tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("ParsePosition(%q) = %v, %v; want %v", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParsePosition(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"1,2", "(3, 4)", "5", " 7 ", "-1,0", "a,b", "1,,2", "", "99999999999999999999"} {
		f.Add(s, uint8(10), uint8(10), false)
	}
	f.Fuzz(func(t *testing.T, s string, rows, cols uint8, gravity bool) {
		r := Rules{Rows: int(rows%98) + 3, Cols: int(cols%98) + 3, Win: 3, Gravity: gravity, Players: 2}
		c, err := ParsePosition(r, s)
		if err != nil {
			if !errors.Is(err, ErrBadPosition) && !errors.Is(err, ErrOutOfBounds) {
				t.Fatalf("error %v matches no sentinel", err)
			}
			return
		}
		if c.Col < 0 || c.Col >= r.Cols || (!gravity && (c.Row < 0 || c.Row >= r.Rows)) {
			t.Fatalf("ParsePosition(%q) = %v, off the %d×%d board", s, c, r.Rows, r.Cols)
		}
	})
}
