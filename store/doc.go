// Package store keeps tttbot's tables and results: in memory (tests and
// throwaway runs), in SQLite (the embedded default) or in PostgreSQL (several
// replicas). Every implementation satisfies table.Store without importing its
// callers, and one test suite runs against all of them.
//
// Writes are group-committed (batch.go): one goroutine owns the write
// connection and commits every save that queued during the previous COMMIT
// in one transaction, so many channels share one fsync; each caller is
// answered only after the COMMIT that covers its save. Reads use a pool of
// their own. A save records the interaction ID it answers in its own
// transaction (table.Save.Delivery), so a retried interaction cannot apply
// twice and costs no second write; Handled reads those records, Remember
// adds one for an interaction that saved nothing. The same writer proves
// the store still writes (Ready).
package store
