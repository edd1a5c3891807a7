// Command puzzlegen makes the embedded puzzle pool (puzzle/pool.txt):
// self-play games of ai.Hard with noise, read backwards from their end,
// every position whose mover wins in a difficulty's number of moves with
// exactly one winning first move proved by the exact solver (see
// puzzle.Generate and docs/puzzles.md). It stops when every kind and
// difficulty has -per puzzles. The same -seed makes the same pool.
//
// From the repository root:
//
//	go run ./puzzle/internal/puzzlegen -per 40 -out puzzle/pool.txt
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/tttbot/tttbot/puzzle"
)

func main() {
	out := flag.String("out", "puzzle/pool.txt", "pool file to write")
	per := flag.Int("per", 40, "puzzles a kind and difficulty")
	seed := flag.Uint64("seed", 1, "seed of the self-play games")
	flag.Parse()
	text, err := puzzle.GeneratePool(context.Background(), *per, *seed, log.Printf)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, text, 0o644); err != nil {
		log.Fatal(err)
	}
}
