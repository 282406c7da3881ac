package org.reconmuc.component.muc;

import java.util.Set;

/**
 * {@code muc#roomconfig_moderatedroom}: only occupants with voice may send to the room; an
 * unaffiliated newcomer enters as a visitor ({@link Room#defaultRole}).
 */
public final class ModeratedOption extends RoomOption.Flag {
    public static final ModeratedOption MODERATED = new ModeratedOption();

    private ModeratedOption() {
        super("muc#roomconfig_moderatedroom", "Only participants with voice may send messages", false,
                "muc_moderated", "muc_unmoderated");
    }

    /** Unaffiliated occupants take the role the room now gives them; moderators keep theirs. */
    @Override
    public void changed(Room room, Boolean before, Boolean after) {
        for (Occupant o : room.occupants()) {
            Affiliation a = room.affiliationOf(o.bareJid());
            Role wanted = room.defaultRole(a);
            if (a == Affiliation.NONE && o.role() != Role.MODERATOR && o.role() != wanted) {
                o.setRole(wanted);
                room.presence().broadcastPresence(o, Set.of());
            }
        }
    }
}
