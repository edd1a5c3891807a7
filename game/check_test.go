package game

import (
	"strings"
	"testing"
)

func TestCheckBoard(t *testing.T) {
	xo := []rune("XO")
	tests := []struct {
		name    string
		board   string
		win     int
		gravity bool
		tokens  []rune
		want    string // the verdict, or "Invalid Values" for any reason
	}{
		// The four textbook cases, then more.
		{"XWinsRow", "XXX/OO./...", 3, false, xo, "The Winner is X"},
		{"OWinsColumn", "OX./OX./O..", 3, false, []rune("OX"), "The Winner is O"},
		{"XWinsDiagonal", "XO./OX./..X", 3, false, xo, "The Winner is X"},
		{"Complete", "XOX/XOO/OXX", 3, false, xo, "No Winner - Game Complete"},
		{"Incomplete", "XO./.../...", 3, false, xo, "No Winner Yet - Game Incomplete"},
		{"Empty", ".../.../...", 3, false, xo, "No Winner Yet - Game Incomplete"},
		{"LowerCase", "xo./.../...", 3, false, xo, "No Winner Yet - Game Incomplete"},
		{"Invalid/Ragged", "XO./..../...", 3, false, xo, "Invalid Values"},
		{"Invalid/TooSmall", "XO/..", 3, false, xo, "Invalid Values"},
		{"Invalid/WinTooLong", "..../..../....", 5, false, xo, "Invalid Values"},
		{"Invalid/Stranger", "XA./.../...", 3, false, xo, "Invalid Values"},
		{"Invalid/OFirst", "O../.../...", 3, false, xo, "Invalid Values"},
		{"Invalid/XTwoAhead", "XX./.../...", 3, false, xo, "Invalid Values"},
		{"Invalid/BothWin", "XXX/OOO/X..", 3, false, xo, "Invalid Values"},
		{"Invalid/XWinsButOMovedLast", "XXX/OO./O..", 3, false, xo, "Invalid Values"},
		{"Invalid/OWinsButXMovedLast", "OOO/XX./XX.", 3, false, xo, "Invalid Values"},
		{"Invalid/TwoSeparateRuns", "XXX/.../XXX/OO./OO./O..", 3, false, xo, "Invalid Values"},
		{"TwoRunsSharingACell", "XXX/XOO/XOO", 3, false, xo, "The Winner is X"},
		// Several players: counts follow turn order.
		{"ThreePlayers", "XOA/.../...", 3, false, []rune("XOA"), "No Winner Yet - Game Incomplete"},
		{"Invalid/ThreePlayersSkipped", "XA./.../...", 3, false, []rune("XOA"), "Invalid Values"},
		{"ThreePlayersAWins", "XOA/XOA/.OA/X..", 3, false, []rune("XOA"), "Invalid Values"}, // O won before A
		{"ThreePlayersAWinsLast", "XOA/XOA/O.A/X..", 3, false, []rune("XOA"), "The Winner is A"},
		// Gravity.
		{"Gravity/Incomplete", "..../..../X.../XO..", 3, true, xo, "No Winner Yet - Game Incomplete"},
		{"Gravity/Invalid/Floating", "..../X.../..../.O..", 3, true, xo, "Invalid Values"},
		{"Gravity/Winner", "..../X.../XO../XO..", 3, true, xo, "The Winner is X"},
		{"Gravity/Invalid/WinCellBuried", "..../..../OXO./XXXO", 3, true, xo, "Invalid Values"},
		{"Gravity/WinCellOnTop", "..../..../.O../XXXO", 3, true, xo, "The Winner is X"},
		// Bad options are invalid too, with a reason.
		{"Invalid/OneToken", "..././...", 3, false, []rune("X"), "Invalid Values"},
		{"Invalid/DuplicateTokens", ".../.../...", 3, false, []rune("XX"), "Invalid Values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckBoard(tt.board, CheckOptions{Win: tt.win, Gravity: tt.gravity, Tokens: tt.tokens}).String()
			if tt.want == "Invalid Values" {
				if !strings.HasPrefix(got, "Invalid Values: ") || len(got) < len("Invalid Values: ")+5 {
					t.Fatalf("CheckBoard(%s) = %q, want Invalid Values with a reason", tt.board, got)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("CheckBoard(%s) = %q, want %q", tt.board, got, tt.want)
			}
		})
	}
}

// tally counts finished games: all of them, X's wins, O's wins, draws.
type tally struct{ games, xWins, oWins, draws int }

func (t *tally) add(o tally) {
	t.games += o.games
	t.xWins += o.xWins
	t.oWins += o.oWins
	t.draws += o.draws
}

