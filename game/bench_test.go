package game

import (
	"fmt"
	"runtime"
	"testing"
)

// benchSizes are the rules the issue asks to compare.
var benchSizes = []Rules{
	{Rows: 3, Cols: 3, Win: 3, Players: 2},
	{Rows: 19, Cols: 19, Win: 5, Players: 2},
	{Rows: 100, Cols: 100, Win: 25, Players: 2},
}

// halfFull fills half the board as a checkerboard whose rows alternate
// between two players: no two like tokens touch, so nobody has won and a
// full scan must read every cell in every direction (its worst case).
func halfFull(tb testing.TB, e Engine, r Rules) Board {
	tb.Helper()
	b, err := NewBoard(e, r.Rows, r.Cols)
	if err != nil {
		tb.Fatal(err)
	}
	for row := 0; row < r.Rows; row++ {
		for col := (row % 2); col < r.Cols; col += 2 {
			if err := b.Set(Coord{row, col}, row%2); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return b
}

// nearWin returns a board whose centre cell is surrounded, in all four
// directions, by k−2 of player 0's tokens capped by player 1's: the most
// cells the O(k) check can read without finding a win. It returns the centre.
func nearWin(tb testing.TB, e Engine, r Rules) (Board, Coord) {
	tb.Helper()
	b, err := NewBoard(e, r.Rows, r.Cols)
	if err != nil {
		tb.Fatal(err)
	}
	at := Coord{r.Rows / 2, r.Cols / 2}
	back := (r.Win - 2) / 2
	fwd := r.Win - 2 - back
	for _, dir := range directions() {
		for i := 1; i <= fwd; i++ {
			_ = b.Set(at.add(dir, i), 0)
		}
		for i := 1; i <= back; i++ {
			_ = b.Set(at.add(dir, -i), 0)
		}
		_ = b.Set(at.add(dir, fwd+1), 1)
		_ = b.Set(at.add(dir, -back-1), 1)
	}
	_ = b.Set(at, 0)
	return b, at
}

// BenchmarkMoveCheck times the O(k) win check after a move, on the position
// that makes it read the most cells without winning.
func BenchmarkMoveCheck(b *testing.B) {
	for _, e := range engines {
		for _, r := range benchSizes {
			b.Run(fmt.Sprintf("%v/%dx%d_k%d", e, r.Rows, r.Cols, r.Win), func(b *testing.B) {
				board, at := nearWin(b, e, r)
				if LineThrough(board, at, 0, r.Win) != nil {
					b.Fatal("the benchmark position is a win")
				}
				b.ReportAllocs()
				for b.Loop() {
					LineThrough(board, at, 0, r.Win)
				}
			})
		}
	}
}

// BenchmarkMoveCheckTypical times the check after an ordinary move: a cell
// of the half-full checkerboard position that the full scan below reads.
// (LineThrough does not read the placed cell itself, so checking an empty
// cell as if placed is exactly the work a move there costs.)
func BenchmarkMoveCheckTypical(b *testing.B) {
	for _, e := range engines {
		r := benchSizes[2]
		b.Run(fmt.Sprintf("%v/%dx%d_k%d", e, r.Rows, r.Cols, r.Win), func(b *testing.B) {
			board := halfFull(b, e, r)
			at := Coord{Row: 50, Col: 51} // empty: (row+col)%2 == 1
			if board.At(at) != NoPlayer {
				b.Fatal("the benchmark cell is taken")
			}
			for b.Loop() {
				LineThrough(board, at, 0, r.Win)
			}
		})
	}
}

// BenchmarkFullScan is the baseline the O(k) check is compared with: a scan
// of every cell in every direction, as a checker without the last move must.
func BenchmarkFullScan(b *testing.B) {
	for _, e := range engines {
		r := benchSizes[2]
		b.Run(fmt.Sprintf("%v/%dx%d_k%d", e, r.Rows, r.Cols, r.Win), func(b *testing.B) {
			board := halfFull(b, e, r)
			if scanWinner(board, r.Win) != NoPlayer {
				b.Fatal("the benchmark position has a winner")
			}
			b.ReportAllocs()
			for b.Loop() {
				scanWinner(board, r.Win)
			}
		})
	}
}

// BenchmarkPlay times Game.Play end to end on a fresh 19×19 game: the
// turn checks, the placement and the win check.
func BenchmarkPlay(b *testing.B) {
	for _, e := range engines {
		b.Run(e.String(), func(b *testing.B) {
			r := benchSizes[1]
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				g := mustGame(b, r, e, "XO")
				b.StartTimer()
				for i := 0; i < 20; i++ {
					g.Play(g.Turn(), Coord{i % r.Rows, (i * 7) % r.Cols})
				}
			}
		})
	}
}

// BenchmarkBoardBytes reports the heap a board holds: empty, after 10 moves,
// and half full, as bytes per cell and bytes per placed token.
func BenchmarkBoardBytes(b *testing.B) {
	r := benchSizes[2]
	for _, e := range engines {
		for _, stage := range []string{"empty", "10moves", "half"} {
			b.Run(fmt.Sprintf("%v/%s", e, stage), func(b *testing.B) {
				var before, after runtime.MemStats
				var keep []Board
				runtime.GC()
				runtime.ReadMemStats(&before)
				for b.Loop() {
					var board Board
					switch stage {
					case "empty":
						board, _ = NewBoard(e, r.Rows, r.Cols)
					case "10moves":
						board, _ = NewBoard(e, r.Rows, r.Cols)
						for i := 0; i < 10; i++ {
							_ = board.Set(Coord{i, i * 3}, i%2)
						}
					case "half":
						board = halfFull(b, e, r)
					}
					keep = append(keep, board)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				n := float64(len(keep))
				perGame := float64(after.HeapAlloc-before.HeapAlloc) / n
				b.ReportMetric(perGame, "B/game")
				b.ReportMetric(perGame/float64(r.Cells()), "B/cell")
				if placed := keep[0].Filled(); placed > 0 {
					b.ReportMetric(perGame/float64(placed), "B/token")
				}
				runtime.KeepAlive(keep)
			})
		}
	}
}
