-- Interaction IDs already handled: Discord may deliver one interaction twice
-- (a retry, a replayed request, another replica); the first delivery inserts
-- its ID, later ones find it. Rows older than a day are pruned: Discord never
-- redelivers that late, and signatures over five minutes old are refused.
CREATE TABLE handled_interactions (
    id         TEXT PRIMARY KEY,
    handled_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX handled_interactions_by_age ON handled_interactions (handled_at);

-- One row that readiness probes rewrite: proof that the store still writes.
CREATE TABLE store_probe (
    id     INTEGER PRIMARY KEY,
    probes INTEGER NOT NULL
);
