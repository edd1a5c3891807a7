package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// maxChoices is Discord's limit on autocomplete results.
const maxChoices = 25

// autocomplete suggests legal moves for /ttt move position: the free cells
// nearest the last move (or the centre), or the columns that are not full
// under gravity, filtered by what the user has typed so far. It reads the
// channel's game under its lock and changes nothing.
func (b *Bot) autocomplete(ctx context.Context, in *Interaction) Response {
	resp := Response{Kind: Choices}
	if in.Route != RouteMove || in.Focused != optPosition {
		return resp
	}
	err := b.tables.Peek(ctx, in.Channel, func(t *table.Table) {
		if t != nil && t.Phase == table.Playing {
			resp.Choices = legalChoices(t.Game(), strings.TrimSpace(in.String(optPosition)))
		}
	})
	if err != nil {
		b.log.ErrorContext(ctx, "autocomplete failed", "err", err, "interaction", in.ID, "channel", in.Channel)
	}
	return resp
}

func legalChoices(g *game.Game, typed string) []*discordgo.ApplicationCommandOptionChoice {
	r := g.Rules()
	focus, ok := g.LastPlaced()
	if !ok {
		focus = game.Coord{Row: r.Rows / 2, Col: r.Cols / 2}
	}
	var out []*discordgo.ApplicationCommandOptionChoice
	add := func(label string) {
		if strings.HasPrefix(label, typed) && len(out) < maxChoices {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: label})
		}
	}
	if r.Gravity {
		cols := make([]int, 0, r.Cols)
		for c := 0; c < r.Cols; c++ {
			if !g.ColumnFull(c) {
				cols = append(cols, c)
			}
		}
		slices.SortStableFunc(cols, func(a, b int) int { return abs(a-focus.Col) - abs(b-focus.Col) })
		for _, c := range cols {
			add(strconv.Itoa(c))
		}
		return out
	}
	// Free cells in square rings of growing distance around the focus, each
	// ring nearest first: the closest 25 matches without sorting a
	// 10,000-cell board.
	var ring []game.Coord
	for d := 0; d < max(r.Rows, r.Cols) && len(out) < maxChoices; d++ {
		ring = ring[:0]
		for row := focus.Row - d; row <= focus.Row+d; row++ {
			for col := focus.Col - d; col <= focus.Col+d; col++ {
				c := game.Coord{Row: row, Col: col}
				onRing := abs(row-focus.Row) == d || abs(col-focus.Col) == d
				if onRing && row >= 0 && row < r.Rows && col >= 0 && col < r.Cols && g.At(c) == game.NoPlayer {
					ring = append(ring, c)
				}
			}
		}
		slices.SortStableFunc(ring, func(a, b game.Coord) int { return dist2(a, focus) - dist2(b, focus) })
		for _, c := range ring {
			add(strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col))
		}
	}
	return out
}

func dist2(a, b game.Coord) int {
	dr, dc := a.Row-b.Row, a.Col-b.Col
	return dr*dr + dc*dc
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
