package org.reconmuc.component.muc;

import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.config.ServiceConfig.RoomLocking;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.packet.Presence;

/**
 * XEP-0045 §10.1.1: a room created by a join is locked until its owner accepts the instant room
 * (an empty {@code <x type='submit'/>}) or submits the configuration form; until then others who
 * try to enter get {@code item-not-found}, as if there were no room. Cancelling the initial
 * configuration destroys the room (§10.1.3), and so does the timeout, with the reason in the
 * destroy notice the owner receives.
 *
 * <p>As in Prosody's {@code muc_room_locking}: a groupchat 1.0 join (no {@code <x xmlns=muc/>})
 * does not lock, since such a client cannot configure the room. Unlike Prosody, the owner's
 * other sessions may enter a locked room: they are not "other users".
 */
final class RoomLock {
    private boolean locked;

    /** The room was just created by {@code join}: lock it, and destroy it if nobody configures it in time. */
    public void created(Room room, Presence join) {
        RoomLocking locking = room.context().config().roomLocking();
        if (!locking.enabled() || join.getChildElement("x", Namespaces.MUC) == null) {
            return;
        }
        locked = true;
        room.context().schedule(locking.timeout().toMillis(), () -> expire(room, locking));
    }

    boolean locked() {
        return locked;
    }

    /** Refuses {@code join} (and returns true) when the room is locked and the joiner is not its owner. */
    public boolean refuses(Room room, RealJid session, Presence join) {
        if (!locked || room.affiliationOf(session) == Affiliation.OWNER) {
            return false;
        }
        room.output().error(join, Condition.ITEM_NOT_FOUND, "The room " + room.jid()
                + " is locked until its owner has configured it (XEP-0045 §10.1.1)");
        return true;
    }

    /** The owner submitted a configuration (or accepted the instant room): the room opens. */
    public void configured() {
        locked = false;
    }

    /** The owner cancelled the configuration: a room still locked is destroyed (§10.1.3). */
    public void cancelled(Room room) {
        if (locked) {
            room.destroy(notice("The owner cancelled the initial configuration"));
        }
    }

    private void expire(Room room, RoomLocking locking) {
        if (locked && !room.destroyed()) {
            room.destroy(notice("The room was not configured within " + locking.timeout().toSeconds()
                    + " seconds of its creation (XEP-0045 §10.1.1)"));
        }
    }

    private static Element notice(String reason) {
        Element destroy = DocumentHelper.createElement(QName.get("destroy", Namespaces.MUC_USER));
        destroy.addElement("reason").setText(reason);
        return destroy;
    }
}
