-- One row per channel: its current table (lobby, game or last result),
-- encoded by the bot, with a version for compare-and-swap writes.
CREATE TABLE channel_tables (
    channel    TEXT PRIMARY KEY,
    guild      TEXT NOT NULL,
    data       BLOB NOT NULL,
    version    INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);

-- One row per finished game.
CREATE TABLE results (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    scope       TEXT NOT NULL,
    rows_n      INTEGER NOT NULL,
    cols_n      INTEGER NOT NULL,
    win_n       INTEGER NOT NULL,
    gravity     INTEGER NOT NULL,
    moves       INTEGER NOT NULL,
    finished_at TEXT NOT NULL
);

-- One row per player of a finished game: the standings are sums over these.
CREATE TABLE result_players (
    result_id INTEGER NOT NULL REFERENCES results(id),
    scope     TEXT NOT NULL,
    player    TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    outcome   TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    PRIMARY KEY (result_id, seat)
);
CREATE INDEX result_players_by_player ON result_players (scope, player);
