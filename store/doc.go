// Package store keeps tttbot's tables and results: in memory (tests and
// throwaway runs), in SQLite (the embedded default) or in PostgreSQL (several
// replicas). Every implementation satisfies bot.Store without importing bot,
// and one test suite runs against all of them.
package store
