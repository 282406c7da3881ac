/**
 * Durable rooms: the store that keeps persistent rooms (XEP-0045 {@code muc#roomconfig_persistentroom})
 * — configuration, affiliations, reserved nicknames, subject, occupant-id key — and their message
 * archive (the log XEP-0313 queries read) across restarts and crashes.
 *
 * <p>One JDBC implementation ({@link org.reconmuc.component.store.JdbcStore}) runs on SQLite (the
 * default), H2 and PostgreSQL. Writes leave the room threads through a {@link
 * org.reconmuc.component.store.StoreWriter} that commits them in batches (group commit); each
 * room's {@link org.reconmuc.component.store.RoomJournal} holds the room's outgoing stanzas until
 * the writes before them are committed, so nothing a client has seen can be lost by a crash.
 * The tables are versioned: {@link org.reconmuc.component.store.StoreSchema} brings them up to
 * date with Flyway's migrations (in {@code migration/} beside it) whenever a store opens, keeping
 * every row an earlier version wrote.
 */
package org.reconmuc.component.store;
