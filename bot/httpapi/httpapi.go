// Package httpapi serves Discord's HTTP interactions endpoint: it checks the
// signature and size of each request, hands the interaction to the bot and
// writes its Response back inline. It also serves /healthz and /metrics. It
// decides nothing itself.
package httpapi

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
)

// replyWithin is how long a handler may take: Discord drops an interaction
// not answered within 3 s, and the reply itself needs a moment to travel.
const replyWithin = 2500 * time.Millisecond

// maxBody bounds an interaction request; real ones are a few kilobytes.
const maxBody = 1 << 20

// maxSkew is how old (or how far ahead) a signed timestamp may be. Discord's
// signature covers the timestamp, so this stops a captured request being
// replayed later.
const maxSkew = 5 * time.Minute

// Deduper remembers which interactions were handled. FirstDelivery records
// interactionID and reports whether this is the first time it was seen (in
// this process, after a restart, or on another replica sharing the store).
// An error means it is unknown; the interaction is then not applied.
type Deduper interface {
	FirstDelivery(ctx context.Context, interactionID string, now time.Time) (first bool, err error)
}

// Options configure the HTTP transport.
type Options struct {
	PublicKey ed25519.PublicKey // nil: only /healthz and /metrics are served
	Logger    *slog.Logger
	Now       func() time.Time // nil means time.Now
	// Deduper refuses an interaction ID seen before; nil applies every
	// validly signed, fresh request (single process, tests).
	Deduper Deduper
	// Ready is what /healthz asks: 503 with the reason while it reports an
	// error; nil: always ready.
	Ready Readier
}

// NewHandler serves Discord's HTTP interactions endpoint on
// POST /interactions (signature-checked, replies inline as JSON), plus
// GET /healthz and GET /metrics.
func NewHandler(b *bot.Bot, opt Options) http.Handler {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", healthz(opt.Ready))
	mux.Handle("GET /metrics", b.Metrics.Handler())
	if opt.PublicKey != nil {
		mux.Handle("POST /interactions", &interactionsHandler{bot: b, opt: opt})
	}
	return mux
}

type interactionsHandler struct {
	bot *bot.Bot
	opt Options
}

func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if !h.fresh(r.Header.Get("X-Signature-Timestamp")) || !discordgo.VerifyInteraction(r, h.opt.PublicKey) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
		http.Error(w, "unreadable interaction", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), replyWithin)
	defer cancel()
	// Inline replies cannot carry files (Discord takes them only through the
	// callback request), so the Response's note stands in for them.
	resp := h.bot.ServeRecovering(ctx, &i).InteractionResponse(false)
	body, err := json.Marshal(resp)
	if err != nil {
		h.opt.Logger.Error("http: encode reply", "err", err, "interaction", i.ID)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// fresh reports whether a signature timestamp (Unix seconds) is recent.
func (h *interactionsHandler) fresh(ts string) bool {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	age := h.opt.Now().Sub(time.Unix(sec, 0))
	return age < maxSkew && age > -maxSkew
}
