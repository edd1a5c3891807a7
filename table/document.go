package table

import (
	"context"
	"fmt"
)

// Documents are small records kept in the session store beside the
// channels' tables, under keys no channel ID can take (a channel is a
// number; a document's key has a prefix and a colon, as the challenge
// ledger's "challenges:<user>"): a person's puzzle record, a puzzle's own
// rating. They are written with the same compare-and-swap as tables, so
// replicas sharing the store cannot both apply a change made from one
// version, and a change that records an interaction records it in the same
// transaction, so a replay of that interaction is refused before it runs.

// maxDocumentTries is how often UpdateDocument reads again after a lost
// swap before it gives up with ErrConflict.
const maxDocumentTries = 5

// LoadDocument returns the document stored under key, or found=false when
// none is.
func (ts *Tables) LoadDocument(ctx context.Context, key string) (data []byte, found bool, err error) {
	data, _, found, err = ts.store.LoadTable(ctx, key)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", key, err)
	}
	return data, found, nil
}

// UpdateDocument rewrites the document under key with change, compare-and-
// swap on the version it read: a lost swap is someone else's change, so it
// reads again and asks change again, up to maxDocumentTries times
// (ErrConflict after that).
//
// change computes the document's next content from its current one
// (found=false: none yet). It returns nil (and no error) to leave the
// document as it is; an error refuses the change. It may run more than once
// in one UpdateDocument (after a lost swap, with the newer content), so it
// must keep nothing of a run but what the last run returned.
//
// interactionID, when not "", is the interaction the change answers: the
// read fails with ErrDuplicate when it was recorded as handled before, and
// the save records it in the same transaction, so the interaction applies
// once however often it is delivered and whichever replica gets it.
// recorded reports whether a save recorded it (false when change left the
// document as it was, or refused).
func (ts *Tables) UpdateDocument(ctx context.Context, key, interactionID string, change func(data []byte, found bool) (next []byte, err error)) (recorded bool, err error) {
	for range maxDocumentTries {
		var (
			data    []byte
			version int64
			found   bool
			handled bool
		)
		if interactionID != "" {
			data, version, found, handled, err = ts.store.LoadTableHandled(ctx, key, interactionID)
		} else {
			data, version, found, err = ts.store.LoadTable(ctx, key)
		}
		switch {
		case err != nil:
			return false, fmt.Errorf("read %s: %w", key, err)
		case handled:
			return false, fmt.Errorf("interaction %s: %w", interactionID, ErrDuplicate)
		}
		next, err := change(data, found)
		if err != nil || next == nil {
			return false, err
		}
		_, saved, err := ts.store.SaveTable(ctx, Save{Channel: key, Data: next, Version: version, Now: ts.now(), Delivery: interactionID})
		if err != nil {
			return false, fmt.Errorf("save %s: %w", key, err)
		}
		if saved {
			return interactionID != "", nil
		}
	}
	return false, ErrConflict
}
