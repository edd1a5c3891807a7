-- One row per open game on a clock: when the player to move runs out of
-- time. Written in the same transaction as the table it belongs to, so the
-- scheduler (which asks for the earliest) never sees a deadline the table
-- does not have. Times are UTC text in milliseconds, which sorts as it reads.
CREATE TABLE clock_deadlines (
    channel TEXT PRIMARY KEY REFERENCES channel_tables(channel),
    due_at  TEXT NOT NULL
);
CREATE INDEX clock_deadlines_by_due ON clock_deadlines (due_at);
