package org.reconmuc.component.muc;

import org.reconmuc.component.muc.RoomAccess.Refusal;

/** {@code muc#roomconfig_allowpm}: which occupants may send private messages (XEP-0045 §7.5), by role. */
final class AllowPmOption extends RoomOption.Choice<AllowPmOption.Senders> {
    static final AllowPmOption ALLOW_PM = new AllowPmOption();

    enum Senders { ANYONE, PARTICIPANTS, MODERATORS, NONE }

    private AllowPmOption() {
        super("muc#roomconfig_allowpm", "Who may send private messages", Senders.class, Senders.ANYONE);
    }

    @Override
    Refusal refuses(RoomConfig config, RoomAccess.Asking asking) {
        if (asking.act() != RoomAccess.Act.SEND_PRIVATE_MESSAGE) {
            return null;
        }
        Role role = asking.occupant().role();
        boolean allowed = switch (config.get(this)) {
            case ANYONE -> true;
            case PARTICIPANTS -> role.atLeast(Role.PARTICIPANT);
            case MODERATORS -> role == Role.MODERATOR;
            case NONE -> false;
        };
        return allowed ? null : new Refusal(StanzaErrors.Condition.FORBIDDEN, "Private messages are not allowed in this room");
    }
}
