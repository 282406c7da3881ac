/**
 * Relaxed consistency in a room (xep-spec/reconmuc.md §5.6–§5.9; Alves &amp; Ferreira, CSCW 2011,
 * §3): the room's message log that retained messages point into ({@link MessageLog}), the
 * fan-out of each logged message — at once to whoever needs it now, the rest when the
 * {@link org.reconmuc.component.consistency.ConsistencyEngine} flushes — and the flush forms
 * (one by one, forwarded plain/deflate, compact, compact in a session's deflate stream, whose
 * window is pointers: {@link StreamWindow}).
 *
 * <p>It knows a room only through {@link FanoutHost} (who is in, the clock, where stanzas go), so
 * the benchmarks drive the same code the service runs. Single-threaded by design: a room calls
 * it from its own thread.
 */
package org.reconmuc.component.relaxed;
