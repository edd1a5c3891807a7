-- Reads that must not grow with the store once it holds a year of games
-- (docs/store.md, "A year of games"): the leaderboard walks its order
-- instead of sorting a scope's every player; a player's record and history
-- in one server come from one covering index, which also does what
-- result_players_by_player (its prefix) did.
CREATE INDEX ratings_board ON ratings (scope, kind, (mu - 3 * sigma) DESC, player);
CREATE INDEX result_players_by_scope ON result_players (scope, player, result_id, outcome);
DROP INDEX result_players_by_player;
