package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// errEndOfInput ends a session quietly when the player closes stdin.
var errEndOfInput = errors.New("end of input")

// prompter asks questions on out and reads one answer a line from in.
type prompter struct {
	in  *bufio.Scanner
	out io.Writer
}

// ask prints the question and reads answers until accept takes one; the
// reason accept gives for a refusal is printed before asking again.
func (p *prompter) ask(question string, accept func(answer string) error) error {
	for {
		fmt.Fprintln(p.out, question)
		if !p.in.Scan() {
			if err := p.in.Err(); err != nil {
				return err
			}
			return errEndOfInput
		}
		err := accept(strings.TrimSpace(p.in.Text()))
		if err == nil {
			return nil
		}
		fmt.Fprintln(p.out, err)
	}
}

// askInt asks for a whole number from lo to hi.
func (p *prompter) askInt(question string, lo, hi int) (int, error) {
	var n int
	err := p.ask(fmt.Sprintf("%s (%d-%d)", question, lo, hi), func(a string) error {
		v, err := strconv.Atoi(a)
		if err != nil || v < lo || v > hi {
			return fmt.Errorf("Please enter a whole number from %d to %d.", lo, hi)
		}
		n = v
		return nil
	})
	return n, err
}

// askYesNo asks a Y/N question.
func (p *prompter) askYesNo(question string) (bool, error) {
	var yes bool
	err := p.ask(question, func(a string) error {
		switch strings.ToUpper(a) {
		case "Y", "YES":
			yes = true
		case "N", "NO":
			yes = false
		default:
			return errors.New("Please answer Y or N.")
		}
		return nil
	})
	return yes, err
}
