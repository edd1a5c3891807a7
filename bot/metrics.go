package bot

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Metrics counts what the bot answered, for GET /metrics in Prometheus'
// text format. Counters only: cheap, lock-free, enough to see traffic,
// refusals and latency.
type Metrics struct {
	commands     atomic.Int64
	autocomplete atomic.Int64
	components   atomic.Int64
	pings        atomic.Int64
	refused      atomic.Int64 // ephemeral replies: refusals and errors
	nanos        atomic.Int64 // total handling time
}

func (m *Metrics) observe(in *Interaction, resp Response, d time.Duration) {
	switch in.Type {
	case discordgo.InteractionApplicationCommand:
		m.commands.Add(1)
	case discordgo.InteractionApplicationCommandAutocomplete:
		m.autocomplete.Add(1)
	case discordgo.InteractionMessageComponent:
		m.components.Add(1)
	case discordgo.InteractionPing:
		m.pings.Add(1)
	}
	if resp.Ephemeral {
		m.refused.Add(1)
	}
	m.nanos.Add(int64(d))
}

// WriteTo writes the counters in Prometheus' text exposition format.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	n, err := fmt.Fprintf(w, `# HELP tttbot_interactions_total Interactions handled, by type.
# TYPE tttbot_interactions_total counter
tttbot_interactions_total{type="command"} %d
tttbot_interactions_total{type="autocomplete"} %d
tttbot_interactions_total{type="component"} %d
tttbot_interactions_total{type="ping"} %d
# HELP tttbot_ephemeral_replies_total Replies only the user saw: refusals and errors.
# TYPE tttbot_ephemeral_replies_total counter
tttbot_ephemeral_replies_total %d
# HELP tttbot_handling_seconds_total Time spent handling interactions.
# TYPE tttbot_handling_seconds_total counter
tttbot_handling_seconds_total %g
`, m.commands.Load(), m.autocomplete.Load(), m.components.Load(), m.pings.Load(), m.refused.Load(), time.Duration(m.nanos.Load()).Seconds())
	return int64(n), err
}
