// Package store keeps tttbot's tables and results. This package holds the
// in-memory store (tests and throwaway runs; the reference the durable ones
// are held to) and what every store shares; each database has a package of
// its own: store/sqlite (the embedded default) and store/postgres (several
// replicas). Every store satisfies table.Store without importing its
// callers, and one suite (store/storetest) runs against all of them.
//
// The durable stores group-commit their writes (store/internal/groupcommit):
// one goroutine owns the write connection and commits every save that
// queued during the previous COMMIT in one transaction, so many channels
// share one fsync; each caller is answered only after the COMMIT that
// covers its save. Reads use a pool of their own. A save records the
// interaction ID it answers in its own transaction (table.Save.Delivery),
// so a retried interaction cannot apply twice and costs no second write;
// Handled reads those records, Remember adds one for an interaction that
// saved nothing. The same writer proves the store still writes (Ready).
// docs/store.md says how each database writes a batch, and why.
package store
