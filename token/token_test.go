package token

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/twemoji"
)

// free is a board where digits are fine: 4×4, not numbered.
var free = game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 4}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		rules game.Rules
		taken string
		want  string
	}{
		{"Letter", "X", free, "", "X"},
		{"LowerCaseIsUpperCased", "x", free, "", "X"},
		{"SpacesAround", " o ", free, "X", "O"},
		{"Accented", "é", free, "", "É"},
		{"DecomposedAccentComposes", "e\u0301", free, "", "É"},
		{"SharpSHasNoOneRuneUpperCase", "ß", free, "", "ß"},
		{"DigitOffTheNumberedBoard", "7", free, "", "7"},
		{"Symbol", "#", free, "", "#"},
		{"GeometricShape", "●", free, "", "●"},
		{"Cyrillic", "ж", free, "", "Ж"},
		{"Greek", "Ω", free, "", "Ω"},
		{"CyrillicHaAlone", "Х", free, "O", "Х"},
		{"ZeroOffTheNumberedBoard", "0", free, "", "0"},
		{"OOnTheNumberedBoard", "O", game.Classic(), "X", "O"},
		{"GravityThreeByThreeIsNotNumbered", "3", game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2, Gravity: true}, "", "3"},
		{"Emoji", "😀", free, "", "😀"},
		{"Fox", "🦊", game.Classic(), "X", "🦊"},
		{"EmojiWithSkinTone", "👍🏽", free, "", "👍🏽"},
		{"FlagPair", "🇫🇷", free, "", "🇫🇷"},
		{"HeartDingbatIsQualified", "❤", free, "", "❤\uFE0F"},
		{"HeartWithTextPresentationIsAnEmoji", "❤\uFE0E", free, "", "❤\uFE0F"},
		{"SpadeSuit", "♠", free, "", "♠\uFE0F"},
		{"FamilyZWJ", "👨\u200D👩\u200D👧", game.Classic(), "X", "👨\u200D👩\u200D👧"},
		{"FamilyZWJNextToMan", "👨\u200D👩\u200D👧", free, "👨", "👨\u200D👩\u200D👧"},
		{"KissWithTwoSkinTones", "🧑🏻\u200D❤\uFE0F\u200D💋\u200D🧑🏼", free, "", "🧑🏻\u200D❤\uFE0F\u200D💋\u200D🧑🏼"},
		{"KeycapOffTheNumberedBoard", "7\uFE0F\u20E3", free, "", "7\uFE0F\u20E3"},
		{"KeycapWithoutSelector", "7\u20E3", free, "", "7\uFE0F\u20E3"},
		{"HashKeycapOnTheNumberedBoard", "#\uFE0F\u20E3", game.Classic(), "X", "#\uFE0F\u20E3"},
		{"TagFlag", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", free, "", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
		{"EmojiNextToCharacters", "🦊", free, "X O", "🦊"},
		{"Custom", "<:blob:123456789012345678>", free, "X", "<:blob:123456789012345678>"},
		{"CustomAnimated", " <a:party_parrot:42> ", free, "", "<a:party_parrot:42>"},
		{"CustomLeadingZerosDropped", "<:blob:007>", free, "", "<:blob:7>"},
		{"CustomNamedLikeAUnicodeEmoji", "<:fox:1>", free, "🦊", "<:fox:1>"},
		{"CustomSameNameOtherID", "<:blob:2>", free, "<:blob:1>", "<:blob:2>"},
		{"CustomMaxID", "<:ab:18446744073709551615>", free, "", "<:ab:18446744073709551615>"},
		{"LessThanAlone", "<", free, "", "<"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in, tt.rules, strings.Fields(tt.taken))
			if err != nil || got != tt.want {
				t.Errorf("Parse(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		rules game.Rules
		taken string
		rule  Rule
		want  error
	}{
		{"Blank", "", free, "", OneCharacter, ErrNotOneCharacter},
		{"OnlySpaces", "   ", free, "", OneCharacter, ErrNotOneCharacter},
		{"TwoCharacters", "XO", free, "", OneCharacter, ErrNotOneCharacter},
		{"InvalidUTF8", "\xff", free, "", OneCharacter, ErrNotOneCharacter},
		{"BrailleBlankU+2800", "\u2800", free, "", Visible, ErrInvisible},
		{"HangulChoseongFillerU+115F", "\u115F", free, "", Visible, ErrInvisible},
		{"HangulJungseongFillerU+1160", "\u1160", free, "", Visible, ErrInvisible},
		{"HangulFillerU+3164", "\u3164", free, "", Visible, ErrInvisible},
		{"HalfwidthHangulFillerU+FFA0", "\uFFA0", free, "", Visible, ErrInvisible},
		{"MusicalNullNoteheadU+1D159", "\U0001D159", free, "", Visible, ErrInvisible},
		{"ZeroWidthSpaceU+200B", "\u200B", free, "", Visible, ErrInvisible},
		{"SoftHyphenU+00AD", "\u00AD", free, "", Visible, ErrInvisible},
		{"LetterWithZeroWidthJoiner", "X\u200D", free, "", Visible, ErrInvisible},
		{"LetterWithVariationSelector", "X\uFE0F", free, "", Visible, ErrInvisible},
		{"IdeographicSpaceU+3000", "\u3000", free, "", OneCharacter, ErrNotOneCharacter}, // trimmed away: blank
		{"NoBreakSpaceBetween", "\u00A0", free, "", OneCharacter, ErrNotOneCharacter},
		{"Control", "\x01", free, "", Visible, ErrInvisible},
		{"PrivateUse", "\uE000", free, "", Visible, ErrInvisible},
		{"Unassigned", "\U000E0080", free, "", Visible, ErrInvisible},
		{"EnclosingCircleU+20DD", "\u20DD", free, "", NotAMark, ErrMark},
		{"CyrillicMillionsU+0489", "\u0489", free, "", NotAMark, ErrMark},
		{"DevanagariVisargaU+0903", "\u0903", free, "", NotAMark, ErrMark},
		{"CombiningAcuteAlone", "\u0301", free, "", NotAMark, ErrMark},
		{"LetterInEnclosingCircle", "X\u20DD", free, "", NotAMark, ErrMark},
		{"BismillahU+FDFD", "\uFDFD", free, "", OneColumn, ErrNotOneColumn},
		{"ThreeEmDashU+2E3B", "\u2E3B", free, "", OneColumn, ErrNotOneColumn},
		{"TwoEmDashU+2E3A", "\u2E3A", free, "", OneColumn, ErrNotOneColumn},
		{"JavaneseLeftRimU+A9C1", "\uA9C1", free, "", OneColumn, ErrNotOneColumn},
		{"CuneiformU+1242B", "\U0001242B", free, "", OneColumn, ErrNotOneColumn},
		{"CJK", "中", free, "", OneColumn, ErrNotOneColumn},
		{"FullwidthA", "Ａ", free, "", OneColumn, ErrNotOneColumn},
		{"Hebrew", "א", free, "", OneColumn, ErrNotOneColumn},
		{"Dot", ".", free, "", NotReserved, ErrReserved},
		{"OneDotLeaderLooksLikeDot", "\u2024", free, "", OneColumn, ErrNotOneColumn},
		{"Pipe", "|", free, "", NotReserved, ErrReserved},
		{"CapitalILooksLikePipe", "I", free, "", NotReserved, ErrReserved},
		{"Backtick", "`", free, "", NotReserved, ErrReserved},
		{"DigitOnTheNumberedBoard", "7", game.Classic(), "", NoDigits, ErrDigit},
		{"ZeroOnTheNumberedBoard", "0", game.Classic(), "", NoDigits, ErrDigit},
		{"SuperscriptTwoOnTheNumberedBoard", "²", game.Classic(), "", NoDigits, ErrDigit},
		{"CyrillicZeLooksLikeThreeOnTheNumberedBoard", "З", game.Classic(), "", NoDigits, ErrDigit},
		{"SameToken", "X", free, "X", NotTaken, ErrTaken},
		{"ForbiddenEmptyCell", "⬛", free, "", NotReserved, ErrReserved},
		{"AsteriskKeycapStartsItalics", "*\uFE0F\u20E3", free, "", NotReserved, ErrReserved},
		{"BlackMediumSquare", "◼\uFE0F", free, "", NotReserved, ErrReserved},
		{"KeycapOnTheNumberedBoard", "7\uFE0F\u20E3", game.Classic(), "", NoDigits, ErrDigit},
		{"KeycapZeroOnTheNumberedBoard", "0\u20E3", game.Classic(), "", NoDigits, ErrDigit},
		{"KeycapTenOnTheNumberedBoard", "🔟", game.Classic(), "", NoDigits, ErrDigit},
		{"SameEmoji", "🦊", free, "🦊", NotTaken, ErrTaken},
		{"SameEmojiUnqualified", "❤", free, "❤\uFE0F", NotTaken, ErrTaken},
		{"SameEmojiTextPresentation", "❤\uFE0E", free, "❤\uFE0F", NotTaken, ErrTaken},
		{"OtherSkinTone", "👍🏽", free, "👍🏻", NotConfusable, ErrConfusable},
		{"SkinToneOfPlain", "👍🏽", free, "👍", NotConfusable, ErrConfusable},
		{"CrossMarkNextToX", "❌", free, "X", NotConfusable, ErrConfusable},
		{"XNextToCrossMark", "x", free, "❌", NotConfusable, ErrConfusable},
		{"KeycapNextToDigit", "7\u20E3", free, "7", NotConfusable, ErrConfusable},
		{"CustomSameID", "<:other:123>", free, "<:blob:123>", NotConfusable, ErrConfusable},
		{"CustomSameIDAnimated", "<a:blob:123>", free, "<:blob:123>", NotConfusable, ErrConfusable},
		{"CustomSame", "<:blob:0123>", free, "<:blob:123>", NotTaken, ErrTaken},
		{"ZWJOf40CodePoints", strings.Repeat("👨\u200D", 19) + "👨\u200D👩", free, "", NotTooLong, ErrTooLong},
		{"ZWJOf11CodePoints", "👨\u200D👩\u200D👧\u200D👦\u200D👨\u200D👩", free, "", NotTooLong, ErrTooLong},
		{"UnknownZWJSequence", "🦊\u200D🦊", free, "", Visible, ErrInvisible},
		{"LoneRegionalIndicator", "🇫", free, "", OneColumn, ErrNotOneColumn},
		{"TwoEmoji", "🦊🦊", free, "", OneCharacter, ErrNotOneCharacter},
		{"EmojiThenText", "🦊 fox", free, "", OneCharacter, ErrNotOneCharacter},
		{"CustomMentionEveryone", "<:@everyone:1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomUserMention", "<@123456789>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomRoleMention", "<@&123>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomMarkdownName", "<:**bold**:1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomSpoilerName", "<:||x||:1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomLinkName", "<:[x](https://e.x):1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomNameTooShort", "<:a:1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomNameTooLong", "<:" + strings.Repeat("a", 33) + ":1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomHugeID", "<:blob:18446744073709551616>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomTooManyDigits", "<:blob:" + strings.Repeat("1", 21) + ">", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomNegativeID", "<:blob:-1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomHexID", "<:blob:0x1F>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomZeroID", "<:blob:0>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomNoID", "<:blob:>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomUnclosed", "<:blob:1", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomExtraPart", "<:blob:1:2>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomWrongFlag", "<b:blob:1>", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomTrailingText", "<:blob:1> hi", free, "", CustomEmoji, ErrCustomEmoji},
		{"CustomUnicodeDigitsID", "<:blob:١٢٣>", free, "", CustomEmoji, ErrCustomEmoji},
		{"HugeInput", strings.Repeat("x", 10000), free, "", OneCharacter, ErrNotOneCharacter},
		{"SameTokenLowerCase", "o", free, "X O", NotTaken, ErrTaken},
		{"CyrillicHaNextToX", "Х", free, "X", NotConfusable, ErrConfusable},
		{"CyrillicSmallHaNextToX", "х", free, "X", NotConfusable, ErrConfusable},
		{"GreekChiNextToX", "Χ", free, "X", NotConfusable, ErrConfusable},
		{"XNextToGreekChi", "X", free, "Χ", NotConfusable, ErrConfusable},
		{"CyrillicONextToO", "О", free, "X O", NotConfusable, ErrConfusable},
		{"ZeroNextToO", "0", free, "X O", NotConfusable, ErrConfusable},
		{"GreekAlphaNextToA", "α", free, "A", NotConfusable, ErrConfusable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := strings.Fields(tt.taken)
			got, err := Parse(tt.in, tt.rules, taken)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %q, %v; want an *Error", tt.in, got, err)
			}
			if e.Rule != tt.rule || !errors.Is(err, tt.want) || !errors.Is(err, game.ErrBadToken) {
				t.Errorf("Parse(%q): %v (rule %v); want rule %v matching %v and game.ErrBadToken", tt.in, err, e.Rule, tt.rule, tt.want)
			}
			if got != "" {
				t.Errorf("Parse(%q) returned %q with its error", tt.in, got)
			}
			if e.Suggest == "" {
				t.Errorf("Parse(%q): no suggestion", tt.in)
			} else if _, err := Parse(e.Suggest, tt.rules, taken); err != nil {
				t.Errorf("Parse(%q) suggests %q, which is refused: %v", tt.in, e.Suggest, err)
			}
			if (tt.rule == NotTaken || tt.rule == NotConfusable) != errors.Is(err, game.ErrTokenTaken) {
				t.Errorf("errors.Is(%v, game.ErrTokenTaken) wrong for rule %v", err, tt.rule)
			}
			var te *game.TokenError
			if !errors.As(err, &te) || te.Reason == "" {
				t.Errorf("no *game.TokenError with a reason in %v", err)
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		name  string
		taken string
		want  string
	}{
		{"Empty", "", "X"},
		{"AfterX", "X", "O"},
		{"SkipsLookAlikes", "Х О", "A"}, // Cyrillic Ha and O
		{"SkipsI", "X O A B C D E F G H", "J"},
		{"SkipsTheEmojiOfATakenCharacter", "❌ ⭕", "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Suggest(free, strings.Fields(tt.taken)); got != tt.want {
				t.Errorf("Suggest(%q) = %q, want %q", tt.taken, got, tt.want)
			}
		})
	}
}

func TestSuggestAlwaysFindsOneForEveryPlayer(t *testing.T) {
	for _, r := range []game.Rules{free, game.Classic()} {
		var taken []string
		for range game.MaxPlayers {
			s := Suggest(r, taken)
			if s == "" {
				t.Fatalf("%+v: nothing to suggest after %q", r, taken)
			}
			taken = append(taken, s)
		}
		if _, err := game.New(game.Rules{Rows: 10, Cols: 10, Win: 3, Players: game.MaxPlayers}, game.Fast, Runes(taken)); err != nil {
			t.Errorf("suggested tokens %q refused by game.New: %v", taken, err)
		}
	}
}

func TestSkeleton(t *testing.T) {
	for _, tt := range []struct{ a, b string }{{"Х", "X"}, {"Χ", "X"}, {"ρ⍺у𝓅𝒂ן", "paypal"}, {"0", "O"}} {
		if Skeleton(tt.a) != Skeleton(tt.b) {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q; want equal", tt.a, Skeleton(tt.a), tt.b, Skeleton(tt.b))
		}
	}
	if Skeleton("X") == Skeleton("O") {
		t.Error("X and O confusable")
	}
	if UnicodeVersion == "" {
		t.Error("no Unicode version")
	}
}

func TestErrorWords(t *testing.T) {
	_, err := Parse("Х", free, []string{"X"})
	want := `token "Х" looks like X, another player's token (rule: not confusable): try O`
	if err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	for r := OneCharacter; r <= CustomEmoji; r++ {
		if r.String() == "" || r.String()[0] == 'R' {
			t.Errorf("Rule %d has no name", r)
		}
	}
	for _, r := range []Rule{-1, 0, 99} {
		e := &Error{Token: "?", Rule: r}
		if errors.Is(e, ErrTaken) || !errors.Is(e, game.ErrBadToken) {
			t.Errorf("Rule(%d): Is matches the wrong sentinels", r)
		}
	}
	if Rule(99).String() != "Rule(99)" {
		t.Errorf("unknown rule: %q", Rule(99).String())
	}
}

// checkAccepted fails when an accepted token breaks an invariant of the rule.
func checkAccepted(t testing.TB, in, tok string, r game.Rules, taken []string) {
	t.Helper()
	switch d := Describe(tok); d.Kind {
	case Char:
		c := []rune(tok)[0]
		switch {
		case uniseg.GraphemeClusterCount(tok) != 1:
			t.Fatalf("Parse(%q) = %q: not one grapheme cluster", in, tok)
		case uniseg.StringWidth(tok) != 1:
			t.Fatalf("Parse(%q) = %q: width %d", in, tok, uniseg.StringWidth(tok))
		case unicode.ToUpper(c) != c:
			t.Fatalf("Parse(%q) = %q: not upper case", in, tok)
		case !unicode.IsGraphic(c) || unicode.IsSpace(c) || unicode.IsMark(c):
			t.Fatalf("Parse(%q) = %q: not a visible base character", in, tok)
		case r.IsClassic() && unicode.IsNumber(c):
			t.Fatalf("Parse(%q) = %q: a number on the numbered board", in, tok)
		}
		if got, err := game.ParseToken(tok); err != nil || got != c {
			t.Fatalf("Parse(%q) = %q, which game.ParseToken reads as %q, %v", in, tok, got, err)
		}
	case Unicode:
		if uniseg.GraphemeClusterCount(tok) != 1 || utf8.RuneCountInString(tok) > MaxEmojiCodePoints {
			t.Fatalf("Parse(%q) = %q: not one short grapheme cluster", in, tok)
		}
		if q, ok := twemoji.Qualified(tok); !ok || q != tok {
			t.Fatalf("Parse(%q) = %q: not a fully-qualified emoji Twemoji draws", in, tok)
		}
	case Custom:
		if d.Name == "" || d.ID == "" || strings.ContainsAny(d.Name, "@#&!<>:`*_~|\\ ") && strings.Trim(d.Name, "_") == "" {
			t.Fatalf("Parse(%q) = %q: custom emoji %+v", in, tok, d)
		}
	}
	// What the emoji board writes outside a code block is markup-free: an
	// emoji or character with none of Discord's formatting characters, or a
	// custom emoji's exact markup.
	if face, ok := GridFace(tok); ok {
		switch {
		case Describe(tok).Kind == Custom && !customMarkup.MatchString(face):
			t.Fatalf("Parse(%q) = %q, written on the board as %q", in, tok, face)
		case Describe(tok).Kind != Custom && strings.ContainsAny(face, game.ReservedTokens+"@<>:#\n\r") && face != "#\uFE0F\u20E3":
			t.Fatalf("Parse(%q) = %q, written on the board as %q", in, tok, face)
		}
	}
	for _, o := range taken {
		if rule, _, _ := clashes(tok, []string{o}); rule != 0 {
			t.Fatalf("Parse(%q) = %q next to %q: clashes with %q", in, tok, taken, o)
		}
	}
	if again, err := Parse(tok, r, taken); err != nil || again != tok {
		t.Fatalf("Parse(%q) = %q, but Parse(%q) = %q, %v", in, tok, tok, again, err)
	}
	if _, err := game.New(game.Rules{Rows: 10, Cols: 10, Win: 3, Players: len(taken) + 1}, game.Fast, Runes(append(slices.Clone(taken), tok))); len(taken) > 0 && err != nil {
		t.Fatalf("Parse(%q) = %q, but the engine refuses %q: %v", in, tok, append(taken, tok), err)
	}
}

// customMarkup is a custom emoji as Discord writes it, and nothing more.
var customMarkup = regexp.MustCompile(`^<a?:[A-Za-z0-9_]{2,32}:[1-9][0-9]{0,19}>$`)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"X", "x", "Х", "Χ", "\u2800", "\u3164", "\u20DD", "e\u0301", "\uFDFD", "\u2E3B", "\uA9C1", "😀", "7", "З", "", "XO", "\xff",
		"🦊", "👍🏽", "❤\uFE0E", "1\uFE0F\u20E3", "🇫🇷", "<:blob:123>", "<a:x_y:99999999999999999999>", "<:@everyone:1>"} {
		f.Add(s, "X", true)
		f.Add(s, "", false)
		f.Add(s, "🦊 <:blob:123> 👍", false)
	}
	f.Fuzz(func(t *testing.T, s, takenText string, numbered bool) {
		r := free
		if numbered {
			r = game.Classic()
		}
		// The seats hold tokens Parse accepted, at most MaxPlayers-1 so one
		// more can join.
		var taken []string
		for _, c := range strings.Fields(takenText) {
			if tok, err := Parse(c, r, taken); err == nil && len(taken) < game.MaxPlayers-1 {
				taken = append(taken, tok)
			}
		}
		tok, err := Parse(s, r, taken)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, game.ErrBadToken) || tok != "" {
				t.Fatalf("Parse(%q) = %q, %v: want \"\" and an *Error matching game.ErrBadToken", s, tok, err)
			}
			if e.Suggest != "" {
				checkAccepted(t, e.Suggest, e.Suggest, r, taken)
			}
			return
		}
		checkAccepted(t, s, tok, r, taken)
	})
}

func BenchmarkParse(b *testing.B) {
	taken := strings.Fields("X O A B C D E F G")
	for _, bm := range []struct{ name, in string }{{"Accepted", "Ж"}, {"Confusable", "Х"}, {"NotMonospaced", "\uA9C1"}, {"Emoji", "👨\u200D👩\u200D👧"}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(bm.in, free, taken)
			}
		})
	}
}

// TestDescribeASCII: Describe's shortcut for one ASCII character says what
// the emoji table says, for every one of them.
func TestDescribeASCII(t *testing.T) {
	for c := range utf8.RuneSelf {
		tok := string(rune(c))
		want := Info{Kind: Char, Text: tok}
		if q, ok := twemoji.Qualified(tok); ok && q == tok {
			want = Info{Kind: Unicode, Text: tok}
		}
		if got := Describe(tok); got != want {
			t.Errorf("%q: %+v, the emoji table says %+v", tok, got, want)
		}
	}
}
