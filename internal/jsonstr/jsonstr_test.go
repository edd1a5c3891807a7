package jsonstr

import (
	"encoding/json"
	"testing"
)

// TestAppendAsEncodingJSON holds Append to encoding/json's quoting of the
// strings a hand encoder meets: markup, controls, invalid UTF-8, the line
// and paragraph separators, emoji.
func TestAppendAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "<b>&amp;</b>", "tab\tnew\nline\r\b\f\x00\x1f\x7f",
		"\xff\xfe bad", "a\u2028b\u2029c", "🦊 <:blob:123456789012345678>", "é\u0301", "\xed\xa0\x80"} {
		check(t, s)
	}
}

// FuzzAppend: any string, the same bytes as encoding/json.
func FuzzAppend(f *testing.F) {
	f.Add("x<y>&\"\\\u2028\xff")
	f.Fuzz(check)
}

func check(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := Append([]byte("prefix"), s); string(got) != "prefix"+string(want) {
		t.Errorf("Append(%q) = %s, want %s", s, got[len("prefix"):], want)
	}
}

// TestAppendArrayAsEncodingJSON: a list of strings, the same bytes as
// encoding/json writes for a non-nil slice.
func TestAppendArrayAsEncodingJSON(t *testing.T) {
	for _, ss := range [][]string{{}, {"a"}, {"<x>", "\u2028", "\xff", ""}} {
		want, err := json.Marshal(ss)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendArray(nil, ss); string(got) != string(want) {
			t.Errorf("AppendArray(%q) = %s, want %s", ss, got, want)
		}
	}
}
