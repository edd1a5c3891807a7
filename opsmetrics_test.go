package main

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// registry is a Prometheus registry as bot.Metrics offers it.
type registry struct{ *prometheus.Registry }

func (r registry) Register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := r.Registry.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// TestCountResponses: each answer is counted once under its status code
// and method, a body written without a status as 200.
func TestCountResponses(t *testing.T) {
	reg := registry{prometheus.NewRegistry()}
	h, err := countResponses(reg, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/denied":
			http.Error(w, "no", http.StatusUnauthorized)
		case "/down":
			w.WriteHeader(http.StatusServiceUnavailable)
			w.WriteHeader(http.StatusOK) // ignored by net/http; the first status stands
		default:
			w.Write([]byte("ok"))
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/denied", "/down", "/", "/", "/denied"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, path, nil))
	}
	got := map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			key := f.GetName()
			for _, l := range m.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			got[key] = m.GetCounter().GetValue()
		}
	}
	want := map[string]float64{
		"tttbot_http_requests_total code=200 method=post": 2,
		"tttbot_http_requests_total code=401 method=post": 2,
		"tttbot_http_requests_total code=503 method=post": 1,
	}
	if !maps.Equal(got, want) {
		t.Errorf("counted %v, want %v", got, want)
	}
}
