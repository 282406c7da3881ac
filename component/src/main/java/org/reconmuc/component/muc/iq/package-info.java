/**
 * The IQs a room answers (XEP-0045): disco#info and disco#items of the room (§6.4, §6.5), the
 * moderator's and admin's use cases with {@code muc#admin} (§8.2–8.5 kicking and voice, §9 bans,
 * membership and moderators), the owner's with {@code muc#owner} (§10.1.2 the initial
 * configuration, §10.2 the configuration form, §10.9 destroying the room), and IQs passed between
 * occupants without revealing their real JIDs.
 */
package org.reconmuc.component.muc.iq;
