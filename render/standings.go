package render

import (
	"io"
	"strconv"
)

// StandingsTable is what StandingsPNG draws: a tournament's standings,
// already ranked, with headings in the caller's words.
type StandingsTable struct {
	// Title is drawn above the table ("" for none).
	Title    string
	Headings StandingsHeadings
	Rows     []StandingsRow
}

// StandingsHeadings are the column headings. An empty TieBreak leaves the
// tie-break column out (a knockout has none).
type StandingsHeadings struct {
	Rank, Player, Points, Games, TieBreak string
}

// StandingsRow is one player's line.
type StandingsRow struct {
	Rank     int
	Player   string
	Points   float64
	Games    int
	TieBreak float64
	// Left greys the line out: the player left the tournament.
	Left bool
}

// Standings table metrics: the longest name drawn, a row's height and the
// padding around cells.
const (
	standingsNameMax = 24
	standingsRowH    = lineH + 7
	chartPad         = 8
	cellPad          = 10
)

// StandingsPNG writes t as a PNG table: rank, player, points, games and the
// tie-break, a header row, striped rows, leavers greyed. Numbers are drawn
// as decimals (2.5). The output depends only on t.
func StandingsPNG(w io.Writer, t StandingsTable) error {
	type column struct {
		heading string
		right   bool
		cell    func(StandingsRow) string
	}
	cols := []column{
		{t.Headings.Rank, true, func(r StandingsRow) string { return strconv.Itoa(r.Rank) }},
		{t.Headings.Player, false, func(r StandingsRow) string { return foldText(r.Player, standingsNameMax) }},
		{t.Headings.Points, true, func(r StandingsRow) string { return points(r.Points) }},
		{t.Headings.Games, true, func(r StandingsRow) string { return strconv.Itoa(r.Games) }},
	}
	if t.Headings.TieBreak != "" {
		cols = append(cols, column{t.Headings.TieBreak, true, func(r StandingsRow) string { return points(r.TieBreak) }})
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = chartWidth(foldText(c.heading, standingsNameMax))
		for _, r := range t.Rows {
			widths[i] = max(widths[i], chartWidth(c.cell(r)))
		}
	}
	tableW := 0
	for _, w := range widths {
		tableW += w + 2*cellPad
	}
	title := foldText(t.Title, 0)
	top := chartPad
	if title != "" {
		top += lineH + 8
	}
	width := max(tableW, chartWidth(title)) + 2*chartPad
	height := top + standingsRowH*(len(t.Rows)+1) + chartPad
	img := newChart(width, height)
	if title != "" {
		text(img, title, chartPad, chartPad+lineH-2, chartText)
	}

	row := func(i int, cells []string, ink uint8) {
		y := top + i*standingsRowH
		x := chartPad
		for c, s := range cells {
			at := x + cellPad
			if cols[c].right {
				at = x + cellPad + widths[c] - chartWidth(s)
			}
			text(img, s, at, y+standingsRowH-6, img.Palette[ink])
			x += widths[c] + 2*cellPad
		}
	}
	fill(img, rect(chartPad, top, tableW, standingsRowH), chartIdxHeader)
	headings := make([]string, len(cols))
	for c, col := range cols {
		headings[c] = foldText(col.heading, standingsNameMax)
	}
	row(0, headings, chartIdxText)
	for i, r := range t.Rows {
		y := top + (i+1)*standingsRowH
		if i%2 == 1 {
			fill(img, rect(chartPad, y, tableW, standingsRowH), chartIdxStripe)
		}
		cells := make([]string, len(cols))
		for c, col := range cols {
			cells[c] = col.cell(r)
		}
		ink := chartIdxText
		if r.Left {
			ink = chartIdxFaded
		}
		row(i+1, cells, ink)
	}
	fill(img, rect(chartPad, top+standingsRowH, tableW, 1), chartIdxRule)
	fill(img, rect(chartPad, height-chartPad, tableW, 1), chartIdxRule)
	return encoder.Encode(w, img)
}
