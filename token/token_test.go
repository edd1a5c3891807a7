package token

import (
	"errors"
	"testing"
	"unicode"

	"github.com/rivo/uniseg"
	"github.com/tttbot/tttbot/game"
)

// free is a board where digits are fine: 4×4, not numbered.
var free = game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 4}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		rules game.Rules
		taken string
		want  rune
	}{
		{"Letter", "X", free, "", 'X'},
		{"LowerCaseIsUpperCased", "x", free, "", 'X'},
		{"SpacesAround", " o ", free, "X", 'O'},
		{"Accented", "é", free, "", 'É'},
		{"DecomposedAccentComposes", "e\u0301", free, "", 'É'},
		{"SharpSHasNoOneRuneUpperCase", "ß", free, "", 'ß'},
		{"DigitOffTheNumberedBoard", "7", free, "", '7'},
		{"Symbol", "#", free, "", '#'},
		{"GeometricShape", "●", free, "", '●'},
		{"Cyrillic", "ж", free, "", 'Ж'},
		{"Greek", "Ω", free, "", 'Ω'},
		{"CyrillicHaAlone", "Х", free, "O", 'Х'},
		{"ZeroOffTheNumberedBoard", "0", free, "", '0'},
		{"OOnTheNumberedBoard", "O", game.Classic(), "X", 'O'},
		{"GravityThreeByThreeIsNotNumbered", "3", game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2, Gravity: true}, "", '3'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in, tt.rules, []rune(tt.taken))
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
		{"Emoji", "😀", free, "", OneColumn, ErrNotOneColumn},
		{"EmojiWithSkinTone", "👍🏽", free, "", OneColumn, ErrNotOneColumn},
		{"FlagPair", "🇫🇷", free, "", OneColumn, ErrNotOneColumn},
		{"HeartDingbat", "❤", free, "", OneColumn, ErrNotOneColumn},
		{"SpadeSuitEmojiCandidate", "♠", free, "", OneColumn, ErrNotOneColumn},
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
		{"SameTokenLowerCase", "o", free, "XO", NotTaken, ErrTaken},
		{"CyrillicHaNextToX", "Х", free, "X", NotConfusable, ErrConfusable},
		{"CyrillicSmallHaNextToX", "х", free, "X", NotConfusable, ErrConfusable},
		{"GreekChiNextToX", "Χ", free, "X", NotConfusable, ErrConfusable},
		{"XNextToGreekChi", "X", free, "Χ", NotConfusable, ErrConfusable},
		{"CyrillicONextToO", "О", free, "XO", NotConfusable, ErrConfusable},
		{"ZeroNextToO", "0", free, "XO", NotConfusable, ErrConfusable},
		{"GreekAlphaNextToA", "α", free, "A", NotConfusable, ErrConfusable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := []rune(tt.taken)
			got, err := Parse(tt.in, tt.rules, taken)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %q, %v; want an *Error", tt.in, got, err)
			}
			if e.Rule != tt.rule || !errors.Is(err, tt.want) || !errors.Is(err, game.ErrBadToken) {
				t.Errorf("Parse(%q): %v (rule %v); want rule %v matching %v and game.ErrBadToken", tt.in, err, e.Rule, tt.rule, tt.want)
			}
			if got != 0 {
				t.Errorf("Parse(%q) returned %q with its error", tt.in, got)
			}
			if e.Suggest == 0 {
				t.Errorf("Parse(%q): no suggestion", tt.in)
			} else if _, err := Parse(string(e.Suggest), tt.rules, taken); err != nil {
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
		want  rune
	}{
		{"Empty", "", 'X'},
		{"AfterX", "X", 'O'},
		{"SkipsLookAlikes", "ХО", 'A'}, // Cyrillic Ha and O
		{"SkipsI", "XOABCDEFGH", 'J'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Suggest(free, []rune(tt.taken)); got != tt.want {
				t.Errorf("Suggest(%q) = %q, want %q", tt.taken, got, tt.want)
			}
		})
	}
}

