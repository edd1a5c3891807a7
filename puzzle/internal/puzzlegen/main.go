// Command puzzlegen makes the embedded puzzle pool (puzzle/pool.txt) with
// puzzle.GeneratePool: Connect Four puzzles from self-play games of
// ai.Hard with noise, read backwards from their end, until every
// difficulty has -per; classic ones from every position a 3×3 or 4×4 game
// can reach, -per a difficulty (or all there are). Each is a position whose
// mover wins in a difficulty's number of moves with exactly one winning
// first move, proved by the exact solver (docs/puzzles.md). The same -seed
// makes the same pool.
//
// From the repository root:
//
//	go run ./puzzle/internal/puzzlegen -per 100 -seed 1 -out puzzle/pool.txt
//
// It takes under a minute on one core (docs/puzzles.md has the figures).
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
	per := flag.Int("per", 100, "puzzles a kind and difficulty")
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
