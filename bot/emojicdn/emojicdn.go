// Package emojicdn fetches custom emoji's pictures from Discord's CDN
// (GET {base}/emojis/{id}.png), for board pictures of games with custom emoji
// tokens. It satisfies render.Images without importing render; main wires it.
//
// Nothing the CDN answers is trusted: a fetch is bounded in time (Timeout,
// the whole request), in size (MaxBytes, checked against Content-Length
// before reading and while reading), in kind (an image content type, and a
// picture that decodes) and in pixels (MaxSide, read from the header before
// the picture is decoded). Pictures and failures are kept in an LRU cache of
// Capacity entries, failures for FailureTTL only, so a CDN that hangs costs
// one Timeout per emoji, not one per board drawn; concurrent requests for
// one emoji share one fetch.
package emojicdn

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // the CDN may answer GIF for animated emoji
	_ "image/png"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "golang.org/x/image/webp" // and WebP
)

// Defaults for a Client's bounds.
const (
	DefaultTimeout    = 1500 * time.Millisecond // a reply has 3 s in all
	DefaultMaxBytes   = 256 << 10               // Discord's emoji upload limit is 256 KiB
	DefaultMaxSide    = 512                     // pixels a side; the CDN serves 128 by default
	DefaultCapacity   = 512                     // emoji kept
	DefaultFailureTTL = 5 * time.Minute
	// Size is the picture size asked of the CDN (?size=): the biggest
	// cell of a board picture is 64 pixels.
	Size = 64
)

// Errors a fetch can end with (wrapped with details).
var (
	ErrBadID       = errors.New("not a custom emoji id")
	ErrStatus      = errors.New("the CDN did not answer 200 OK")
	ErrTooLarge    = errors.New("the picture is too large")
	ErrNotAnImage  = errors.New("the CDN's answer is not an image")
	ErrUnavailable = errors.New("the CDN's answer was not had in time")
)

// Client fetches and caches custom emoji's pictures. Set its fields before
// the first Image; a Client is safe for concurrent use after that.
type Client struct {
	Base       string       // the CDN's base URL, e.g. https://cdn.discordapp.com (no trailing /)
	HTTP       *http.Client // nil: a client of its own
	Timeout    time.Duration
	MaxBytes   int64
	MaxSide    int
	Capacity   int
	FailureTTL time.Duration
	Now        func() time.Time // nil: time.Now

	mu       sync.Mutex
	lru      *list.List               // of *entry, most recently used first
	entries  map[string]*list.Element // by id
	inflight map[string]*call
}

// New returns a Client for the CDN at base with the default bounds.
func New(base string) *Client {
	return &Client{Base: strings.TrimSuffix(base, "/")}
}

// entry is a cached outcome: a picture, or a failure and when it was had.
type entry struct {
	id  string
	img image.Image
	err error
	at  time.Time
}

// call is a fetch in flight that later askers wait for.
type call struct {
	done chan struct{}
	img  image.Image
	err  error
}

// Image returns custom emoji id's picture, from the cache or the CDN. The
// fetch is bounded by c.Timeout whatever ctx allows.
func (c *Client) Image(ctx context.Context, id string, animated bool) (image.Image, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%w: %q", ErrBadID, id)
	}
	c.mu.Lock()
	c.init()
	if el, ok := c.entries[id]; ok {
		e := el.Value.(*entry)
		if e.err == nil || c.now().Sub(e.at) < c.failureTTL() {
			c.lru.MoveToFront(el)
			c.mu.Unlock()
			return e.img, e.err
		}
	}
	if cl, ok := c.inflight[id]; ok {
		c.mu.Unlock()
		select {
		case <-cl.done:
			return cl.img, cl.err
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
		}
	}
	cl := &call{done: make(chan struct{})}
	c.inflight[id] = cl
	c.mu.Unlock()

	// The fetch is shared and its answer kept (a failure for FailureTTL),
	// so it runs for every asker: the first one's deadline or cancellation
	// must not become everyone's failure. It stays bounded by c.Timeout.
	cl.img, cl.err = c.fetch(context.WithoutCancel(ctx), id, animated)

	c.mu.Lock()
	delete(c.inflight, id)
	c.store(&entry{id: id, img: cl.img, err: cl.err, at: c.now()})
	c.mu.Unlock()
	close(cl.done)
	return cl.img, cl.err
}

func (c *Client) init() {
	if c.lru == nil {
		c.lru, c.entries, c.inflight = list.New(), map[string]*list.Element{}, map[string]*call{}
	}
}

// store caches e, dropping the least recently used entries past Capacity.
func (c *Client) store(e *entry) {
	if el, ok := c.entries[e.id]; ok {
		el.Value = e
		c.lru.MoveToFront(el)
	} else {
		c.entries[e.id] = c.lru.PushFront(e)
	}
	for c.lru.Len() > c.capacity() {
		old := c.lru.Remove(c.lru.Back()).(*entry)
		delete(c.entries, old.id)
	}
}

// fetch asks the CDN for id's picture and checks every part of the answer.
func (c *Client) fetch(ctx context.Context, id string, animated bool) (image.Image, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	ext := "png"
	if animated {
		ext = "gif" // the first frame is drawn
	}
	u := c.Base + "/emojis/" + id + "." + ext + "?size=" + strconv.Itoa(Size)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Accept", "image/png, image/gif, image/webp")
	resp, err := c.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s", ErrStatus, resp.Status)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || !strings.HasPrefix(mt, "image/") {
		return nil, fmt.Errorf("%w: content type %q", ErrNotAnImage, resp.Header.Get("Content-Type"))
	}
	max := c.maxBytes()
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, resp.ContentLength, max)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: reading: %v", ErrUnavailable, err)
	case int64(len(data)) > max:
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrNotAnImage, err)
	case cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > c.maxSide() || cfg.Height > c.maxSide():
		return nil, fmt.Errorf("%w: %d×%d pixels, more than %d a side", ErrTooLarge, cfg.Width, cfg.Height, c.maxSide())
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotAnImage, err)
	}
	return img, nil
}

// validID: a snowflake, 1–20 ASCII digits (the token rule checks more;
// this keeps anything else out of the URL whoever calls).
func validID(id string) bool {
	if id == "" || len(id) > 20 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

func (c *Client) client() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

// defaultHTTP bounds each stage of a connection too, under Timeout.
var defaultHTTP = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	TLSHandshakeTimeout:   DefaultTimeout,
	ResponseHeaderTimeout: DefaultTimeout,
	MaxIdleConnsPerHost:   4,
	IdleConnTimeout:       90 * time.Second,
}}

func (c *Client) timeout() time.Duration { return or(c.Timeout, DefaultTimeout) }
func (c *Client) maxBytes() int64        { return or(c.MaxBytes, DefaultMaxBytes) }
func (c *Client) maxSide() int           { return or(c.MaxSide, DefaultMaxSide) }
func (c *Client) capacity() int          { return or(c.Capacity, DefaultCapacity) }
func (c *Client) failureTTL() time.Duration {
	return or(c.FailureTTL, DefaultFailureTTL)
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func or[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}
