package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

type readiness struct{ err error }

func (r *readiness) Ready(context.Context) error { return r.err }

func TestHealthzReadiness(t *testing.T) {
	st := store.NewMemory()
	b := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st, Now: time.Now}), Records: st})
	for _, tc := range []struct {
		name   string
		ready  Readier
		status int
		body   string
	}{
		{"NoReadier", nil, http.StatusOK, "ok"},
		{"Ready", &readiness{}, http.StatusOK, "ok"},
		{"StoreCannotWrite", &readiness{errors.New("store cannot write: attempt to write a readonly database")}, http.StatusServiceUnavailable, "not ready: store cannot write: attempt to write a readonly database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHandler(b, Options{Ready: tc.ready})
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			if w.Code != tc.status || strings.TrimSpace(w.Body.String()) != tc.body {
				t.Fatalf("got %d %q, want %d %q", w.Code, w.Body.String(), tc.status, tc.body)
			}
		})
	}
}
