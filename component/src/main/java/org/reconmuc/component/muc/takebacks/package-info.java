/**
 * Taking a message back (reconmuc.md §5.14): an author's correction (XEP-0308) or retraction
 * (XEP-0424), and a moderator's retraction (XEP-0425), in the room's history, its archive and what
 * relaxed occupants still hold ({@link org.reconmuc.component.muc.takebacks.RoomTakeBacks}).
 */
package org.reconmuc.component.muc.takebacks;
