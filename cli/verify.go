package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Verify is `tttbot verify [--win K] [--gravity] [--tokens XO]`: it reads one
// written board a line from in and writes one verdict a line to out, in seed
// 004's words. It returns the process exit code: 0, or 2 for bad flags.
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
	var toks []rune
	for _, r := range *tokens {
		t, err := game.ParseToken(string(r))
		if err != nil {
			fmt.Fprintf(errOut, "verify: --tokens: %v\n", err)
			return 2
		}
		toks = append(toks, t)
	}
	opt := game.CheckOptions{Win: *win, Gravity: *gravity, Tokens: toks}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20) // a 100×100 board is ~10 kB a line
	w := bufio.NewWriter(out)
	defer w.Flush()
	for sc.Scan() {
		fmt.Fprintln(w, game.CheckBoard(strings.TrimRight(sc.Text(), "\r"), opt))
	}
	if err := sc.Err(); err != nil {
		w.Flush()
		fmt.Fprintf(errOut, "verify: reading boards: %v\n", err)
		return 1
	}
	return 0
}
