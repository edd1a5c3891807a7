package bot

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestMetricsOutcomes: help is answered, not refused; a refusal and an
// accepted action are counted by route.
func TestMetricsOutcomes(t *testing.T) {
	h := newHarness(t)
	h.as(alice, "help")
	h.as(alice, "move", opt("position", "1,1")) // no game here
	h.as(alice, "new")
	w := httptest.NewRecorder()
	h.bot.Metrics.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{
		`tttbot_interactions_total{outcome="answered",route="/ttt help",type="command"} 1`,
		`tttbot_interactions_total{outcome="refused",route="/ttt move",type="command"} 1`,
		`tttbot_interactions_total{outcome="accepted",route="/ttt new",type="command"} 1`,
		`tttbot_interaction_duration_seconds_count{outcome="accepted",route="/ttt new"} 1`,
	} {
		if !strings.Contains(w.Body.String(), want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(w.Body.String(), `outcome="refused",route="/ttt help"`) {
		t.Error("help counted as a refusal")
	}
}

// TestMetricsSeriesResolvedOnce: a label set's series, resolved at its
// first request and kept, counts every later request too; an interaction
// type Discord has not defined is "other", a route past the last "none".
func TestMetricsSeriesResolvedOnce(t *testing.T) {
	m := NewMetrics()
	for range 3 {
		m.observe(&Interaction{Type: 2, Route: RouteMove}, Accepted, time.Millisecond)
	}
	m.observe(&Interaction{Type: 99, Route: routeCount + 7}, Failed, time.Millisecond)
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{
		`tttbot_interactions_total{outcome="accepted",route="/ttt move",type="command"} 3`,
		`tttbot_interaction_duration_seconds_count{outcome="accepted",route="/ttt move"} 3`,
		`tttbot_interactions_total{outcome="failed",route="none",type="other"} 1`,
	} {
		if !strings.Contains(w.Body.String(), want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
}
