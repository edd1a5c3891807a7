package bot

import (
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/tournament"
)

// What players read of a tournament: its opening, the pairings of each
// round, the standings and the final standings. Players are mentions
// (pinging nobody: only a game's first message in its thread pings its
// two players).

// formatName is a format as the schema's choice names it.
func formatName(w *locales.Speaker, f tournament.Format) string {
	return w.Say(choiceKey("tournament.new", optFormat, string(f)), nil)
}

// clockName is a move clock as /ttt new's clock choice names it.
func clockName(w *locales.Speaker, seconds int) string {
	return w.Say(choiceKey("new", optClock, seconds), nil)
}

// newTournamentText announces an opened tournament.
func newTournamentText(w *locales.Speaker, d *tourney) string {
	return w.Say("tournament.new", locales.Data{"Organiser": mention(d.Organiser), "Format": formatName(w, d.T.Format),
		"Rules": rulesLine(w, d.Rules, game.Fast), "Clock": clockName(w, d.Clock), "Size": d.T.Size})
}

// startedText announces the start and round 1's pairings.
func startedText(w *locales.Speaker, d *tourney) string {
	head := w.Say("tournament.started", locales.Data{"Format": formatName(w, d.T.Format), "N": len(d.T.Players), "Rounds": d.T.Rounds,
		"Rules": rulesLine(w, d.Rules, game.Fast), "Clock": clockName(w, d.Clock)})
	return head + "\n" + roundText(w, d, d.T.Round)
}

// roundText is a round's pairings: a header, then a line a game.
func roundText(w *locales.Speaker, d *tourney, round int) string {
	lines := []string{w.Say("tournament.round", locales.Data{"Round": round, "Rounds": d.T.Rounds})}
	for _, g := range d.T.Games {
		if g.Round == round {
			lines = append(lines, pairingLine(w, g))
		}
	}
	return clip(strings.Join(lines, "\n"))
}

// pairingLine is one game of a round as paired.
func pairingLine(w *locales.Speaker, g tournament.Game) string {
	data := locales.Data{"Board": g.Board, "First": mention(g.First), "Second": mention(g.Second)}
	switch g.Outcome {
	case tournament.Pending:
		return w.Say("tournament.pairing", data)
	case tournament.Bye:
		return w.Say("tournament.bye", data)
	}
	return w.Say("tournament.forfeit", data) // decided as paired: a player had left
}

// tournamentThreadName names a game's thread: its round and players.
func tournamentThreadName(w *locales.Speaker, d *tourney, g tournament.Game) string {
	return clipThreadName(w.Say("tournament.thread_name", locales.Data{"Round": g.Round, "First": d.playerName(g.First), "Second": d.playerName(g.Second)}))
}

// points writes a score in whole and half points: "3", "2½".
func points(p float64) string {
	whole := int(p)
	if p-float64(whole) >= 0.5 {
		if whole == 0 {
			return "½"
		}
		return strconv.Itoa(whole) + "½"
	}
	return strconv.Itoa(whole)
}

// tieBreak writes a tie-break score in quarter points as a decimal.
func tieBreak(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// standingsText lays out the standings within limit characters: the head,
// a line a player (those that fit, then a note that the picture has
// everyone), then tail.
func standingsText(w *locales.Speaker, d *tourney, head, tail string, limit int) string {
	lines := []string{head}
	tieKey := ""
	switch d.T.Format {
	case tournament.RoundRobin:
		tieKey = "tournament.tie.sonneborn_berger"
	case tournament.Swiss:
		tieKey = "tournament.tie.buchholz"
	}
	for _, s := range d.T.Standings() {
		data := locales.Data{"Rank": s.Rank, "Player": mention(s.Player), "Points": points(s.Points), "Games": s.Games}
		if tieKey == "" {
			lines = append(lines, w.Say("tournament.standings.line_plain", data))
			continue
		}
		data["TieName"], data["Tie"] = w.Say(tieKey, nil), tieBreak(s.TieBreak)
		lines = append(lines, w.Say("tournament.standings.line", data))
	}
	body := strings.Join(lines, "\n")
	room := limit - runeLen(tail) - 1
	if runeLen(body) > room {
		body = clipLines(body, w.Say("tournament.standings.more", nil), room)
	}
	if tail == "" {
		return body
	}
	return body + "\n" + tail
}

// gamesText lists the current round's games still to be decided: in play
// (with their thread), or waiting for a thread and why.
func gamesText(w *locales.Speaker, d *tourney) string {
	var lines []string
	waiting := false
	for _, g := range d.T.Waiting() {
		data := locales.Data{"Board": g.Board, "First": mention(g.First), "Second": mention(g.Second)}
		if d.Opened[g.Key()] {
			data["Thread"] = channelMention(d.Threads[g.Key()])
			lines = append(lines, w.Say("tournament.playing", data))
			continue
		}
		waiting = true
		lines = append(lines, w.Say("tournament.waiting", data))
	}
	if waiting && d.Why != "" {
		why := ThreadFailed
		for r, name := range threadReasonNames {
			if name == d.Why {
				why = ThreadReason(r)
			}
		}
		key, data := explainThread(&ThreadError{Reason: why})
		lines = append(lines, w.Say("tournament.waiting_why", locales.Data{"When": discordTime(d.Retry, "R"), "Why": say(w, key, data)}))
	}
	return strings.Join(lines, "\n")
}

// standingsReply is /ttt tournament standings: the standings, the round's
// games, and the picture.
func standingsReply(w *locales.Speaker, d *tourney) Response {
	var head string
	switch {
	case !d.T.Started:
		head = w.Say("tournament.standings.entries", locales.Data{"Format": formatName(w, d.T.Format), "N": len(d.T.Players), "Size": d.T.Size})
	case d.T.Finished:
		head = w.Say("tournament.standings.over", locales.Data{"Format": formatName(w, d.T.Format)})
	default:
		head = w.Say("tournament.standings.title", locales.Data{"Format": formatName(w, d.T.Format), "Round": d.T.Round, "Rounds": d.T.Rounds})
	}
	tail := clipLines(gamesText(w, d), "…", MaxContent/3)
	resp := public(standingsText(w, d, head, tail, MaxContent))
	resp.Files = standingsPicture(w, d)
	return resp
}

// finalReply is the final standings, posted in the channel once the
// tournament is over.
func finalReply(w *locales.Speaker, d *tourney) Response {
	winner := ""
	if st := d.T.Standings(); len(st) > 0 {
		winner = mention(st[0].Player)
	}
	head := w.Say("tournament.final", locales.Data{"Winner": winner})
	resp := public(standingsText(w, d, head, "", MaxContent))
	resp.Files = standingsPicture(w, d)
	return resp
}