func TestSuggestAlwaysFindsOneForEveryPlayer(t *testing.T) {
	for _, r := range []game.Rules{free, game.Classic()} {
		var taken []rune
		for range game.MaxPlayers {
			s := Suggest(r, taken)
			if s == 0 {
				t.Fatalf("%+v: nothing to suggest after %q", r, string(taken))
			}
			taken = append(taken, s)
		}
		if _, err := game.New(game.Rules{Rows: 10, Cols: 10, Win: 3, Players: game.MaxPlayers}, game.Fast, taken); err != nil {
			t.Errorf("suggested tokens %q refused by game.New: %v", string(taken), err)
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
	_, err := Parse("Х", free, []rune("X"))
	want := `token "Х" looks like X, another player's token (rule: not confusable): try O`
	if err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	for r := OneCharacter; r <= NotConfusable; r++ {
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
func checkAccepted(t testing.TB, in string, tok rune, r game.Rules, taken []rune) {
	t.Helper()
	s := string(tok)
	switch {
	case uniseg.GraphemeClusterCount(s) != 1:
		t.Fatalf("Parse(%q) = %q: not one grapheme cluster", in, tok)
	case uniseg.StringWidth(s) != 1:
		t.Fatalf("Parse(%q) = %q: width %d", in, tok, uniseg.StringWidth(s))
	case unicode.ToUpper(tok) != tok:
		t.Fatalf("Parse(%q) = %q: not upper case", in, tok)
	case !unicode.IsGraphic(tok) || unicode.IsSpace(tok) || unicode.IsMark(tok):
		t.Fatalf("Parse(%q) = %q: not a visible base character", in, tok)
	case r.IsClassic() && unicode.IsNumber(tok):
		t.Fatalf("Parse(%q) = %q: a number on the numbered board", in, tok)
	}
	for _, o := range taken {
		if tok == o || Skeleton(string(tok)) == Skeleton(string(o)) {
			t.Fatalf("Parse(%q) = %q next to %q: confusable with %q", in, tok, string(taken), o)
		}
	}
	if got, err := game.ParseToken(s); err != nil || got != tok {
		t.Fatalf("Parse(%q) = %q, which game.ParseToken reads as %q, %v", in, tok, got, err)
	}
	if again, err := Parse(s, r, taken); err != nil || again != tok {
		t.Fatalf("Parse(%q) = %q, but Parse(%q) = %q, %v", in, tok, s, again, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"X", "x", "Х", "Χ", "\u2800", "\u3164", "\u20DD", "e\u0301", "\uFDFD", "\u2E3B", "\uA9C1", "😀", "7", "З", "", "XO", "\xff"} {
		f.Add(s, "X", true)
		f.Add(s, "", false)
	}
	f.Fuzz(func(t *testing.T, s, takenText string, numbered bool) {
		r := free
		if numbered {
			r = game.Classic()
		}
		taken := []rune(takenText)
		if len(taken) > game.MaxPlayers { // seats hold at most MaxPlayers tokens
			taken = taken[:game.MaxPlayers]
		}
		tok, err := Parse(s, r, taken)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, game.ErrBadToken) || tok != 0 {
				t.Fatalf("Parse(%q) = %q, %v: want 0 and an *Error matching game.ErrBadToken", s, tok, err)
			}
			if e.Suggest != 0 {
				checkAccepted(t, string(e.Suggest), e.Suggest, r, taken)
			}
			return
		}
		checkAccepted(t, s, tok, r, taken)
	})
}

func BenchmarkParse(b *testing.B) {
	taken := []rune("XOABCDEFG")
	for _, bm := range []struct{ name, in string }{{"Accepted", "Ж"}, {"Confusable", "Х"}, {"NotMonospaced", "\uA9C1"}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(bm.in, free, taken)
			}
		})
	}
}
