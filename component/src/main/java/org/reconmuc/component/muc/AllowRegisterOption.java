package org.reconmuc.component.muc;

import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.RoomAccess.Act;
import org.reconmuc.component.muc.RoomAccess.Refusal;

/**
 * {@code reconmuc#roomconfig_allowregister}: users without an affiliation may register a nickname
 * (XEP-0045 §7.10), and so become members. Off by default, as Prosody's
 * {@code allow_unaffiliated_register} (a server-wide setting there, a room's choice here):
 * otherwise anyone could make themselves a member, and so see a hidden room's occupants and, in
 * a moderated room, come back with voice. Members, admins and owners may always register; a
 * members-only room keeps refusing outsiders whatever this says ({@link MembersOnlyOption}).
 */
public final class AllowRegisterOption extends RoomOption.Flag {
    static final AllowRegisterOption ALLOW_REGISTER = new AllowRegisterOption();

    private AllowRegisterOption() {
        super("reconmuc#roomconfig_allowregister",
                "Users without an affiliation may register a nickname, and so become members", false, null, null);
    }

    @Override
    Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        if (asking.act() != Act.REGISTER || asking.affiliated() || config.get(this)) {
            return null;
        }
        return new Refusal(Condition.REGISTRATION_REQUIRED,
                "Only members may register a nickname in this room: ask an admin for membership");
    }
}
