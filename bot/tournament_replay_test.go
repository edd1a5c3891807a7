package bot

import (
	"testing"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// TestTournamentReplayAppliesOnce: over a transport that dedupes (ServeOnce,
// as bot/httpapi serves), a tournament command delivered twice (a retry,
// a replay, another replica) is applied once, and the second delivery gets
// the duplicate notice, not the command's own refusal ("in this tournament
// already", "already open"). A refusal's delivery, remembered by the
// transport, is a duplicate on replay too.
func TestTournamentReplayAppliesOnce(t *testing.T) {
	h := newHarness(t)
	st := store.NewMemory()
	h.tables = table.NewTables(table.Options{Store: st, Now: h.clock})
	h.bot = New(Options{Tables: h.tables, Records: st, AIBudget: testAIBudget})
	h.withThreads(t)
	// As bot/httpapi serves: a delivery no save recorded is remembered
	// once ServeOnce returns.
	serve := func(id, user, sub string, opts ...option) *WireResponse {
		fields := commandFields(channel, user, sub, 0, opts)
		fields["ID"] = id
		resp, recorded := h.bot.ServeOnce(t.Context(), interaction(t, "command.json", fields))
		if !recorded {
			st.Remember(t.Context(), id, h.clock())
		}
		return resp.InteractionResponse(false)
	}
	const duplicate = "already handled"
	publicText(t, serve("1180000000000000201", alice, "tournament new", opt(optFormat, "round-robin")))
	refused(t, serve("1180000000000000201", alice, "tournament new", opt(optFormat, "round-robin")), duplicate)
	for _, p := range []string{bob, carol} {
		publicText(t, serve("1180000000000000202"+p[len(p)-1:], p, "tournament join"))
	}
	refused(t, serve("1180000000000000202"+bob[len(bob)-1:], bob, "tournament join"), duplicate)
	// Refused, then replayed: the transport remembered it.
	refused(t, serve("1180000000000000203", bob, "tournament join"), "already")
	refused(t, serve("1180000000000000203", bob, "tournament join"), duplicate)
	publicText(t, serve("1180000000000000204", carol, "tournament leave"))
	refused(t, serve("1180000000000000204", carol, "tournament leave"), duplicate)
	publicText(t, serve("1180000000000000205", dave, "tournament join"))
	publicText(t, serve("1180000000000000207", erin, "tournament join"))
	if d := h.tourneyOf(channel); len(d.T.Players) != 3 || d.T.Started {
		t.Fatalf("players %v, started %v: want bob, dave and erin, not started", d.T.Players, d.T.Started)
	}
	publicText(t, serve("1180000000000000206", alice, "tournament start"))
	round := h.tourneyOf(channel).T.Round
	refused(t, serve("1180000000000000206", alice, "tournament start"), duplicate)
	if d := h.tourneyOf(channel); !d.T.Started || d.T.Round != round {
		t.Fatalf("after a replayed start: started %v, round %d, want round %d", d.T.Started, d.T.Round, round)
	}
}
