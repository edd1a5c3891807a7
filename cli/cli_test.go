package cli

import (
	"bytes"
	"strings"
	"testing"
)

// session joins answers into the lines a player would type.
func session(lines ...string) *strings.Reader {
	return strings.NewReader(strings.Join(lines, "\n") + "\n")
}

func TestPlayWholeGames(t *testing.T) {
	in := session(
		// Game 1: classic, X wins along the top row, with refused inputs on the way.
		"2", "3", // rows: 2 is refused
		"3",
		"4", "3", // win: 4 is more than the 3 columns
		"2",
		"x", "X", "o", // X is taken after x
		"q", "f", // engine
		"n",
		"4",
		"4", "zz", "9", "0", // O: taken, unreadable, off board, then 0
		"1", "3", "7",
		"y",
		// Game 2: Connect-X style, 4×4, k=3, gravity; a full column is refused.
		"4", "4", "3", "2", "A", "B", "m", "y",
		"0", "0", "0", "0", "0", "1", "2", "1", "3", "1",
		"n",
	)
	var out bytes.Buffer
	if err := Play(in, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"Please enter a whole number from 3 to 100.",
		"Please enter a whole number from 3 to 3.",
		"X is already taken as a player token!",
		"Please enter F or M.",
		"That space is unavailable, please pick again",
		"Please enter your move as row,col, like 1,2",
		"That space is off the board: rows are 0-2 and columns 0-2",
		"Player X Won!",
		"Would you like to play again? Y/N",
		"Player A, what column do you want to place your marker in?",
		"Column is full",
		"Player A Won!",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(text)
	}
}

func TestPlayDraw(t *testing.T) {
	in := session("3", "3", "3", "2", "X", "O", "F", "N",
		"0,0", "0,1", "0,2", "1,1", "1,0", "1,2", "2,1", "2,0", "2,2", "N")
	var out bytes.Buffer
	if err := Play(in, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "tie") {
		t.Errorf("no tie announced:\n%s", out.String())
	}
}

func TestPlayEndsCleanlyOnEndOfInput(t *testing.T) {
	for _, in := range []string{"", "3\n3\n", "3\n3\n3\n2\nX\nO\nf\nn\n4\n"} {
		var out bytes.Buffer
		if err := Play(strings.NewReader(in), &out); err != nil {
			t.Errorf("input %q: %v", in, err)
		}
	}
}

func TestVerify(t *testing.T) {
	tests := []struct {
		name string
		args []string
		in   string
		want string
		code int
	}{
		{"Default", nil, "XXX/OO./...\nXOX/XOO/OXX\r\nXO./.../...\nOO./.../...\n",
			"The Winner is X\nNo Winner - Game Complete\nNo Winner Yet - Game Incomplete\nInvalid Values: O has 2 tokens, more than X's 0 before it in turn order\n", 0},
		{"Win4Gravity", []string{"--win", "4", "--gravity"}, "..../X.../XO../XO..\n....../....../....../XXXXOOO\n",
			"No Winner Yet - Game Incomplete\nInvalid Values: row 3 has 7 cells, row 0 has 6\n", 0},
		{"Tokens", []string{"--tokens", "abc"}, "ABC/.../...\n", "No Winner Yet - Game Incomplete\n", 0},
		{"BadFlag", []string{"--nope"}, "", "", 2},
		{"BadTokens", []string{"--tokens", "X."}, "", "", 2},
		{"StrayArgument", []string{"XO./.../..."}, "", "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Verify(tt.args, strings.NewReader(tt.in), &out, &errOut)
			if code != tt.code || out.String() != tt.want {
				t.Errorf("code %d, output:\n%s\nwant code %d, output:\n%s\nstderr: %s", code, out.String(), tt.code, tt.want, errOut.String())
			}
			if code != 0 && errOut.Len() == 0 {
				t.Error("failed without saying why")
			}
		})
	}
}
