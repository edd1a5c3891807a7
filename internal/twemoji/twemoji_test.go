package twemoji

import (
	"testing"
)

func TestQualified(t *testing.T) {
	tests := []struct{ in, want string }{
		{"🦊", "🦊"},
		{"❤", "❤\uFE0F"},
		{"❤\uFE0F", "❤\uFE0F"},
		{"1\u20E3", "1\uFE0F\u20E3"},
		{"👨\u200D👩\u200D👧", "👨\u200D👩\u200D👧"},
		{"🇫🇷", "🇫🇷"},
		{"👍🏽", "👍🏽"},
		{"🏳\u200D🌈", "🏳\uFE0F\u200D🌈"},
	}
	for _, tt := range tests {
		got, ok := Qualified(tt.in)
		if !ok || got != tt.want {
			t.Errorf("Qualified(%+q) = %+q, %v; want %+q", tt.in, got, ok, tt.want)
		}
	}
	for _, s := range []string{"X", "a", "🇫", "👨\u200D", ""} {
		if got, ok := Qualified(s); ok {
			t.Errorf("Qualified(%+q) = %+q, true; want none", s, got)
		}
	}
}

// TestEveryTile inflates every tile: the embedded data is whole and each
// picture has something drawn in it.
func TestEveryTile(t *testing.T) {
	if Count() < 3700 {
		t.Fatalf("only %d emoji", Count())
	}
	for i := range tiles {
		img, ok := Image(tiles[i].seq)
		if !ok {
			t.Fatalf("no picture of %+q", tiles[i].seq)
		}
		seen := 0
		for _, p := range img.Pix {
			if int(p) >= len(sheetPalette) {
				t.Fatalf("%+q: index %d outside the palette", tiles[i].seq, p)
			}
			if _, _, _, a := sheetPalette[p].RGBA(); a > 0 {
				seen++
			}
		}
		if seen < 100 {
			t.Errorf("%+q draws only %d pixels", tiles[i].seq, seen)
		}
	}
	if _, ok := Image("X"); ok {
		t.Error("a picture of X")
	}
}
