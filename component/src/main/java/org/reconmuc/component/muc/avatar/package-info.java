/**
 * Room avatars, XEP-0486 (MUC Avatars): an owner sets the room's vCard (XEP-0054,
 * {@code vcard-temp}) with a {@code PHOTO}; anyone may read it with a vCard request to the room's
 * bare JID; its hash (SHA-1 of the image, hex, as XEP-0153) is the {@code muc#roominfo_avatarhash}
 * field of the room's disco#info, and the room tells occupants with a presence from its bare JID
 * carrying {@code <x xmlns='vcard-temp:x:update'><photo>HASH</photo></x>} (XEP-0153) when they
 * enter and when it changes, as Prosody 13's MUC does (with a status 104 message beside it).
 *
 * <p>{@link org.reconmuc.component.muc.avatar.RoomAvatar} is a room's vCard, checked and bounded
 * ({@code --max-avatar-bytes}); {@link org.reconmuc.component.muc.avatar.AvatarUpdate} the presence
 * element. The room's side (who may set it, when it is sent, the store) is {@code muc.RoomAvatars}.
 */
package org.reconmuc.component.muc.avatar;
