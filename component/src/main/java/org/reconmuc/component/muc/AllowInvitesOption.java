package org.reconmuc.component.muc;


/** {@code muc#roomconfig_allowinvites}: participants may invite others into a members-only room ({@link MembersOnlyOption}). */
final class AllowInvitesOption extends RoomOption.Flag {
    static final AllowInvitesOption ALLOW_INVITES = new AllowInvitesOption();

    private AllowInvitesOption() {
        super("muc#roomconfig_allowinvites", "Participants may invite others", false, null, null);
    }
}
