package locales

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// sentenceParser is the go-i18n template parser of every message: a
// sentence is text with named placeholders, {{.Name}}, and nothing else.
//
// Why not go-i18n's default, text/template: executing a template reflects
// over its data at every call, and a reply says several sentences; under
// load (cmd/loadtest's profile) that was a twentieth of the bot's CPU. A
// sentence needs no logic, and a translator's file should not be able to
// run any: an action other than a named placeholder ({{if}}, {{printf}},
// a pipeline) does not parse here, so that sentence falls back to en-US and
// is logged, and TestLocaleFiles names it.
type sentenceParser struct{}

// Cacheable: a parsed sentence depends on nothing but its text, so go-i18n
// parses each message form once a process.
func (sentenceParser) Cacheable() bool { return true }

// Parse splits src into its text and its placeholders. leftDelim and
// rightDelim are a message's own delimiters; empty means {{ and }}.
func (sentenceParser) Parse(src, leftDelim, rightDelim string) (template.ParsedTemplate, error) {
	if leftDelim == "" {
		leftDelim = "{{"
	}
	if rightDelim == "" {
		rightDelim = "}}"
	}
	s := &sentence{}
	rest := src
	for {
		open := strings.Index(rest, leftDelim)
		if open < 0 {
			s.text = append(s.text, rest)
			return s, nil
		}
		s.text = append(s.text, rest[:open])
		rest = rest[open+len(leftDelim):]
		end := strings.Index(rest, rightDelim)
		if end < 0 {
			return nil, fmt.Errorf("%q: %s is not closed by %s", src, leftDelim, rightDelim)
		}
		action := strings.TrimSpace(rest[:end])
		name, ok := strings.CutPrefix(action, ".")
		if !ok || !isName(name) {
			return nil, fmt.Errorf("%q: %s%s%s: only a named placeholder such as %s.Name%s may stand here",
				src, leftDelim, rest[:end], rightDelim, leftDelim, rightDelim)
		}
		s.names = append(s.names, name)
		rest = rest[end+len(rightDelim):]
	}
}

// isName reports whether name is a Go identifier made of ASCII letters,
// digits and underscores, as a placeholder's name is.
func isName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// sentence is a parsed message form: text[0], names[0], text[1], names[1]…
// and the last text; len(text) == len(names)+1.
type sentence struct {
	text  []string
	names []string
}

// Execute fills the placeholders from data, a map by name, writing each
// value as text/template would (fmt's default format), and "<no value>"
// for a name data lacks, as text/template does for a map.
func (s *sentence) Execute(data any) (string, error) {
	if p, ok := data.(*probe); ok {
		p.found = s
		return "", nil
	}
	values, _ := data.(map[string]any)
	return s.fill(values, nil), nil
}

// fill fills the placeholders from values, or from args when it is not
// nil (Speaker.SayArgs), each written as Execute writes it.
func (s *sentence) fill(values map[string]any, args []Arg) string {
	if len(s.names) == 0 {
		return s.text[0]
	}
	// Filled in a buffer on the stack, one allocation (the string) for a
	// sentence of up to its size: a reply says several sentences.
	var stack [256]byte
	return string(s.appendFill(stack[:0], values, args))
}

// appendFill appends the sentence, filled as fill fills it, to b.
func (s *sentence) appendFill(b []byte, values map[string]any, args []Arg) []byte {
	for i, name := range s.names {
		b = append(b, s.text[i]...)
		if args != nil {
			b = appendArg(b, name, args)
			continue
		}
		v, ok := values[name]
		if !ok {
			b = append(b, "<no value>"...)
			continue
		}
		switch v := v.(type) {
		case string:
			b = append(b, v...)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		default:
			b = fmt.Append(b, v)
		}
	}
	return append(b, s.text[len(s.names)]...)
}

// appendArg writes the value args give name, the last one if several do,
// or "<no value>".
func appendArg(b []byte, name string, args []Arg) []byte {
	for i := len(args) - 1; i >= 0; i-- {
		if a := args[i]; a.name == name {
			return a.appendValue(b)
		}
	}
	return append(b, "<no value>"...)
}

// Arg is a placeholder's value for SayArgs: text (Text), a whole number
// (Num) or a user's mention (Mention), written as Say writes a string or
// an int.
type Arg struct {
	name string
	kind argKind
	text string // Text's text, Mention's user
	num  int
}

// argKind is what an Arg's value is.
type argKind uint8

const (
	argText argKind = iota
	argNum
	argMention
)

// Text is the placeholder name's value text.
func Text(name, text string) Arg { return Arg{name: name, text: text} }

// Num is the placeholder name's value n.
func Num(name string, n int) Arg { return Arg{name: name, kind: argNum, num: n} }

// Mention is the placeholder name's value a mention of the Discord user
// whose ID is user, <@user>: what Text(name, "<@"+user+">") gives, written
// into the sentence without that string being made first (every board
// reply names its players).
func Mention(name, user string) Arg { return Arg{name: name, kind: argMention, text: user} }

// appendValue appends a's value to b.
func (a Arg) appendValue(b []byte) []byte {
	switch a.kind {
	case argNum:
		return strconv.AppendInt(b, int64(a.num), 10)
	case argMention:
		b = append(b, "<@"...)
		b = append(b, a.text...)
		return append(b, '>')
	}
	return append(b, a.text...)
}

// probe is template data that asks go-i18n which sentence it would fill:
// the sentence records itself in found instead of being filled. Which
// sentence go-i18n picks (the locale's or en-US's, which plural form) and
// whether it reports an error depend on the key and the plural form, never
// on the data, so Speaker asks once a key and fills the sentence itself
// (locales.go).
type probe struct{ found *sentence }
