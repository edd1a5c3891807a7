package emojicdn

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeCDN serves /emojis/{id}.{ext} the ways a CDN can answer, by id.
type fakeCDN struct {
	*httptest.Server
	hits    atomic.Int64
	release chan struct{} // closes to let hanging answers go
	paths   sync.Map
}

// The ids the fake CDN knows.
const (
	idGood      = "111"
	idMissing   = "404"
	idHuge      = "50000000" // a 50 MB body with no Content-Length
	idHugeKnown = "50000001" // a 50 MB Content-Length
	idHTML      = "200"      // an HTML page
	idHang      = "999"      // never answers
	idSlowBody  = "998"      // headers, then a body that never ends
	idBomb      = "65535"    // a PNG header claiming 65535×65535 pixels
	idLiar      = "12345"    // image/png that is not a picture
	idSnowflake = "18446744073709551615"
)

func newFakeCDN(t *testing.T) *fakeCDN {
	f := &fakeCDN{release: make(chan struct{})}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.paths.Store(r.URL.Path, r.URL.RawQuery)
		id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/emojis/"), ".")
		switch id {
		case idGood, idSnowflake:
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngOf(32, 32))
		case idHuge:
			w.Header().Set("Content-Type", "image/png")
			chunk := make([]byte, 1<<20)
			for range 50 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case idHugeKnown:
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Content-Length", "52428800")
			w.WriteHeader(http.StatusOK)
		case idHTML:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><title>Not an emoji</title>"))
		case idHang:
			select {
			case <-f.release:
			case <-r.Context().Done():
			}
		case idSlowBody:
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-f.release:
			case <-r.Context().Done():
			}
		case idBomb:
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngHeader(65535, 65535))
		case idLiar:
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n then nothing a decoder can read"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { close(f.release); f.Close() })
	return f
}

func pngOf(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xc0
	}
	img.SetNRGBA(1, 1, color.NRGBA{0xff, 0, 0, 0xff})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

// pngHeader is a PNG's signature and IHDR chunk claiming w×h pixels,
// without the pixels.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func newClient(f *fakeCDN) *Client {
	c := New(f.URL + "/")
	c.Timeout = 300 * time.Millisecond
	return c
}

func TestImage(t *testing.T) {
	f := newFakeCDN(t)
	c := newClient(f)
	img, err := c.Image(context.Background(), idGood, false)
	if err != nil || img.Bounds().Dx() != 32 {
		t.Fatalf("got %v, %v", img, err)
	}
	if q, _ := f.paths.Load("/emojis/111.png"); q != "size=64" {
		t.Errorf("asked %v", q)
	}
	if _, err := c.Image(context.Background(), idSnowflake, true); err != nil {
		t.Fatalf("the largest snowflake, animated: %v", err)
	}
	if _, ok := f.paths.Load("/emojis/" + idSnowflake + ".gif"); !ok {
		t.Error("an animated emoji was not asked as .gif")
	}
}

// TestHostileAnswers: each way the CDN can fail ends in an error of its
// kind, and nothing is decoded that should not be.
func TestHostileAnswers(t *testing.T) {
	f := newFakeCDN(t)
	c := newClient(f)
	for _, tt := range []struct {
		name, id string
		want     error
	}{
		{"NotFound", idMissing, ErrStatus},
		{"FiftyMegabytes", idHuge, ErrTooLarge},
		{"FiftyMegabytesAnnounced", idHugeKnown, ErrTooLarge},
		{"HTMLPage", idHTML, ErrNotAnImage},
		{"Hangs", idHang, ErrUnavailable},
		{"BodyHangs", idSlowBody, ErrUnavailable},
		{"DecompressionBomb", idBomb, ErrTooLarge},
		{"NotWhatItSays", idLiar, ErrNotAnImage},
		{"NotAnID", "../../etc/passwd", ErrBadID},
		{"MentionAsID", "@everyone", ErrBadID},
		{"TooLongID", strings.Repeat("1", 21), ErrBadID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A hang ends in ErrUnavailable only through the client's own
			// timeout: the fake never answers, and the context is
			// Background.
			img, err := c.Image(context.Background(), tt.id, false)
			if !errors.Is(err, tt.want) || img != nil {
				t.Fatalf("got %v, %v; want %v", img, err, tt.want)
			}
		})
	}
}

// TestCache: a picture is fetched once; a failure is remembered for
// FailureTTL, then asked again; the least recently used entry goes first.
func TestCache(t *testing.T) {
	f := newFakeCDN(t)
	now := time.Unix(0, 0)
	c := newClient(f)
	c.Now = func() time.Time { return now }
	c.Capacity = 2
	ctx := context.Background()
	for range 3 {
		c.Image(ctx, idGood, false)
		c.Image(ctx, idMissing, false)
	}
	if n := f.hits.Load(); n != 2 {
		t.Fatalf("%d fetches for two emoji asked three times", n)
	}
	now = now.Add(DefaultFailureTTL + time.Second)
	c.Image(ctx, idGood, false)
	c.Image(ctx, idMissing, false)
	if n := f.hits.Load(); n != 3 {
		t.Fatalf("%d fetches: the failure should be asked again after its TTL, the picture not", n)
	}
	c.Image(ctx, idSnowflake, false) // evicts the least recently used: idGood
	c.Image(ctx, idGood, false)
	if n := f.hits.Load(); n != 5 {
		t.Fatalf("%d fetches, want 5: idGood was evicted", n)
	}
}

// TestOneFetchForConcurrentAskers: boards drawn at once share a fetch.
func TestOneFetchForConcurrentAskers(t *testing.T) {
	f := newFakeCDN(t)
	c := newClient(f)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Image(context.Background(), idGood, false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := f.hits.Load(); n != 1 {
		t.Errorf("%d fetches", n)
	}
}

// TestAskerGivingUpIsNoFailure: the first asker's context ending (its
// reply's time ran out) fails no fetch, so the picture is had, and cached,
// for whoever asks next, not a failure remembered for FailureTTL.
func TestAskerGivingUpIsNoFailure(t *testing.T) {
	f := newFakeCDN(t)
	c := newClient(f)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Image(gone, idGood, false); err != nil {
		t.Fatalf("a cancelled asker's fetch failed: %v", err)
	}
	if _, err := c.Image(context.Background(), idGood, false); err != nil {
		t.Fatalf("the next asker got %v", err)
	}
	if n := f.hits.Load(); n != 1 {
		t.Errorf("%d fetches, want one kept for both", n)
	}
}
