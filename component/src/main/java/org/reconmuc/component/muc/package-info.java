/**
 * Multi-user chat, XEP-0045: the service ({@link org.reconmuc.component.muc.MucService}: the
 * service's own disco, §6.1–6.3, and routing each stanza to its room), rooms with one thread at a
 * time each ({@link org.reconmuc.component.muc.Room}, its mailbox and its
 * {@link org.reconmuc.component.muc.RoomOutput}), creating and locking a room (§10.1), what a
 * persistent room writes, the bridge to relaxed consistency, and the rooms served under leases.
 * The room's features live in the sub-packages: {@code options} (configuration and access),
 * {@code occupants} (presence), {@code messages} and {@code iq}. A feature that changes what a
 * room does attaches to the events every room fires ({@link org.reconmuc.component.muc.RoomEvent},
 * as Prosody's {@code muc-*} events) through {@link org.reconmuc.component.muc.RoomFeatures}.
 * Room logic is synchronous and takes its clock from outside, so it is tested without sockets
 * or threads.
 */
package org.reconmuc.component.muc;
