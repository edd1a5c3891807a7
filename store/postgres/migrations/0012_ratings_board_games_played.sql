-- The leaderboard's index holds only the players it lists (games > 0, as
-- its query asks). Then no statement that finds one player's rating by
-- (scope, kind, player) can be planned on it, since none implies games > 0:
-- only the primary key serves them, whatever the statistics. Before, a
-- plan made while ratings was small (the writer's generic plans, kept with
-- no ANALYZE to replace them) could pick it, as it matches scope and kind
-- too, and then walk every rating of the scope and kind for each row.
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (scope, kind, (mu - 3 * sigma) DESC, player) WHERE games > 0;
