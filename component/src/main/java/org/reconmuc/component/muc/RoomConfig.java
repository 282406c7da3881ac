package org.reconmuc.component.muc;

/**
 * A room's configuration (XEP-0045 §10.2, {@code muc#roomconfig}). Immutable: the owner form
 * produces a new one, so a half-applied invalid form can never be seen.
 */
record RoomConfig(
        String name,
        String description,
        boolean persistent,
        boolean publicRoom,
        boolean membersOnly,
        boolean moderated,
        String password,
        boolean nonAnonymous,
        boolean changeSubject,
        boolean allowInvites,
        PrivateMessages allowPrivateMessages,
        int maxUsers,
        int historyLength) {

    /** Who may send private messages to occupants ({@code muc#roomconfig_allowpm}). */
    enum PrivateMessages {
        ANYONE("anyone"), PARTICIPANTS("participants"), MODERATORS("moderators"), NONE("none");

        final String value;

        PrivateMessages(String value) {
            this.value = value;
        }

        static PrivateMessages parse(String v) {
            for (PrivateMessages p : values()) {
                if (p.value.equals(v)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("muc#roomconfig_allowpm must be anyone, participants, moderators or none");
        }
    }

    static RoomConfig instant(int historyLength, int maxUsers) {
        return new RoomConfig("", "", false, true, false, false, null, false, false, false,
                PrivateMessages.ANYONE, maxUsers, historyLength);
    }

    RoomConfig withPersistent(boolean keep) {
        return new RoomConfig(name, description, keep, publicRoom, membersOnly, moderated, password, nonAnonymous,
                changeSubject, allowInvites, allowPrivateMessages, maxUsers, historyLength);
    }

    boolean passwordProtected() {
        return password != null && !password.isEmpty();
    }
}
