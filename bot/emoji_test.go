package bot

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/emojicdn"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/golden"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/token"
)

// The custom emoji ids the fake CDN knows: one with a picture; the rest
// answer as a CDN can fail.
const (
	cdnBlob = "123456789012345678" // a purple blob
	cdnHTML = "222222222222222222" // an HTML page
	cdnHuge = "333333333333333333" // 50 MB
	cdnHang = "444444444444444444" // never answers
)

// fakeCDN points the bot's custom emoji pictures at a CDN on 127.0.0.1.
func (h *harness) fakeCDN(t testing.TB) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/emojis/"), ".")
		switch id {
		case cdnBlob:
			w.Header().Set("Content-Type", "image/png")
			w.Write(blobPNG())
		case cdnHTML:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>not an emoji</html>"))
		case cdnHuge:
			w.Header().Set("Content-Type", "image/png")
			chunk := make([]byte, 1<<20)
			for range 50 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case cdnHang:
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	cdn := emojicdn.New(srv.URL)
	cdn.Timeout = 300 * time.Millisecond
	h.bot.emojiImages = cdn
}

// blobPNG is the fake CDN's custom emoji: a purple blob with two eyes.
func blobPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			dx, dy := x-32, y-32
			if dx*dx+dy*dy < 30*30 {
				img.SetNRGBA(x, y, color.NRGBA{uint8(0x70 + x), 0x30, uint8(0xd0 - y), 0xff})
				if (dx > 4 && dx < 12 || dx < -4 && dx > -12) && dy > -12 && dy < -2 {
					img.SetNRGBA(x, y, color.NRGBA{0xff, 0xff, 0xff, 0xff})
				}
			}
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

// pictureOf reads resp's PNG, if it has one.
func pictureOf(t testing.TB, resp *WireResponse) []byte {
	if resp.Data == nil {
		return nil
	}
	for _, f := range resp.Data.Files {
		if f.ContentType != "image/png" {
			continue
		}
		data, err := io.ReadAll(f.Reader)
		if err != nil {
			t.Fatal(err)
		}
		f.Reader = bytes.NewReader(data)
		return data
	}
	return nil
}

// checkPicture compares a PNG with testdata/name.png pixel by pixel.
func checkPicture(t testing.TB, name string, got []byte) {
	t.Helper()
	if got == nil {
		t.Fatalf("picture %s: no reply had a picture", name)
	}
	golden.CheckWith(t, filepath.Join("testdata", name+".png"), got, *update, func(wantPNG, gotPNG []byte) error {
		want, err := png.Decode(bytes.NewReader(wantPNG))
		if err != nil {
			return err
		}
		img, err := png.Decode(bytes.NewReader(gotPNG))
		if err != nil {
			return err
		}
		if !golden.SamePixels(want, img) {
			return errors.New("the picture differs from the golden one")
		}
		return nil
	})
}

// emojiLabel writes a button's emoji as a transcript shows it: the emoji,
// or a custom emoji as <:name:id> (<a:…> animated).
func emojiLabel(e *discordgo.ComponentEmoji) string {
	if e.ID == "" {
		return e.Name
	}
	a := ""
	if e.Animated {
		a = "a"
	}
	return "<" + a + ":" + e.Name + ":" + e.ID + ">"
}

// TestEmojiBoardSquaresAreReserved: the squares and keycaps the emoji grid
// draws with are no tokens, so no token reads as an empty cell or a label.
func TestEmojiBoardSquaresAreReserved(t *testing.T) {
	if render.EmojiEmpty != token.EmptyCell {
		t.Fatalf("the grid's empty cell %q is not the token rule's %q", render.EmojiEmpty, token.EmptyCell)
	}
	for _, s := range []string{render.EmojiEmpty, render.EmojiCorner} {
		if tok, err := token.Parse(s, game.Rules{Rows: 6, Cols: 7, Win: 4, Players: 2}, nil); err == nil {
			t.Errorf("%q is a token (%q)", s, tok)
		}
	}
	for d := range 10 {
		keycap := string(rune('0'+d)) + "\uFE0F\u20E3"
		if _, err := token.Parse(keycap, game.Classic(), nil); err == nil {
			t.Errorf("keycap %s is a token on the numbered board", keycap)
		}
	}
}

// TestButtonsCarryEmoji: a cell button shows the emoji that took it, a
// Unicode one by name, a custom one by id, name and animation.
func TestButtonsCarryEmoji(t *testing.T) {
	for _, tt := range []struct {
		tok  string
		want *discordgo.ComponentEmoji
	}{
		{"🦊", &discordgo.ComponentEmoji{Name: "🦊"}},
		{"<a:party:42>", &discordgo.ComponentEmoji{Name: "party", ID: "42", Animated: true}},
		{"<:blob:123456789012345678>", &discordgo.ComponentEmoji{Name: "blob", ID: "123456789012345678"}},
		{"X", nil},
	} {
		got := buttonEmoji(tt.tok)
		if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("buttonEmoji(%q) = %+v, want %+v", tt.tok, got, tt.want)
		}
	}
}