// classicTree plays every game of classic tic-tac-toe with engine e. It
// returns each reachable position with the verdict play gave it, and the
// tally of every game played to the end (255,168 of them). A position's
// subtree is the same whichever way play reached it (whose turn it is and
// how a move ends the game depend on the board alone), so each position is
// expanded once and its subtree's tally is reused: every (position, move)
// pair is still played by the engine, at 1/50 of the walk's cost.
func classicTree(tb testing.TB, e Engine) (reachable map[string]string, total tally) {
	tb.Helper()
	reachable = map[string]string{}
	memo := map[string]tally{}
	var walk func(g *Game) tally
	walk = func(g *Game) tally {
		text := boardText(g.board, "XO")
		if t, ok := memo[text]; ok {
			return t
		}
		var t tally
		switch g.State() {
		case Won:
			reachable[text] = "The Winner is " + string(g.Token(g.Winner()))
			t = tally{games: 1}
			if g.Winner() == 0 {
				t.xWins = 1
			} else {
				t.oWins = 1
			}
		case Drawn:
			reachable[text] = "No Winner - Game Complete"
			t = tally{games: 1, draws: 1}
		default:
			reachable[text] = "No Winner Yet - Game Incomplete"
			for i := 0; i < 9; i++ {
				c := Coord{i / 3, i % 3}
				if g.At(c) != NoPlayer {
					continue
				}
				next := g.Clone()
				if _, err := next.Play(next.Turn(), c); err != nil {
					tb.Fatalf("%s: play %v: %v", text, c, err)
				}
				t.add(walk(next))
			}
		}
		memo[text] = t
		return t
	}
	total = walk(mustGame(tb, Classic(), e, "XO"))
	return reachable, total
}

// TestExhaustiveClassic enumerates every 3×3 game and checks the well-known
// counts, then asks CheckBoard about all 3^9 boards: exactly the reachable
// positions are valid, and their verdicts match how play ended.
func TestExhaustiveClassic(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			reachable, n := classicTree(t, e)
			if n != (tally{255168, 131184, 77904, 46080}) {
				t.Fatalf("games %d (X %d, O %d, draws %d), want 255168 (131184, 77904, 46080)", n.games, n.xWins, n.oWins, n.draws)
			}
			finished := 0
			for _, v := range reachable {
				if v != "No Winner Yet - Game Incomplete" {
					finished++
				}
			}
			if len(reachable) != 5478 || finished != 958 {
				t.Fatalf("%d positions (%d finished), want 5478 (958)", len(reachable), finished)
			}
			if e == Compact {
				return // the checker does not depend on the engine
			}
			valid := 0
			cells := []byte(".........")
			for n := 0; n < 19683; n++ {
				for i, m := 0, n; i < 9; i, m = i+1, m/3 {
					cells[i] = ".XO"[m%3]
				}
				text := string(cells[0:3]) + "/" + string(cells[3:6]) + "/" + string(cells[6:9])
				got := CheckBoard(text, CheckOptions{Win: 3, Tokens: []rune("XO")}).String()
				want, ok := reachable[text]
				if !ok {
					if !strings.HasPrefix(got, "Invalid Values: ") {
						t.Errorf("%s is unreachable but CheckBoard says %q", text, got)
					}
					continue
				}
				valid++
				if got != want {
					t.Errorf("CheckBoard(%s) = %q, want %q", text, got, want)
				}
			}
			if valid != 5478 {
				t.Errorf("%d valid boards, want 5478", valid)
			}
		})
	}
}

func FuzzCheckBoard(f *testing.F) {
	for _, s := range []string{"XO./.XO/..X", "XXX/OO./...", "", "/", "...", "X/O/X", "ÿ../.../...", "XOX/XOO/OXX"} {
		f.Add(s, uint8(3), false, "XO")
	}
	f.Add("..../X.../XO../XO..", uint8(3), true, "XO")
	f.Fuzz(func(t *testing.T, board string, win uint8, gravity bool, tokens string) {
		v := CheckBoard(board, CheckOptions{Win: int(win), Gravity: gravity, Tokens: []rune(tokens)})
		s := v.String()
		switch v.Outcome {
		case Invalid:
			if v.Reason == "" {
				t.Fatalf("invalid without a reason: %q", s)
			}
		case Winner:
			if !strings.ContainsRune(strings.ToUpper(tokens), v.Winner) && !strings.ContainsRune(tokens, v.Winner) {
				t.Fatalf("winner %q is not a token of %q", v.Winner, tokens)
			}
		}
	})
}
