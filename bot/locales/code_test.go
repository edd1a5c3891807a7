package locales

import (
	"strings"
	"testing"
	"unicode"
)

// closesEarly reports whether a code span made by Code could end before its
// last fence, or hold a line break: the properties that keep user text code.
func closesEarly(span string) string {
	n := len(span) - len(strings.TrimLeft(span, "`"))
	fence := span[:n]
	if !strings.HasSuffix(span, fence) || len(span) < 2*n {
		return "unbalanced fence"
	}
	inner := span[n : len(span)-n]
	if strings.Contains(inner, fence) {
		return "inner text holds the fence"
	}
	if strings.HasPrefix(inner, "`") || strings.HasSuffix(inner, "`") {
		return "inner text touches the fence"
	}
	if strings.HasSuffix(span, fence+"`") {
		return "fence followed by a backtick"
	}
	if strings.TrimSpace(inner) == "" {
		return "empty span"
	}
	for _, r := range inner {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) && !emojiJoiner(r) {
			return "control or format character inside"
		}
	}
	return ""
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"Plain", "XO./.XO/..X", "`XO./.XO/..X`"},
		{"OneBacktick", "X`O", "``X`O``"},
		{"TwoBackticks", "X``O", "```X``O```"},
		{"ThreeBackticks", "```X", "```` ```X ````"},
		{"EndsWithBacktick", "XO`", "`` XO` ``"},
		{"OnlyBacktick", "`", "`` ` ``"},
		{"Empty", "", "`␣`"},
		{"Spaces", "  ", "`␣␣`"},
		{"Newline", "X\n# heading", "`X\uFFFD# heading`"},
		{"RightToLeftOverride", "X\u202eO", "`X\uFFFDO`"},
		{"ZWJEmojiStays", "👨\u200D👩\u200D👧", "`👨\u200D👩\u200D👧`"},
		{"TagFlagStays", "🏴\U000E0067\U000E0062\U000E007F", "`🏴\U000E0067\U000E0062\U000E007F`"},
		{"ZeroWidthSpaceGoes", "X\u200BO", "`X\uFFFDO`"},
		{"Mention", "<@123> @everyone", "`<@123> @everyone`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Code(tc.in)
			if got != tc.want {
				t.Errorf("Code(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if why := closesEarly(got); why != "" {
				t.Errorf("Code(%q) = %q: %s", tc.in, got, why)
			}
		})
	}
}

func FuzzCode(f *testing.F) {
	for _, s := range []string{"", "`", "``", "```", "a`b``c```d", "||spoiler||", "[x](https://e.com)", "<@1>", "\n# h", " ` "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if why := closesEarly(Code(s)); why != "" {
			t.Fatalf("Code(%q) = %q: %s", s, Code(s), why)
		}
	})
}
