// Package jsonstr writes a Go string as a JSON string byte for byte as
// encoding/json does, for the hand-written encoders on the move path (the
// table's stored JSON and the HTTP endpoint's replies), which are held to
// encoding/json's output by their own tests.
package jsonstr

import "unicode/utf8"

// hexDigits are the digits of encoding/json's \u escapes.
const hexDigits = "0123456789abcdef"

// Append appends s quoted as encoding/json quotes a string with HTML
// escaping (its default): ", \ and control characters escaped, <, > and &
// as \u003c, \u003e, \u0026, U+2028 and U+2029 as \u2028 and \u2029, and
// each byte of invalid UTF-8 as \ufffd.
func Append(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendArray appends ss as a JSON array of strings, each as Append writes
// it; an empty ss as [] (where encoding/json writes null for a nil slice,
// the callers decide).
func AppendArray(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = Append(dst, s)
	}
	return append(dst, ']')
}
