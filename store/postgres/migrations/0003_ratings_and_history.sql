-- Finished games keep what history and replays need: where they were
-- played, their kind, tokens and every move (game.Record notation), and why
-- they ended. Results recorded before this migration keep the defaults
-- (no moves: they cannot be replayed).
ALTER TABLE results ADD COLUMN channel TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN kind TEXT NOT NULL DEFAULT 'other';
ALTER TABLE results ADD COLUMN tokens TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN record TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN reason TEXT NOT NULL DEFAULT '';
CREATE INDEX results_by_channel ON results (channel, id);

-- How the game ended for each player (won, lost, draw, resigned,
-- won_on_time, lost_on_time) and their place for rating (0 first).
ALTER TABLE result_players ADD COLUMN finish TEXT NOT NULL DEFAULT '';
ALTER TABLE result_players ADD COLUMN place INTEGER NOT NULL DEFAULT 0;
CREATE INDEX result_players_history ON result_players (player, result_id);

-- One row per player, kind of game and scope (a server's ID, or '*' for
-- everywhere): the Weng-Lin rating after their last rated game there.
CREATE TABLE ratings (
    scope  TEXT NOT NULL,
    kind   TEXT NOT NULL,
    player TEXT NOT NULL,
    mu     DOUBLE PRECISION NOT NULL,
    sigma  DOUBLE PRECISION NOT NULL,
    games  INTEGER NOT NULL,
    PRIMARY KEY (scope, kind, player)
);
