-- tttbot's PostgreSQL store at schema 0001-0002-0003-0004-0005-0010-0011-0012, as the main line had it at ce3861236b27, holding
-- testdata/v5.sql's rows on the columns it has. Written by TestUpgradeFromEveryReleasedSchema -update-released.

CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);

-- 0001_tables_and_results.sql
-- One row per channel: its current table (lobby, game or last result),
-- encoded by the bot, with a version for compare-and-swap writes.
CREATE TABLE channel_tables (
    channel    TEXT PRIMARY KEY,
    guild      TEXT NOT NULL,
    data       BYTEA NOT NULL,
    version    BIGINT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- One row per finished game.
CREATE TABLE results (
    id          BIGSERIAL PRIMARY KEY,
    scope       TEXT NOT NULL,
    rows_n      INTEGER NOT NULL,
    cols_n      INTEGER NOT NULL,
    win_n       INTEGER NOT NULL,
    gravity     BOOLEAN NOT NULL,
    moves       INTEGER NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL
);

-- One row per player of a finished game: the standings are sums over these.
CREATE TABLE result_players (
    result_id BIGINT NOT NULL REFERENCES results(id),
    scope     TEXT NOT NULL,
    player    TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    outcome   TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    PRIMARY KEY (result_id, seat)
);
CREATE INDEX result_players_by_player ON result_players (scope, player);
INSERT INTO schema_migrations (version, name) VALUES (1, '0001_tables_and_results.sql');

-- 0002_handled_interactions.sql
-- Interaction IDs already handled: Discord may deliver one interaction twice
-- (a retry, a replayed request, another replica); the first delivery inserts
-- its ID, later ones find it (the primary key holds across replicas). Rows
-- older than a day are pruned: Discord never redelivers that late, and
-- signatures over five minutes old are refused.
CREATE TABLE handled_interactions (
    id         TEXT PRIMARY KEY,
    handled_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX handled_interactions_by_age ON handled_interactions (handled_at);

-- One row that readiness probes rewrite: proof that the store still writes.
CREATE TABLE store_probe (
    id     INTEGER PRIMARY KEY,
    probes BIGINT NOT NULL
);
INSERT INTO schema_migrations (version, name) VALUES (2, '0002_handled_interactions.sql');

-- 0003_ratings_and_history.sql
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
INSERT INTO schema_migrations (version, name) VALUES (3, '0003_ratings_and_history.sql');

-- 0004_clock_deadlines.sql
-- One row per open game on a clock: when the player to move runs out of
-- time. Written in the same transaction as the table it belongs to, so the
-- scheduler (which asks for the earliest) never sees a deadline the table
-- does not have.
CREATE TABLE clock_deadlines (
    channel TEXT PRIMARY KEY REFERENCES channel_tables(channel),
    due_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX clock_deadlines_by_due ON clock_deadlines (due_at);
INSERT INTO schema_migrations (version, name) VALUES (4, '0004_clock_deadlines.sql');

-- 0005_prune_handled_by_id.sql
-- Handled interactions are pruned by ID (snowflakes sort by time; see
-- store's prune), so the index on their age only cost a write a move.
DROP INDEX handled_interactions_by_age;
INSERT INTO schema_migrations (version, name) VALUES (5, '0005_prune_handled_by_id.sql');

INSERT INTO channel_tables (channel, guild, data, version, updated_at) VALUES ('200000000000000001', 'g', '\x7b226775696c64223a2267222c226368616e6e656c223a22323030303030303030303030303030303031222c2263726561746f72223a22313030303030303030303030303030303031222c2272756c6573223a7b22526f7773223a332c22436f6c73223a332c2257696e223a332c2247726176697479223a66616c73652c22506c6179657273223a327d2c22656e67696e65223a302c227365617473223a5b7b2275736572223a22313030303030303030303030303030303031222c22746f6b656e223a2258227d2c7b2275736572223a22313030303030303030303030303030303032222c22746f6b656e223a224f227d5d2c227068617365223a226f766572222c226d6f766573223a22302e302e3020312e312e3020302e302e3120312e312e3120302e302e32222c226e756d626572223a312c2263726561746564223a22323032362d31312d32325431323a30303a30305a222c2275706461746564223a22323032362d31312d32325431323a30303a30355a227d', '6', '2026-11-22 12:00:05+00');
INSERT INTO channel_tables (channel, guild, data, version, updated_at) VALUES ('200000000000000002', 'g', '\x7b226775696c64223a2267222c226368616e6e656c223a22323030303030303030303030303030303032222c2263726561746f72223a22313030303030303030303030303030303031222c2272756c6573223a7b22526f7773223a332c22436f6c73223a332c2257696e223a332c2247726176697479223a66616c73652c22506c6179657273223a327d2c22656e67696e65223a302c227365617473223a5b7b2275736572223a22313030303030303030303030303030303031222c22746f6b656e223a2258227d2c7b2275736572223a22313030303030303030303030303030303032222c22746f6b656e223a224f227d5d2c227068617365223a22706c6179696e67222c226d6f766573223a22302e312e31222c226e756d626572223a312c2263726561746564223a22323032362d31312d32325431323a30303a30355a222c2275706461746564223a22323032362d31312d32325431323a30303a30365a222c22636c6f636b223a33302c22646561646c696e65223a22323032362d31312d32325431323a30303a33365a222c22636c6f636b5f6174223a317d', '2', '2026-11-22 12:00:06+00');
INSERT INTO results (id, scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason) VALUES ('1', 'g', '3', '3', '3', 'false', '5', '2026-11-22 12:00:05+00', '200000000000000001', 'classic', 'X O', '0.0.0 1.1.0 0.0.1 1.1.1 0.0.2', '');
INSERT INTO clock_deadlines (channel, due_at) VALUES ('200000000000000002', '2026-11-22 12:00:36+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233600000', '2026-11-22 12:00:01+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233600100', '2026-11-22 12:00:02+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233600200', '2026-11-22 12:00:03+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233600300', '2026-11-22 12:00:04+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233600400', '2026-11-22 12:00:05+00');
INSERT INTO handled_interactions (id, handled_at) VALUES ('1574031694233601000', '2026-11-22 12:00:06+00');
INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES ('*', 'classic', '100000000000000001', '27.635389493140497', '8.06590141354368', '1');
INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES ('*', 'classic', '100000000000000002', '22.364610506859503', '8.06590141354368', '1');
INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES ('g', 'classic', '100000000000000001', '27.635389493140497', '8.06590141354368', '1');
INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES ('g', 'classic', '100000000000000002', '22.364610506859503', '8.06590141354368', '1');
INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place) VALUES ('1', 'g', '100000000000000001', '0', 'win', 'won', '0');
INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place) VALUES ('1', 'g', '100000000000000002', '1', 'loss', 'lost', '1');

-- 0010_indexes_for_a_year_of_games.sql
-- Reads that must not grow with the store once it holds a year of games
-- (docs/store.md, "A year of games"): the leaderboard walks its order
-- instead of sorting a scope's every player; a player's record and history
-- in one server come from one covering index, which also does what
-- result_players_by_player (its prefix) did.
CREATE INDEX ratings_board ON ratings (scope, kind, (mu - 3 * sigma) DESC, player);
CREATE INDEX result_players_by_scope ON result_players (scope, player, result_id, outcome);
DROP INDEX result_players_by_player;
INSERT INTO schema_migrations (version, name) VALUES (10, '0010_indexes_for_a_year_of_games.sql');

-- 0011_games_open.sql
-- Whether a channel's table is an open game (in the lobby or being played),
-- written with every save (table.Save.Open), so the dashboard's count of
-- games open is one read of a partial index, not a decode of every table.
-- Existing rows are filled exactly from the phase in their stored JSON;
-- documents (keys with a colon, such as challenges:<user>) are never games,
-- and CASE keeps their data from being read as JSON at all.
ALTER TABLE channel_tables ADD COLUMN open_game BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE channel_tables SET open_game = TRUE
WHERE CASE WHEN position(':' IN channel) > 0 THEN FALSE
    ELSE convert_from(data, 'UTF8')::json ->> 'phase' IN ('lobby', 'playing') END;
CREATE INDEX channel_tables_open ON channel_tables (channel) WHERE open_game;
INSERT INTO schema_migrations (version, name) VALUES (11, '0011_games_open.sql');

-- 0012_ratings_board_games_played.sql
-- The leaderboard's index holds only the players it lists (games > 0, as
-- its query asks). Then no statement that finds one player's rating by
-- (scope, kind, player) can be planned on it, since none implies games > 0:
-- only the primary key serves them, whatever the statistics. Before, a
-- plan made while ratings was small (the writer's generic plans, kept with
-- no ANALYZE to replace them) could pick it, as it matches scope and kind
-- too, and then walk every rating of the scope and kind for each row.
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (scope, kind, (mu - 3 * sigma) DESC, player) WHERE games > 0;
INSERT INTO schema_migrations (version, name) VALUES (12, '0012_ratings_board_games_played.sql');

SELECT setval(pg_get_serial_sequence('results', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM results), false);
