package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// prometheusOwn are series Prometheus makes itself for every target it
// scrapes: rules may name them though no bot exports them.
var prometheusOwn = map[string]bool{"up": true, "scrape_duration_seconds": true, "scrape_samples_scraped": true}

// TestDeployNamesOnlyExportedMetrics: every metric the Grafana dashboard
// and the Prometheus alert rules name is one a running bot exports, read
// from a real scrape of its /metrics: a renamed or removed metric fails
// here, not on an operator's blank panel or silent alert. The store's
// gauges the dashboard shows answer what the bot holds: the one lobby
// opened is the one game open.
func TestDeployNamesOnlyExportedMetrics(t *testing.T) {
	p := startBot(t, "sqlite://"+filepath.Join(t.TempDir(), "tttbot.db"))
	// Labelled series appear once observed: one interaction of each kind the
	// rules look at.
	p.command(t, chanA, userA, "new")
	p.command(t, chanA, userA, "move", opt("position", "9,9"))
	exported := scrape(t, p.addr)
	for _, want := range []struct{ name, value string }{{"tttbot_games_open", "1"}, {"tttbot_clocks_due", "0"}, {"tttbot_store_writable", "1"}} {
		if got, ok := exported[want.name]; got != want.value {
			t.Errorf("%s = %q (exported: %v), want %s", want.name, got, ok, want.value)
		}
	}

	exprs := map[string][]string{} // where → its expressions
	exprs["deploy/grafana/tttbot.json"] = dashboardExprs(t, "deploy/grafana/tttbot.json")
	exprs["deploy/prometheus/alerts.yaml"] = alertExprs(t, "deploy/prometheus/alerts.yaml")
	named := 0
	for where, list := range exprs {
		if len(list) == 0 {
			t.Errorf("%s has no expressions", where)
		}
		for _, e := range list {
			names := metricNames(e)
			if len(names) == 0 {
				t.Errorf("%s: no metric in %q", where, e)
			}
			for _, n := range names {
				named++
				if _, ok := exported[n]; !ok && !prometheusOwn[n] {
					t.Errorf("%s names %s, which the bot does not export (in %q)", where, n, e)
				}
			}
		}
	}
	if named < 20 {
		t.Errorf("only %d metric names found: the expressions were not read", named)
	}
}

// scrape returns the samples /metrics on addr serves: each name, with the
// value of its first sample.
func scrape(tb testing.TB, addr string) map[string]string {
	tb.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	names := map[string]string{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.IndexAny(line, "{ ")
		if i <= 0 {
			continue
		}
		if _, seen := names[line[:i]]; !seen {
			names[line[:i]] = line[strings.LastIndexByte(line, ' ')+1:]
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return names
}

// dashboardExprs returns every PromQL expression of a Grafana dashboard:
// each target's expr, and the metric of each label_values variable.
func dashboardExprs(tb testing.TB, path string) []string {
	tb.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				s, ok := x.(string)
				switch {
				case ok && k == "expr":
					out = append(out, s)
				case ok && k == "definition" && strings.HasPrefix(s, "label_values("):
					metric, _, _ := strings.Cut(strings.TrimPrefix(s, "label_values("), ",")
					out = append(out, metric)
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return out
}

// alertExprs returns every rule's expression in a Prometheus rules file.
func alertExprs(tb testing.TB, path string) []string {
	tb.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Name  string
			Rules []struct {
				Alert, Record, Expr string
				For                 string
			}
		}
	}
	if err := yaml.Unmarshal(raw, &rules); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" && r.Record == "" {
				tb.Errorf("%s: group %s has a rule with neither alert nor record", path, g.Name)
			}
			out = append(out, r.Expr)
		}
	}
	return out
}

var (
	// promStrings are PromQL's string literals.
	promStrings = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")
	// promBraces and promBrackets are label matchers and range selectors.
	promBraces   = regexp.MustCompile(`\{[^}]*\}`)
	promBrackets = regexp.MustCompile(`\[[^\]]*\]`)
	// promLabelLists are the label names after grouping modifiers.
	promLabelLists = regexp.MustCompile(`\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	// promNumbers are numbers and durations (5m, 1h30m, 0.99, 1e3).
	promNumbers = regexp.MustCompile(`\b[0-9][0-9a-zA-Z.]*`)
	// promWords are identifiers, with what follows them.
	promWords = regexp.MustCompile(`[$]?[a-zA-Z_:][a-zA-Z0-9_:]*\s*\(?`)
)

// promKeywords are PromQL's words that are not metric names.
var promKeywords = []string{"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan", "atan2"}

// metricNames returns the metric names a PromQL expression selects: every
// identifier that is not a function or aggregation (followed by "("), a
// keyword, a label (inside braces or a grouping list), a string, a
// number or duration, or a Grafana variable.
func metricNames(expr string) []string {
	e := promStrings.ReplaceAllString(expr, " ")
	e = promBraces.ReplaceAllString(e, " ")
	e = promBrackets.ReplaceAllString(e, " ")
	e = promLabelLists.ReplaceAllString(e, " ")
	e = promNumbers.ReplaceAllString(e, " ")
	var out []string
	for _, w := range promWords.FindAllString(e, -1) {
		if strings.HasSuffix(w, "(") || strings.HasPrefix(w, "$") {
			continue
		}
		w = strings.TrimSpace(w)
		if slices.Contains(promKeywords, strings.ToLower(w)) || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func TestMetricNames(t *testing.T) {
	for _, tt := range []struct {
		expr string
		want []string
	}{
		{`up{job="tttbot"} == 0`, []string{"up"}},
		{`sum by (route, outcome) (rate(tttbot_interactions_total{job=~"$job"}[$__rate_interval]))`, []string{"tttbot_interactions_total"}},
		{`histogram_quantile(0.99, sum by (job, le) (rate(x_bucket[5m]))) > 1`, []string{"x_bucket"}},
		{`sum(rate(a_total{code=~"5.."}[5m])) / ignoring(code) group_left sum(rate(b_total[5m])) and on (instance) c`, []string{"a_total", "b_total", "c"}},
		{`max(d) offset 5m > bool 0 unless e{l="sum(f)"}`, []string{"d", "e"}},
		{`tttbot_store_writable`, []string{"tttbot_store_writable"}},
	} {
		if got := metricNames(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("metricNames(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}
