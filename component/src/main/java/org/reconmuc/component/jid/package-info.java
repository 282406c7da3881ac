/**
 * Distinct types for the three kinds of address a MUC service deals with (XEP-0045 §4.2): the
 * room ({@code room@service}), an occupant in it ({@code room@service/nick}) and a user's real
 * JID. Mixing them up is the classic MUC privacy bug; the types make it a compile error.
 */
package org.reconmuc.component.jid;
