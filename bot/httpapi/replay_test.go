package httpapi

import (
	"bytes"
	"fmt"
	"image/gif"
	"net/http"
	"testing"

	"github.com/tttbot/tttbot/internal/testkit"
)

// TestHTTPReplayGIF: /ttt replay over HTTP answers 202 and posts the GIF to
// Discord's callback as a multipart file, a frame a move plus the empty
// board and the final frame.
func TestHTTPReplayGIF(t *testing.T) {
	s := newSigner(t)
	h, fake := newFileHTTP(t, s, http.StatusNoContent)
	decodeReply(t, serve(h, s.command(t, "1180000000000000601", alice, "new")))
	decodeReply(t, serve(h, s.command(t, "1180000000000000691", bob, "join")))
	moves := []string{"0", "3", "1", "4", "2"}
	for i, cell := range moves {
		user := alice
		if i%2 == 1 {
			user = bob
		}
		decodeReply(t, serve(h, s.command(t, fmt.Sprintf("11800000000000006%02d", 10+i), user, "move", testkit.Opt("position", cell))))
	}
	w := serve(h, s.command(t, "1180000000000000699", bob, "replay"))
	if w.Code != http.StatusAccepted || len(fake.calls) != 1 {
		t.Fatalf("status %d, %d callbacks", w.Code, len(fake.calls))
	}
	payload, files := checkCallback(t, fake.calls[0])
	if *payload.Type != 4 || payload.Data.Flags&64 != 0 || *payload.Data.Attachments[0].Filename != "game-1.gif" {
		t.Fatalf("payload %+v", payload.Data)
	}
	g, err := gif.DecodeAll(bytes.NewReader(files["0"]))
	if err != nil || len(g.Image) != len(moves)+2 {
		t.Fatalf("GIF: %v, want %d frames", err, len(moves)+2)
	}
}
