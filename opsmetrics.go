package main

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Bounds on what a scrape of /metrics asks the store.
const (
	gaugeWithin = 2 * time.Second // a scrape waits no longer for the store
	dueCounted  = 1000            // clocks due are counted up to this many
)

// storeGauges exports what the operator alerts on beside the request
// metrics: whether the store still takes writes (what /healthz answers), and
// how many deadlines have passed without being applied; and how many games
// are open. All are read at scrape time, so they cost nothing between
// scrapes, and each is one indexed read.
func storeGauges(st openedStore, now func() time.Time) []prometheus.Collector {
	writable := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_store_writable",
		Help: "1 while the store accepts writes (the readiness /healthz reports), 0 while it does not.",
	}, scraped(func(ctx context.Context) float64 {
		if st.ready.Ready(ctx) != nil {
			return 0
		}
		return 1
	}))
	due := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_clocks_due",
		Help: "Deadlines (move clocks run out, finished games' threads to archive) that have passed and are not applied yet, counted up to 1000. Above 0 for more than a few seconds: the clock scheduler is behind or failing.",
	}, scraped(func(ctx context.Context) float64 {
		chans, err := st.deadlines.DueChannels(ctx, now(), dueCounted)
		if err != nil {
			return math.NaN() // unknown: the store did not answer, which tttbot_store_writable shows
		}
		return float64(len(chans))
	}))
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_games_open",
		Help: "Tables open in the store: lobbies and games being played, in every channel and on every replica (they share the store).",
	}, scraped(func(ctx context.Context) float64 {
		n, err := st.games.GamesOpen(ctx)
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	}))
	return []prometheus.Collector{writable, due, open}
}

// scraped is read as a gauge's value, its context ending after gaugeWithin.
func scraped(read func(ctx context.Context) float64) func() float64 {
	return func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), gaugeWithin)
		defer cancel()
		return read(ctx)
	}
}

// countResponses counts h's responses by status code and method
// (tttbot_http_requests_total), so the operator sees 5xx answers (a store
// that cannot write, a reply that failed) and 401s (wrong public key, or
// someone probing) as rates. It costs a request one small allocation (the
// writer that notes the status) and a map read: promhttp's instrumenting
// handler took 2.8 µs and 3 allocations a request here.
func countResponses(m interface {
	Register(...prometheus.Collector) error
}, h http.Handler) (http.Handler, error) {
	c := &responseCounter{vec: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tttbot_http_requests_total",
		Help: "HTTP requests the endpoint answered (/interactions, /healthz, /metrics), by status code and method.",
	}, []string{"code", "method"}), counters: map[responseKey]prometheus.Counter{}}
	if err := m.Register(c.vec); err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		c.counter(responseKey{sw.status(), r.Method}).Inc()
	}), nil
}

// responseKey is one series of tttbot_http_requests_total.
type responseKey struct {
	code   int
	method string
}

// responseCounter keeps each series' counter once resolved: resolving the
// labels is most of what counting costs.
type responseCounter struct {
	vec      *prometheus.CounterVec
	mu       sync.RWMutex
	counters map[responseKey]prometheus.Counter
}

func (c *responseCounter) counter(k responseKey) prometheus.Counter {
	c.mu.RLock()
	ctr, ok := c.counters[k]
	c.mu.RUnlock()
	if ok {
		return ctr
	}
	ctr = c.vec.WithLabelValues(strconv.Itoa(k.code), strings.ToLower(k.method))
	c.mu.Lock()
	if len(c.counters) < 64 { // methods come from clients: keep what is kept bounded
		c.counters[k] = ctr
	}
	c.mu.Unlock()
	return ctr
}

// statusWriter notes the status a handler answers with.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// status is the code answered; 200 when the handler wrote nothing.
func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}
