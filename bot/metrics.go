package bot

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Outcome is how the bot answered an interaction, for metrics.
type Outcome uint8

// Outcomes.
const (
	// Accepted: a table action that changed or showed the table.
	Accepted Outcome = iota
	// Answered: a query (check, stats, leaderboard, help), a pong or
	// autocomplete choices. Help is ephemeral but not a refusal.
	Answered
	// Refused: the user asked for something the rules do not allow.
	Refused
	// Failed: something went wrong on the bot's side.
	Failed
	outcomeCount // the number of outcomes: keep last
)

// String names the outcome as the metrics label shows it.
func (o Outcome) String() string {
	return [...]string{"accepted", "answered", "refused", "failed"}[o]
}

// Metrics are the bot's Prometheus metrics, on a registry of their own (so
// tests and several bots in one process do not collide): interactions
// counted and timed by interaction type, route and outcome.
type Metrics struct {
	registry *prometheus.Registry
	handled  *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// series are the counter and histogram of each label set seen,
	// resolved once: WithLabelValues hashes the labels and looks them up
	// under a lock every time, twice a request.
	series [len(typeLabels)][routeCount + 1][outcomeCount]atomic.Pointer[series]
}

// series is one label set's counter and histogram.
type series struct {
	handled prometheus.Counter
	latency prometheus.Observer
}

// NewMetrics returns the bot's metrics, with Go and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		handled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tttbot_interactions_total",
			Help: "Interactions handled, by interaction type, route (subcommand or button) and outcome.",
		}, []string{"type", "route", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tttbot_interaction_duration_seconds",
			Help: "Time to answer an interaction (including the store's commit), by route and outcome.",
			// Discord wants an answer within 3 s: resolve well below it.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 3},
		}, []string{"route", "outcome"}),
	}
	m.registry.MustRegister(m.handled, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Register adds collectors from outside the bot to its metrics: main adds
// the store's.
func (m *Metrics) Register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := m.registry.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// Handler serves the metrics in Prometheus' exposition format (GET /metrics).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// typeLabels name Discord's interaction types (by number) for the type
// label; any other type is "other".
var typeLabels = [...]string{"other", "ping", "command", "component", "autocomplete", "modal"}

func (m *Metrics) observe(in *Interaction, outcome Outcome, d time.Duration) {
	kind := int(in.Type)
	if kind <= 0 || kind >= len(typeLabels) {
		kind = 0
	}
	route := min(int(in.Route), int(routeCount)) // String names them all "none" past the last
	slot := &m.series[kind][route][outcome]
	s := slot.Load()
	if s == nil {
		name := in.Route.String()
		s = &series{
			handled: m.handled.WithLabelValues(typeLabels[kind], name, outcome.String()),
			latency: m.latency.WithLabelValues(name, outcome.String()),
		}
		slot.Store(s) // another request may store the same series: either will do
	}
	s.handled.Inc()
	s.latency.Observe(d.Seconds())
}
