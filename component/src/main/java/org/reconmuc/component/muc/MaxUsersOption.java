package org.reconmuc.component.muc;

import org.reconmuc.component.muc.StanzaErrors.Condition;

/**
 * {@code muc#roomconfig_maxusers}: how many occupants the room holds, up to the service's
 * {@code max-occupants} ("none" for that many). Admins and owners may enter a full room all the same.
 */
public final class MaxUsersOption extends RoomOption.Number {
    public static final MaxUsersOption MAX_USERS = new MaxUsersOption();

    private MaxUsersOption() {
        super("muc#roomconfig_maxusers", "Maximum number of occupants", 1);
    }

    /** A full room refuses whoever would be one more occupant, but admins and owners (XEP-0045 §7.2.10). */
    @Override
    public void attach(RoomEvents events) {
        events.on(RoomEvent.ENTERING, entering -> {
            int maxUsers = entering.room().config().get(this);
            if (entering.newOccupant() && entering.room().occupants().size() >= maxUsers
                    && !entering.affiliation().atLeast(Affiliation.ADMIN)) {
                entering.refuse(Condition.SERVICE_UNAVAILABLE, "wait", "The room is full (" + maxUsers + " occupants)");
            }
        });
    }

    @Override
    int limit(RoomConfig.Limits limits) {
        return limits.maxUsers();
    }

    @Override
    String unlimited() {
        return "none";
    }
}
