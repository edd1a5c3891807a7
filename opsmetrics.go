package main

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Bounds on what a scrape of /metrics asks the store.
const (
	gaugeWithin = 2 * time.Second // a scrape waits no longer for the store
	dueCounted  = 1000            // clocks due are counted up to this many
)

// storeGauges exports what the operator alerts on beside the request
// metrics: whether the store still takes writes (what /healthz answers), and
// how many deadlines have passed without being applied. Both are read at
// scrape time, so they cost nothing between scrapes.
func storeGauges(st openedStore, now func() time.Time) []prometheus.Collector {
	writable := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_store_writable",
		Help: "1 while the store accepts writes (the readiness /healthz reports), 0 while it does not.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), gaugeWithin)
		defer cancel()
		if st.ready.Ready(ctx) != nil {
			return 0
		}
		return 1
	})
	due := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_clocks_due",
		Help: "Deadlines (move clocks run out, finished games' threads to archive) that have passed and are not applied yet, counted up to 1000. Above 0 for more than a few seconds: the clock scheduler is behind or failing.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), gaugeWithin)
		defer cancel()
		chans, err := st.deadlines.DueChannels(ctx, now(), dueCounted)
		if err != nil {
			return math.NaN() // unknown: the store did not answer, which tttbot_store_writable shows
		}
		return float64(len(chans))
	})
	return []prometheus.Collector{writable, due}
}

// countResponses counts h's responses by status code and method
// (tttbot_http_requests_total), so the operator sees 5xx answers (a store
// that cannot write, a reply that failed) and 401s (wrong public key, or
// someone probing) as rates.
func countResponses(m interface {
	Register(...prometheus.Collector) error
}, h http.Handler) (http.Handler, error) {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tttbot_http_requests_total",
		Help: "HTTP requests the endpoint answered (/interactions, /healthz, /metrics), by status code and method.",
	}, []string{"code", "method"})
	if err := m.Register(c); err != nil {
		return nil, err
	}
	return promhttp.InstrumentHandlerCounter(c, h), nil
}
