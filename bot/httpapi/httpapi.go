// Package httpapi serves Discord's HTTP interactions endpoint: it bounds the
// size of each request, checks its signature and age, refuses an interaction
// already handled, hands the rest to the bot and writes its Response back:
// inline when it has no files, through Discord's callback endpoint when it
// has. It also serves /healthz and /metrics. It decides nothing itself.
package httpapi

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
)

// replyWithin is how long a handler may take: Discord drops an interaction
// not answered within 3 s, and the reply itself needs a moment to travel.
const replyWithin = 2500 * time.Millisecond

// MaxBody bounds an interaction request; real ones are a few kilobytes. A
// larger body gets 413 before its signature is checked.
const MaxBody = 1 << 20

// MaxSkew is how old (or how far ahead) a signed timestamp may be. Discord's
// signature covers the timestamp, so this stops a captured request being
// replayed later.
const MaxSkew = 5 * time.Minute

// Deduper remembers which interactions were handled, in the store the bot
// saves tables to (in this process, after a restart, or by another replica
// sharing it). The authoritative record is made by the save itself: the
// transport serves with bot.ServeOnce, whose action's save records the ID
// in its own transaction, failing as a duplicate if it was there already,
// and whose table load reads the record with the table. So one writer
// operation serves a move, and no crash can leave an ID recorded without
// its move or a move without its ID. An interaction that loads no table
// (help, standings, history) is answered again if delivered twice; it
// changes nothing either way.
type Deduper interface {
	// Remember records interactionID as handled by an interaction that
	// saved nothing (a refusal, help, a board): it returns at once, and the
	// record reaches the store with the next commit. Applying such an
	// interaction twice changes nothing, so a retry that races the record
	// gets the same answer again, never a second move.
	Remember(ctx context.Context, interactionID string, now time.Time)
}

// Options configure the HTTP transport.
type Options struct {
	PublicKey ed25519.PublicKey // nil: only /healthz and /metrics are served
	Logger    *slog.Logger
	Now       func() time.Time // the application's clock; nil means time.Now
	// Deduper refuses an interaction ID seen before; nil applies every
	// validly signed, fresh request (single process, tests). It must be the
	// store the bot's tables are saved to: the saves record the IDs.
	Deduper Deduper
	// APIURL is Discord's REST base (DISCORD_API_URL, which config always
	// fills), where callbacks that carry files go; without it a reply with
	// a file fails and is logged.
	APIURL *url.URL
	// Client sends callbacks; nil means a client with a short timeout.
	Client *http.Client
	// Ready is what /healthz asks: 503 with the reason while it reports an
	// error; nil: always ready.
	Ready Readier
}

// NewHandler serves Discord's HTTP interactions endpoint on
// POST /interactions, plus GET /healthz and GET /metrics.
func NewHandler(b *bot.Bot, opt Options) http.Handler {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Client == nil {
		opt.Client = &http.Client{Timeout: replyWithin}
	}
	api := ""
	if opt.APIURL != nil {
		api = opt.APIURL.String()
	}
	for len(api) > 0 && api[len(api)-1] == '/' {
		api = api[:len(api)-1]
	}
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", healthz(opt.Ready))
	mux.Handle("GET /metrics", b.Metrics.Handler())
	if opt.PublicKey != nil {
		mux.Handle("POST /interactions", &interactionsHandler{bot: b, opt: opt, api: api})
	}
	return mux
}

type interactionsHandler struct {
	bot *bot.Bot
	opt Options
	api string // REST base without a trailing slash
}

// buffers hold request bodies (timestamp + body: the signed message) between
// requests, so a request allocates no buffer of its own.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// jsonType is the one Content-Type header value inline replies carry, shared
// so setting it allocates nothing.
var jsonType = []string{"application/json"}

func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Size first: an honest Content-Length over the limit is refused without
	// reading a byte; a lying or absent one is cut off by MaxBytesReader,
	// which reads at most MaxBody+1 bytes.
	if r.ContentLength > MaxBody {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	ts := r.Header.Get("X-Signature-Timestamp")
	buf := buffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 64<<10 { // keep the pool's buffers small
			buf.Reset()
			buffers.Put(buf)
		}
	}()
	buf.Reset()
	buf.WriteString(ts)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, MaxBody)); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "unreadable request", http.StatusBadRequest)
		return
	}
	msg := buf.Bytes()
	if !h.fresh(ts) || !verify(h.opt.PublicKey, r.Header.Get("X-Signature-Ed25519"), msg) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	i, fromThread, err := decodeInteraction(msg[len(ts):])
	if err != nil {
		http.Error(w, "unreadable interaction", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), replyWithin)
	defer cancel()
	if fromThread {
		ctx = bot.FromThread(ctx)
	}
	resp := h.serve(ctx, i)
	if len(resp.Files) > 0 && (resp.Kind == bot.Message || resp.Kind == bot.Update) {
		err := h.callback(ctx, i, resp)
		if err == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		// Not acknowledged yet: the inline reply (with the note in place of
		// the picture) still reaches the user.
		h.opt.Logger.WarnContext(ctx, "http: callback with files failed; replying inline without them", "err", err, "interaction", i.ID)
	}
	// The request's bytes are decoded (json copies what it keeps), so their
	// buffer holds the reply.
	h.inline(w, i, resp, msg[:0])
}

// serve answers i, unless it was handled before.
func (h *interactionsHandler) serve(ctx context.Context, i *discordgo.Interaction) bot.Response {
	if h.opt.Deduper == nil || !mutates(i.Type) {
		return h.bot.ServeRecovering(ctx, i)
	}
	resp, recorded := h.bot.ServeOnce(ctx, i)
	if !recorded {
		h.opt.Deduper.Remember(ctx, i.ID, h.opt.Now())
	}
	return resp
}

// mutates reports whether an interaction of type t may change a table, so
// that applying it twice would matter. PING and autocomplete only read.
func mutates(t discordgo.InteractionType) bool {
	return t != discordgo.InteractionPing && t != discordgo.InteractionApplicationCommandAutocomplete
}

// inline writes resp as the request's 200 JSON body; files, which Discord
// ignores there, are replaced by the Response's note.
func (h *interactionsHandler) inline(w http.ResponseWriter, i *discordgo.Interaction, resp bot.Response, scratch []byte) {
	body, err := appendResponse(scratch, resp)
	if err != nil {
		h.opt.Logger.Error("http: encode reply", "err", err, "interaction", i.ID)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header()["Content-Type"] = jsonType
	w.Write(body)
}

// fresh reports whether a signature timestamp (Unix seconds) is within
// MaxSkew of the application's clock, either way.
func (h *interactionsHandler) fresh(ts string) bool {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	age := h.opt.Now().Sub(time.Unix(sec, 0))
	return age <= MaxSkew && age >= -MaxSkew
}

// verify checks Discord's signature: Ed25519 over timestamp + body (msg),
// hex-encoded in the X-Signature-Ed25519 header.
func verify(key ed25519.PublicKey, sigHex string, msg []byte) bool {
	var sig [ed25519.SignatureSize]byte
	if len(sigHex) != 2*len(sig) {
		return false
	}
	if _, err := hex.Decode(sig[:], []byte(sigHex)); err != nil {
		return false
	}
	return ed25519.Verify(key, msg, sig[:])
}
