-- Whether a channel's table is an open game (in the lobby or being played),
-- written with every save (table.Save.Open), so the dashboard's count of
-- games open is one read of a partial index, not a decode of every table.
-- Existing rows are filled exactly from the phase in their stored JSON;
-- documents (keys with a colon, such as challenges:<user>) are never games,
-- and CASE keeps their data from being read as JSON at all.
ALTER TABLE channel_tables ADD COLUMN open_game BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE channel_tables SET open_game = TRUE
WHERE CASE WHEN instr(channel, ':') > 0 THEN FALSE
    ELSE json_extract(CAST(data AS TEXT), '$.phase') IN ('lobby', 'playing') END;
CREATE INDEX channel_tables_open ON channel_tables (channel) WHERE open_game;
