package httpapi

import "hash/maphash"

// A stringCache makes strings from bytes, handing back a string it made
// before for the same bytes where it still has one: most strings an
// interaction carries (its application, server, channel and locale, the
// user, the command's name, option names and values) come again in the
// next request, and each would otherwise be an allocation. It is what
// json.Unmarshal does (its decoders keep a cache of the same shape), so
// reading by hand keeps that saving. Strings are immutable, so sharing one
// between requests is safe; the cache keeps at most len(stringCache)
// strings of at most maxCachedLen bytes alive.
type stringCache [256]string

// Strings outside these lengths are made afresh: one byte strings cost
// nothing to make, and long ones (a token) are as a rule seen once.
const (
	minCachedLen = 2
	maxCachedLen = 64
)

var stringSeed = maphash.MakeSeed()

// make returns b as a string, from the cache if it holds it, else new
// and put in the cache in place of the string that hashed alike.
func (c *stringCache) make(b []byte) string {
	if len(b) < minCachedLen || len(b) > maxCachedLen {
		return string(b)
	}
	i := maphash.Bytes(stringSeed, b) % uint64(len(c))
	if s := c[i]; s == string(b) {
		return s
	}
	s := string(b)
	c[i] = s
	return s
}
