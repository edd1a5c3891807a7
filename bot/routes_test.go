package bot

import (
	"strconv"
	"strings"
	"testing"
)

// TestButtonIDsRoundTrip: every button route's custom_id, written by
// buttonID, is read back by matchButton as the same route and values.
func TestButtonIDsRoundTrip(t *testing.T) {
	for _, e := range routeTable {
		if e.button == "" {
			continue
		}
		var values []string
		want := map[string]string{}
		isInt := map[string]bool{}
		for seg := range strings.SplitSeq(e.button, ":") {
			name, isVar := strings.CutPrefix(seg, "{")
			if !isVar {
				continue
			}
			name = strings.TrimSuffix(name, "}")
			v := "7.3" // a {stamp}: game 7, three moves made
			if n, ok := strings.CutSuffix(name, " int"); ok {
				name, v = n, strconv.Itoa(40+len(values))
				isInt[name] = true
			}
			values = append(values, v)
			want[name] = v
		}
		id := buttonID(e.route, values...)
		if len(id) > 100 {
			t.Errorf("%s: %q is longer than Discord's 100 characters", e.button, id)
		}
		route, vars, err := matchButton(id)
		if err != nil || route != e.route {
			t.Fatalf("%s: %q read as route %v, %v", e.button, id, route, err)
		}
		for name, v := range want {
			got := vars.Text(name)
			if isInt[name] {
				got = strconv.Itoa(vars.Int(name))
			}
			if got != v {
				t.Errorf("%s: %q gives %s = %q, want %q", e.button, id, name, got, v)
			}
		}
	}
}

// TestRouteNames: every route's name, written once, is the one built from
// its table entry: "/ttt <subcommand>", "button <kind>", or "none".
func TestRouteNames(t *testing.T) {
	for r := RouteNone; r <= routeCount; r++ {
		want := "none"
		if int(r) < len(routeTable) && routeTable[r].route == r {
			if e := routeTable[r]; e.command != "" {
				want = "/" + CommandName + " " + e.command
			} else if e.button != "" {
				want = "button " + strings.Split(e.button, ":")[1]
			}
		}
		if got := r.String(); got != want {
			t.Errorf("route %d: %q, want %q", r, got, want)
		}
	}
	if RouteMove.String() != "/ttt move" || ButtonColumn.String() != "button col" {
		t.Errorf("move %q, column %q", RouteMove.String(), ButtonColumn.String())
	}
}
