package httpapi

import (
	"context"
	"io"
	"net/http"
	"time"
)

// readyWithin bounds a readiness check: a probe (orchestrator, load
// balancer, `tttbot healthcheck`) wants an answer, not a hung request.
const readyWithin = 2 * time.Second

// Readier reports whether what the bot depends on can do its work: nil, or
// why not. The store's Ready proves that it still accepts writes.
type Readier interface {
	Ready(ctx context.Context) error
}

// healthz answers 200 "ok" when ready is nil or reports ready, else 503 with
// the reason, so a bot whose store cannot write is taken out of rotation
// (and counted unhealthy) until the store recovers by itself.
func healthz(ready Readier) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), readyWithin)
			defer cancel()
			if err := ready.Ready(ctx); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, "not ready: "+err.Error()+"\n")
				return
			}
		}
		io.WriteString(w, "ok\n")
	}
}
