/**
 * Multi-user chat, XEP-0045: the service ({@link org.reconmuc.component.muc.MucService}), rooms
 * with one thread at a time each, and one class per MUC feature (messages, admin, owner,
 * disco, IQ proxying). Each room option is one class too, a
 * {@link org.reconmuc.component.muc.RoomOption} listed in
 * {@link org.reconmuc.component.muc.RoomOptions}; who may enter, read the archive or see the
 * occupants is one rule, {@link org.reconmuc.component.muc.RoomAccess}. Room logic is
 * synchronous and takes its clock from outside, so it is tested without sockets or threads.
 */
package org.reconmuc.component.muc;
