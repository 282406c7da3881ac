package org.reconmuc.component.muc.options;

/**
 * {@code muc#roomconfig_maxusers}: how many occupants the room holds, up to the service's
 * {@code max-occupants} ("none" for that many). Admins and owners may enter a full room all the same.
 */
public final class MaxUsersOption extends RoomOption.Number {
    public static final MaxUsersOption MAX_USERS = new MaxUsersOption();

    private MaxUsersOption() {
        super("muc#roomconfig_maxusers", "Maximum number of occupants", 1);
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
