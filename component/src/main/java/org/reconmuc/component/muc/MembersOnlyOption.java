package org.reconmuc.component.muc;

import java.util.ArrayList;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.RoomAccess.Act;
import org.reconmuc.component.muc.RoomAccess.Refusal;

/**
 * {@code muc#roomconfig_membersonly} (XEP-0045 §7.2.5, §9.3–9.5): only members, admins and
 * owners may enter, read the archive, see the occupants or register a nickname; inviting takes
 * {@code allowinvites}, an admin or a moderator, and makes the invitee a member. Non-members
 * leave when the room becomes members-only (322) or their membership ends (321, {@link RoomAdmin}).
 *
 * <p>Made members-only, a room also leaves the public room directory, unless the same
 * submission itself makes it public; the owner may list it again afterwards. (Prosody lists a
 * members-only room as any other unless it is hidden: a directory that names rooms nobody may
 * enter tells outsiders that they exist.)
 */
public final class MembersOnlyOption extends RoomOption.Flag {
    public static final MembersOnlyOption MEMBERS_ONLY = new MembersOnlyOption();

    private MembersOnlyOption() {
        super("muc#roomconfig_membersonly", "Only members may join", false, "muc_membersonly", "muc_open");
    }

    @Override
    Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        if (!config.get(this)) {
            return null;
        }
        if (asking.act() == Act.INVITE) {
            boolean mayInvite = config.get(AllowInvitesOption.ALLOW_INVITES) || asking.affiliation().atLeast(Affiliation.ADMIN)
                    || asking.occupant().role() == Role.MODERATOR;
            return mayInvite ? null
                    : new Refusal(Condition.FORBIDDEN, "Only moderators may invite people into this members-only room");
        }
        if (asking.affiliated() || asking.act() == Act.SEND_PRIVATE_MESSAGE) {
            return null;
        }
        return switch (asking.act()) {
            case ENTER -> new Refusal(Condition.REGISTRATION_REQUIRED, "This room is members-only and you are not a member");
            case REGISTER -> new Refusal(Condition.REGISTRATION_REQUIRED, "This room is members-only: ask an admin for membership");
            case READ_ARCHIVE -> new Refusal(Condition.FORBIDDEN, "This room is members-only: only its members may read its archive");
            case REMAIN -> new Refusal(Condition.FORBIDDEN, "This room is members-only and you are no longer a member");
            default -> new Refusal(Condition.FORBIDDEN, "This room is members-only: only its members see who is in it");
        };
    }

    @Override
    RoomConfig settle(RoomConfig before, RoomConfig after) {
        boolean madeMembersOnly = after.get(this) && !before.get(this);
        if (madeMembersOnly && !PublicOption.PUBLIC.differs(before, after)) {
            return after.with(PublicOption.PUBLIC, false);
        }
        return after;
    }

    @Override
    public void changed(Room room, Boolean before, Boolean after) {
        for (Occupant o : new ArrayList<>(room.occupants())) {
            if (!RoomAccess.mayRemain(room, o)) {
                room.presence().removeOccupant(o, MucPresences.MEMBERS_ONLY_REMOVED, null, null);
            }
        }
    }

    @Override
    public void inviting(Room room, Occupant inviter, RealJid invitee, Element x) {
        if (room.config().get(this) && room.affiliationOf(invitee) == Affiliation.NONE) {
            room.setAffiliation(invitee, Affiliation.MEMBER);
        }
    }
}
