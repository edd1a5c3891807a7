package game

import (
	"errors"
	"testing"
)

func TestRulesValidate(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		field string // "" when valid
	}{
		{"MaxVals", Rules{Rows: 100, Cols: 100, Win: 25, Players: 2}, ""},
		{"MinVals", Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}, ""},
		{"MinMaxMin", Rules{Rows: 3, Cols: 100, Win: 3, Players: 10}, ""},
		{"Connect4", Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, ""},
		{"RowsTooFew", Rules{Rows: 2, Cols: 3, Win: 3, Players: 2}, "rows"},
		{"RowsTooMany", Rules{Rows: 101, Cols: 3, Win: 3, Players: 2}, "rows"},
		{"ColsTooFew", Rules{Rows: 3, Cols: 2, Win: 3, Players: 2}, "columns"},
		{"ColsTooMany", Rules{Rows: 3, Cols: 101, Win: 3, Players: 2}, "columns"},
		{"WinTooSmall", Rules{Rows: 3, Cols: 3, Win: 2, Players: 2}, "win"},
		{"WinTooBig", Rules{Rows: 100, Cols: 100, Win: 26, Players: 2}, "win"},
		{"WinOverRows", Rules{Rows: 4, Cols: 9, Win: 5, Players: 2}, "win"},
		{"WinOverCols", Rules{Rows: 9, Cols: 4, Win: 5, Players: 2}, "win"},
		{"OnePlayer", Rules{Rows: 3, Cols: 3, Win: 3, Players: 1}, "players"},
		{"ElevenPlayers", Rules{Rows: 3, Cols: 3, Win: 3, Players: 11}, "players"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rules.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var re *RulesError
			if !errors.As(err, &re) || !errors.Is(err, ErrBadRules) {
				t.Fatalf("Validate() = %v, want a *RulesError matching ErrBadRules", err)
			}
			if re.Field != tt.field {
				t.Errorf("error names %q, want %q (%v)", re.Field, tt.field, err)
			}
		})
	}
}

func TestParseToken(t *testing.T) {
	tests := []struct {
		in   string
		want rune // 0 for an error
	}{
		{"X", 'X'}, {"x", 'X'}, {" o ", 'O'}, {"7", '7'}, {"#", '#'}, {"é", 'É'}, {"ß", 'ß'},
		{"", 0}, {"  ", 0}, {"XO", 0}, {".", 0}, {"|", 0}, {"`", 0}, {"\t", 0}, {"\x01", 0},
		{"😀", 0}, {"中", 0}, {"*", 0}, {"_", 0}, {"\u0301", 0}, {"\xff", 0},
	}
	for _, tt := range tests {
		got, err := ParseToken(tt.in)
		if tt.want == 0 {
			if !errors.Is(err, ErrBadToken) {
				t.Errorf("ParseToken(%q) = %q, %v; want ErrBadToken", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseToken(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNewRejects(t *testing.T) {
	r := Classic()
	if _, err := New(r, Fast, []rune("XX")); !errors.Is(err, ErrTokenTaken) {
		t.Errorf("duplicate tokens: %v, want ErrTokenTaken", err)
	}
	if _, err := New(r, Fast, []rune("X")); !errors.Is(err, ErrBadRules) {
		t.Errorf("one token for two players: %v, want ErrBadRules", err)
	}
	if _, err := New(r, Fast, []rune("x.")); !errors.Is(err, ErrBadToken) {
		t.Errorf("bad tokens: %v, want ErrBadToken", err)
	}
	if _, err := New(r, Engine(7), []rune("XO")); !errors.Is(err, ErrBadRules) {
		t.Errorf("unknown engine: %v, want ErrBadRules", err)
	}
}
