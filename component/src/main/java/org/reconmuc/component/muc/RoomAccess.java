package org.reconmuc.component.muc;

import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.Packet;

/**
 * The room's one access rule: whether a user may enter, stay, read the archive, see the
 * occupants, invite, register or send a private message. Outcasts may do none of it; then each
 * of the room's options ({@link RoomConfig#options()}), in order, may refuse ({@link RoomOption#refuses}); the first
 * refusal is the answer. Every caller asks here, so the exemptions are the same everywhere:
 *
 * <ul>
 * <li>members-only: members, admins and owners pass, nobody else (for the archive and the
 * occupant list too); inviting into such a room takes {@code allowinvites}, an admin or a moderator;</li>
 * <li>password: whoever enters gives it, whatever their affiliation (XEP-0045 §7.2.6 exempts
 * nobody, nor does Prosody's {@code password.lib.lua}). What a password guards (the archive,
 * the occupant list) is read only from inside the room: being an occupant is having given it
 * (Prosody's MAM does not look at the password at all);</li>
 * <li>public listing: a hidden room shows its occupants (disco#items, §6.5) only to its
 * occupants and affiliated users; a public one to anyone the other rules let in. Prosody shows
 * them to nobody; ejabberd, by its {@code public_list}, to anyone by default;</li>
 * <li>logging: an unlogged room has no archive to read;</li>
 * <li>private messages: by the sender's role, as {@code allowpm} says.</li>
 * </ul>
 */
public final class RoomAccess {
    /** What is asked of the room. */
    public enum Act {
        ENTER,
        /** Stay in the room after an affiliation or configuration change. */
        REMAIN,
        READ_ARCHIVE,
        /** See who is in the room from its disco#items. */
        SEE_OCCUPANTS,
        INVITE,
        /** Reserve a nickname (XEP-0045 §7.10). */
        REGISTER,
        SEND_PRIVATE_MESSAGE
    }

    /** Who asks what: the user's affiliation, its occupant if in the room (else null), the password it gave (else null). */
    record Asking(Act act, Affiliation affiliation, Occupant occupant, String password) {
        boolean affiliated() {
            return affiliation.atLeast(Affiliation.MEMBER);
        }
    }

    /** Why the room says no: the error to send. */
    record Refusal(Condition condition, String text) {
    }

    private RoomAccess() {
    }

    /** Why {@code user} (in the room as {@code occupant}, or null) may not do {@code act}, or null if it may. */
    public static Refusal refusal(Room room, Act act, RealJid user, Occupant occupant, String password) {
        Affiliation affiliation = room.affiliationOf(user);
        if (affiliation == Affiliation.OUTCAST) {
            return new Refusal(Condition.FORBIDDEN, act == Act.READ_ARCHIVE
                    ? "You are banned from this room, and so from its archive" : "You are banned from this room");
        }
        Asking asking = new Asking(act, affiliation, occupant, password);
        for (RoomOption<?> option : room.config().options()) {
            Refusal refusal = option.refuses(room.config(), asking);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    /** If {@code user} may not do {@code act}, answers {@code request} with the refusal and returns true. */
    public static boolean refuses(Room room, Packet request, Act act, RealJid user, Occupant occupant, String password) {
        Refusal refusal = refusal(room, act, user, occupant, password);
        if (refusal != null) {
            room.output().error(request, refusal.condition(), refusal.text());
        }
        return refusal != null;
    }

    public static boolean mayRemain(Room room, Occupant occupant) {
        return refusal(room, Act.REMAIN, occupant.bareJid(), occupant, null) == null;
    }

    public static boolean seesOccupants(Room room, RealJid user, Occupant occupant) {
        return refusal(room, Act.SEE_OCCUPANTS, user, occupant, null) == null;
    }
}
