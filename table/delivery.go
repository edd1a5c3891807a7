package table

import "context"

// Deliver is Do for the action an interaction asks for: the action's save
// records interactionID as handled in the same transaction (Save.Delivery),
// so a retried or replayed interaction cannot apply twice, and there is no
// moment at which the ID is recorded while the move is not (or the other
// way round), whatever crashes when. The table's load reads the ID's
// record with the table, and an ID handled before fails the action with
// ErrDuplicate before it runs.
//
// recorded reports whether a save recorded the ID: when it did not (the
// action was refused, or changed nothing), the caller records it by other
// means if it must.
func (ts *Tables) Deliver(ctx context.Context, channel, interactionID string, act Action) (recorded bool, err error) {
	d := &delivery{id: interactionID}
	err = ts.do(ctx, channel, d, act)
	return d.saved, err
}

// delivery is the interaction an action answers, as far as saving needs it;
// saved once a save has recorded it, so a later save of the same action
// does not record it twice. It belongs to one Deliver call, under the
// channel's lock.
type delivery struct {
	id    string
	saved bool
}
