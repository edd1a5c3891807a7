package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// errEndOfInput ends a session quietly when the player closes stdin.
var errEndOfInput = errors.New("end of input")

// maxAnswer is the longest line an answer may be, in bytes. Every answer the
// game asks for (a number, a token, a move like 99,99, Y/N) fits in a few
// bytes; a longer line is refused and skipped without being held in memory.
const maxAnswer = 1024

// errLineTooLong marks a line over maxAnswer bytes; the rest of it has been
// read and dropped.
var errLineTooLong = errors.New("line too long")

// lines reads one line at a time, however long, holding at most maxAnswer
// bytes of it.
type lines struct{ r *bufio.Reader }

// next returns the next line without its line ending, errLineTooLong for a
// line over maxAnswer bytes, or io.EOF after the last line.
func (l lines) next() (string, error) {
	var line []byte
	long := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !long && len(line)+len(chunk) > maxAnswer+2 { // +2: room for "\r\n"
			long, line = true, nil
		}
		if !long {
			line = append(line, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && (len(chunk) > 0 || long || len(line) > 0):
			// A last line without a newline still counts.
		case err != nil:
			return "", err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if long || len(line) > maxAnswer {
			return "", errLineTooLong
		}
		return string(line), nil
	}
}

// prompter asks questions on out and reads one answer a line from in.
type prompter struct {
	in  lines
	out io.Writer
}

func newPrompter(in io.Reader, out io.Writer) *prompter {
	return &prompter{in: lines{bufio.NewReader(in)}, out: out}
}

// ask prints the question and reads answers until accept takes one: accept
// returns "" for an answer it takes, else the line to print before asking
// again. Prompts and refusals are words for the player, not errors; ask
// returns an error only when input ends or fails.
func (p *prompter) ask(question string, accept func(answer string) (problem string)) error {
	for {
		fmt.Fprintln(p.out, question)
		line, err := p.in.next()
		switch {
		case errors.Is(err, errLineTooLong):
			fmt.Fprintf(p.out, "That line is too long (over %d bytes): please type a short answer.\n", maxAnswer)
			continue
		case err == io.EOF:
			return errEndOfInput
		case err != nil:
			return err
		}
		problem := accept(strings.TrimSpace(line))
		if problem == "" {
			return nil
		}
		fmt.Fprintln(p.out, problem)
	}
}

// askInt asks for a whole number from lo to hi. When only one number fits,
// the question says so rather than offering a range like "(3-3)".
func (p *prompter) askInt(question string, lo, hi int) (int, error) {
	var n int
	q := fmt.Sprintf("%s (%d-%d)", question, lo, hi)
	refusal := fmt.Sprintf("Please enter a whole number from %d to %d.", lo, hi)
	if lo == hi {
		q = fmt.Sprintf("%s (only %d fits this board)", question, lo)
		refusal = fmt.Sprintf("Please enter %d: it is the only number that fits this board.", lo)
	}
	err := p.ask(q, func(a string) string {
		v, err := strconv.Atoi(a)
		if err != nil || v < lo || v > hi {
			return refusal
		}
		n = v
		return ""
	})
	return n, err
}

// askYesNo asks a Y/N question.
func (p *prompter) askYesNo(question string) (bool, error) {
	var yes bool
	err := p.ask(question, func(a string) string {
		switch strings.ToUpper(a) {
		case "Y", "YES":
			yes = true
		case "N", "NO":
			yes = false
		default:
			return "Please answer Y or N."
		}
		return ""
	})
	return yes, err
}
