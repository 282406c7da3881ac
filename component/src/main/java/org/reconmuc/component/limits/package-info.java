/**
 * Bounds on what a sender or a room may spend, knowing nothing of XMPP: a rate, as a token bucket
 * on the caller's clock ({@link org.reconmuc.component.limits.TokenBucket}: each occupant's
 * messages, each sender's presences and IQs, a room's events as Prosody's mod_muc_limits), and
 * memory, as a map that forgets its least recently used entries past a bound in entries or in
 * bytes ({@link org.reconmuc.component.limits.BoundedMap}). Deterministic: no threads, no clock
 * of their own; each is used by one thread at a time.
 */
package org.reconmuc.component.limits;
