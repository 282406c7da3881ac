package org.reconmuc.component.muc;


/**
 * {@code muc#roomconfig_publicroom}: the room is in the service's room directory (disco#items of
 * the service), and shows its occupants to outsiders whom the other options let in. A hidden
 * room shows them only to its occupants and affiliated users ({@link RoomAccess}). A room made
 * members-only leaves the directory unless the owner lists it again ({@link MembersOnlyOption}).
 */
public final class PublicOption extends RoomOption.Flag {
    public static final PublicOption PUBLIC = new PublicOption();

    private PublicOption() {
        super("muc#roomconfig_publicroom", "List the room in the service's room directory", true, "muc_public", "muc_hidden");
    }

    @Override
    RoomAccess.Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        if (asking.act() == RoomAccess.Act.SEE_OCCUPANTS && !config.get(this)
                && asking.occupant() == null && !asking.affiliated()) {
            return new RoomAccess.Refusal(StanzaErrors.Condition.FORBIDDEN,
                    "This room is hidden: only its occupants and affiliated users see who is in it");
        }
        return null;
    }
}
