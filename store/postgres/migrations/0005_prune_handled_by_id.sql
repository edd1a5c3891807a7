-- Handled interactions are pruned by ID (snowflakes sort by time; see
-- store's prune), so the index on their age only cost a write a move.
DROP INDEX handled_interactions_by_age;
