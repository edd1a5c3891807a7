package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Verify is `tttbot verify [--win K] [--gravity] [--tokens XO]`: it reads one
// written board a line from in and writes one verdict a line to out, in the
// words docs/rules.md gives. It returns the process exit code: 0; 1 when input fails; 2
// for a usage error: bad flags, --tokens with a repeated token or not 2–10
// players, or a blank line where a board should be (verdicts for the lines
// before it are written first).
func Verify(args []string, in io.Reader, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(errOut)
	win := fs.Int("win", 3, "tokens in a row that win (3-25)")
	gravity := fs.Bool("gravity", false, "tokens must rest on the bottom or on another token")
	tokens := fs.String("tokens", "XO", "the players' tokens in turn order")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: tttbot verify [--win K] [--gravity] [--tokens XO] < boards")
		fmt.Fprintln(errOut, "Reads one board a line (rows separated by /, top row first, . for empty, e.g. XO./.XO/..X)")
		fmt.Fprintln(errOut, "and prints one verdict a line.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(errOut, "verify: unexpected argument %q: boards are read from standard input\n", fs.Arg(0))
		return 2
	}
	toks, err := parseVerifyTokens(*tokens)
	if err != nil {
		fmt.Fprintf(errOut, "verify: --tokens: %v\n", err)
		return 2
	}
	for i, t := range toks.texts {
		if slices.Contains(toks.texts[:i], t) {
			fmt.Fprintf(errOut, "verify: --tokens %q lists %s twice: give each player their own token\n", *tokens, toks.texts[i])
			return 2
		}
	}
	if n := len(toks.runes); n < game.MinPlayers || n > game.MaxPlayers {
		fmt.Fprintf(errOut, "verify: --tokens %q: a game has %d to %d players, one token each in turn order (e.g. --tokens XO); this lists %d\n",
			*tokens, game.MinPlayers, game.MaxPlayers, n)
		return 2
	}
	opt := game.CheckOptions{Win: *win, Gravity: *gravity, Tokens: toks.runes}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20) // a 100×100 board is ~10 kB a line
	w := bufio.NewWriter(out)
	defer w.Flush()
	for n := 1; sc.Scan(); n++ {
		board := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(board) == "" {
			w.Flush()
			fmt.Fprintf(errOut, "verify: line %d is blank: write one board a line (rows separated by /, e.g. XO./.XO/..X), with no empty lines\n", n)
			return 2
		}
		if cells, invalid := toks.board(board); invalid != "" {
			fmt.Fprintln(w, game.Verdict{Outcome: game.Invalid, Reason: invalid})
		} else {
			fmt.Fprintln(w, toks.verdict(game.CheckBoard(cells, opt).String()))
		}
	}
	if err := sc.Err(); err != nil {
		w.Flush()
		fmt.Fprintf(errOut, "verify: reading boards: %v\n", err)
		return 1
	}
	return 0
}
