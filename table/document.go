package table

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Documents: state that is not a channel's game (a person's open
// challenges, a channel's tournament, a person's puzzle record, a puzzle's
// own rating) is kept in the store beside the tables, under a key no channel
// ID can take (a channel is a number; a document's key has a prefix and a
// colon: "challenges:<user>", "tournament:<channel>"), and written with the
// same compare-and-swap, so two replicas changing one document at once
// cannot both win on the same version. A change that answers an interaction
// records it in the same transaction, so a replay of that interaction is
// refused before it runs. A document may keep a deadline like a table: the
// scheduler then hands its key, when due, to the function registered for
// its prefix (OnDocumentDue).

// DocumentChange computes a document's next version from the stored one
// (found=false: none yet). It returns nil next (and no error) to leave the
// document as it is, and the deadline to keep with it (zero: none). An
// update may call it again after a lost swap, with the newer content, so it
// must keep nothing of a run but what it returns.
type DocumentChange func(data []byte, found bool) (next []byte, deadline time.Time, err error)

// documentTries bounds an update's reads and swaps: each lost swap is
// another process's change to the same document, which is rare.
const documentTries = 8

// UpdateDocument rewrites the document under key with change, which keeps
// no deadline (see UpdateDocumentDue). interactionID, when not "", is the
// interaction the change answers: the read fails with ErrDuplicate when it
// was recorded as handled before, and the save records it, so it applies
// once however often it is delivered and whichever replica gets it. It
// reports whether a new version was written; ErrConflict after
// documentTries lost swaps.
func (ts *Tables) UpdateDocument(ctx context.Context, key, interactionID string, change func(data []byte, found bool) (next []byte, err error)) (saved bool, err error) {
	return ts.updateDocument(ctx, key, interactionID, func(data []byte, found bool) ([]byte, time.Time, error) {
		next, err := change(data, found)
		return next, time.Time{}, err
	})
}

// UpdateDocumentDue is UpdateDocument for a document that keeps a deadline
// (change returns it). interactionID is as for UpdateDocument: "" when the
// change answers no interaction (the scheduler's work, a ledger's upkeep).
func (ts *Tables) UpdateDocumentDue(ctx context.Context, key, interactionID string, change DocumentChange) (saved bool, err error) {
	return ts.updateDocument(ctx, key, interactionID, change)
}

// updateDocument is the compare-and-swap loop behind both: a lost swap
// reads the document again and runs change on what another process wrote.
func (ts *Tables) updateDocument(ctx context.Context, key, interactionID string, change DocumentChange) (saved bool, err error) {
	var d *delivery
	if interactionID != "" {
		d = &delivery{id: interactionID}
	}
	for range documentTries {
		data, version, found, err := ts.loadStored(ctx, key, d)
		if err != nil {
			return false, fmt.Errorf("read %s: %w", key, err)
		}
		next, deadline, err := change(data, found)
		if err != nil || next == nil {
			return false, err
		}
		_, ok, err := ts.store.SaveTable(ctx, Save{Channel: key, Data: next, Version: version, Now: ts.now(), Deadline: deadline, Delivery: interactionID})
		if err != nil {
			return false, fmt.Errorf("save %s: %w", key, err)
		}
		if ok {
			ts.deadlineSaved(deadline)
			return true, nil
		}
	}
	return false, ErrConflict
}

// LoadDocument returns the document stored under key, or found=false.
func (ts *Tables) LoadDocument(ctx context.Context, key string) (data []byte, found bool, err error) {
	data, _, found, err = ts.store.LoadTable(ctx, key)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", key, err)
	}
	return data, found, nil
}

// DocumentDueFunc applies what fell due on the document under key (its
// deadline passed) and reports whether it did anything. It runs outside
// any channel's lock, and must itself keep the document's work once only
// (a compare-and-swap through UpdateDocumentDue), as another replica may
// run it at the same time.
type DocumentDueFunc func(ctx context.Context, key string) (applied bool, err error)

// OnDocumentDue sets what the scheduler runs for a due document whose key
// starts with prefix. Call it before the tables are used.
func (ts *Tables) OnDocumentDue(prefix string, f DocumentDueFunc) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.documents == nil {
		ts.documents = map[string]DocumentDueFunc{}
	}
	ts.documents[prefix] = f
}

// documentDue returns the function for a due document's key, or nil when
// key is a channel's (or nothing is registered for its prefix).
func (ts *Tables) documentDue(key string) DocumentDueFunc {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for prefix, f := range ts.documents {
		if strings.HasPrefix(key, prefix) {
			return f
		}
	}
	return nil
}
