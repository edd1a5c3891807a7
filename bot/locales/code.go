package locales

import (
	"strings"
	"unicode"
)

// Code puts text a user typed in a code span that nothing in the text can
// close: the fence is one backtick longer than the longest run of backticks
// in the text, and a space pads a text that starts or ends with a backtick
// (Markdown strips one such space from each side). Characters that cannot be
// shown on one line, or that would change how the rest of the line reads
// (controls, line and paragraph separators, format characters such as
// right-to-left overrides), become U+FFFD; the zero-width joiner and the tag
// characters, which only glue emoji together (👨‍👩‍👧, 🏴󠁧󠁢󠁳󠁣󠁴󠁿), stay. So whatever the text holds (links,
// <@id> mentions, @everyone, # headings, ||spoilers||, backticks), it shows
// as code and never as markup; allowed_mentions fences mentions anyway.
func Code(text string) string {
	var b strings.Builder
	run, longest := 0, 0
	for _, r := range text {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) && !emojiJoiner(r) {
			r = unicode.ReplacementChar
		}
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
		b.WriteRune(r)
	}
	inner := b.String()
	if strings.TrimSpace(inner) == "" {
		// An empty or all-space span does not render as code: show each
		// space (or the nothing) as an open box.
		inner = strings.Repeat("␣", max(1, len(inner)))
	}
	if strings.HasPrefix(inner, "`") || strings.HasSuffix(inner, "`") {
		inner = " " + inner + " "
	}
	fence := strings.Repeat("`", longest+1)
	return fence + inner + fence
}

// emojiJoiner reports whether r is a format character emoji are built with:
// U+200D ZERO WIDTH JOINER, or a tag character U+E0020–U+E007F (subdivision
// flags). Neither changes the direction or the lines of the text around it.
func emojiJoiner(r rune) bool { return r == 0x200D || r >= 0xE0020 && r <= 0xE007F }
