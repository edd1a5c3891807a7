// Command tttbot is a Discord bot for generalized tic-tac-toe, the seeds'
// terminal game, and a board checker.
//
//	tttbot              run the bot (gateway and/or HTTP interactions endpoint)
//	tttbot play         play in the terminal
//	tttbot verify       judge written boards read from stdin
//	tttbot healthcheck  probe a running bot's /healthz (for container health checks)
//
// main only wires packages together; everything it calls is tested in its
// own package.
package main

import (
	"fmt"
	"os"

	"github.com/tttbot/tttbot/cli"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "play":
		if err := cli.Play(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "play:", err)
			return 1
		}
		return 0
	case "verify":
		return cli.Verify(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		usage()
		return 0
	}
	usage()
	return 2
}

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  tttbot              run the Discord bot (configured by .env and the environment)
  tttbot play         play tic-tac-toe in this terminal
  tttbot verify [--win K] [--gravity] [--tokens XO]
                      judge boards read from stdin, one a line
`)
}
