/**
 * A room's configuration and who may do what in it (XEP-0045 §10.2, the {@code muc#roomconfig}
 * form; §6.4's disco features and §15.5.4's {@code muc#roominfo} fields; §5.2's affiliations and
 * the owner and admin lists of the form, §10.5–10.8). Each room option is one class, a
 * {@link org.reconmuc.component.muc.options.RoomOption} listed in
 * {@link org.reconmuc.component.muc.options.RoomOptions}, and holds everything about itself: its
 * form field (which is also how a persistent room stores it), what disco#info says, the refusals
 * it adds to the room's one access rule ({@link org.reconmuc.component.muc.options.RoomAccess}:
 * entering, §7.2.6–7.2.8, the archive, the occupant list, invitations, registration, private
 * messages), status codes, and what it changes in the room through the events rooms fire
 * ({@code attach}: max users refuses an entry to a full room, §7.2.10; logging turns the archive
 * off; persistence keeps the room).
 */
package org.reconmuc.component.muc.options;
