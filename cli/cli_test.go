package cli

import (
	"bytes"
	"github.com/rivo/uniseg"
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
		"How many in a row to win? (only 3 fits this board)",
		"Please enter 3: it is the only number that fits this board.",
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
	if strings.Contains(text, "(3-3)") {
		t.Error(`output offers the one-number range "(3-3)"`)
	}
	if t.Failed() {
		t.Log(text)
	}
}

func TestPlayRefusesOverlongLines(t *testing.T) {
	long := strings.Repeat("9", 70*1024) // over bufio.Scanner's 64 KB default
	for _, tt := range []struct{ name, in string }{
		{"OverScannerLimit", long + "\n"},
		{"OverScannerLimitWithCRLF", long + "\r\n"},
		{"OneOverMaxAnswer", strings.Repeat("3", maxAnswer+1) + "\n"},
		{"LastLineWithoutNewline", "3\n" + long},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.NewReader(tt.in + "\n3\n3\n3\n2\nX\nO\nF\nN\n0\n3\n1\n4\n2\nN\n")
			var out bytes.Buffer
			if err := Play(in, &out); err != nil {
				t.Fatalf("Play: %v", err)
			}
			if !strings.Contains(out.String(), "That line is too long") {
				t.Errorf("no refusal of the long line:\n%.2000s", out.String())
			}
			if strings.Count(out.String(), "9999") > 0 {
				t.Error("the long line was echoed back")
			}
		})
	}
	t.Run("AnswersAfterTheLongLineStillPlay", func(t *testing.T) {
		in := session(long, "3", "3", "3", "2", "X", "O", "F", "N", "0", "3", "1", "4", "2", "N")
		var out bytes.Buffer
		if err := Play(in, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Player X Won!") {
			t.Errorf("game did not go on after the long line:\n%.3000s", out.String())
		}
	})
	t.Run("MaxAnswerIsTaken", func(t *testing.T) {
		in := session(strings.Repeat(" ", maxAnswer-1)+"3", "3", "3", "2", "X", "O", "F", "N", "0", "3", "1", "4", "2", "N")
		var out bytes.Buffer
		if err := Play(in, &out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "too long") {
			t.Error("a line of exactly maxAnswer bytes was refused")
		}
	})
}

func TestPlayTokenRule(t *testing.T) {
	tests := []struct{ name, token, want string }{
		{"CyrillicHaNextToX", "Х", "looks like X"},
		{"GreekChiNextToX", "Χ", "looks like X"},
		{"BrailleBlank", "\u2800", "draws nothing"},
		{"HangulFiller", "\u3164", "invisible"},
		{"EnclosingMark", "\u20DD", "mark"},
		{"ExtraWide", "\uFDFD", "one column"},
		{"DigitOnNumberedBoard", "5", "numbered"},
		{"Taken", "x", "X is already taken as a player token! Try O."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := session("3", "3", "3", "2", "X", tt.token, "O", "F", "N")
			var out bytes.Buffer
			if err := Play(in, &out); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tt.want) || !strings.Contains(out.String(), "Try O") {
				t.Errorf("output lacks %q and a suggestion:\n%s", tt.want, out.String())
			}
		})
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

// TestPlayWithEmoji: an emoji token plays, and with it every cell is two
// columns wide so the board's columns line up.
func TestPlayWithEmoji(t *testing.T) {
	in := session("3", "4", "3", "2", "🦊", "o", "F", "Y", "0", "1", "0", "1", "0", "N")
	var out bytes.Buffer
	if err := Play(in, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"Player 🦊, what column", "Player 🦊 Won!", "  0  1  2  3\n", "*🦊*", " 🦊  O  .  .\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if strings.ContainsAny(line, "🦊O") && strings.HasPrefix(line, " ") && uniseg.StringWidth(line) > len("  0  1  2  3")+1 {
			t.Errorf("line %q is wider than the header", line)
		}
	}
	in = session("3", "3", "3", "2", "<:blob:123>", "🦊", "O", "F", "N")
	out.Reset()
	if err := Play(in, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "a terminal cannot show") {
		t.Errorf("a custom emoji was not refused:\n%s", out.String())
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
		{"OnePlayer", []string{"--tokens", "X"}, "XO./.../...\n", "", 2},
		{"ElevenPlayers", []string{"--tokens", "XOABCDEFGHJ"}, "XO./.../...\n", "", 2},
		{"RepeatedToken", []string{"--tokens", "Xx"}, "X../.../...\n", "", 2},
		{"BlankLine", nil, "XO./.../...\n\nX../.../...\n", "No Winner Yet - Game Incomplete\n", 2},
		{"SpacesOnlyLine", nil, "   \r\n", "", 2},
		{"EmojiTokens", []string{"--tokens", "🦊O"}, "🦊🦊🦊/OO./...\n🦊O./.../...\n🦊🐱./.../...\nOO🦊/.../...\n",
			"The Winner is 🦊\nNo Winner Yet - Game Incomplete\nInvalid Values: \"🐱\" at 0,1 is neither . nor one of 🦊O\nInvalid Values: O has 2 tokens, more than 🦊's 1 before it in turn order\n", 0},
		{"EmojiWithoutSelector", []string{"--tokens", "❤️O", "--gravity"}, "❤../.../O..\n", "Invalid Values: ❤️ at 0,0 floats over an empty cell\n", 0},
		{"EmojiRowsCountClusters", []string{"--tokens", "👨\u200D👩\u200D👧O"}, "👨\u200D👩\u200D👧O./.../..\n", "Invalid Values: row 2 has 2 cells, row 0 has 3\n", 0},
		{"RepeatedEmoji", []string{"--tokens", "❤❤️"}, "", "", 2},
		{"TenPlayers", []string{"--tokens", "XOABCDEFGH"}, "XOABCDEFGH/........../........../........../........../........../........../........../........../..........\n", "No Winner Yet - Game Incomplete\n", 0},
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
			if code == 0 && errOut.Len() != 0 {
				t.Errorf("succeeded but wrote to stderr: %s", errOut.String())
			}
		})
	}
}
