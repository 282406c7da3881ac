package org.reconmuc.component.muc.budget;

import org.reconmuc.component.config.ServiceConfig.RoomEventRate;
import org.reconmuc.component.muc.Affiliation;
import org.reconmuc.component.muc.Room;
import org.reconmuc.component.muc.RoomEvent;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.RoomState;
import org.reconmuc.component.muc.StanzaErrors.Condition;

/**
 * The room's event budget (Prosody's mod_muc_limits) as a feature: spent only by what the room
 * would otherwise let through — a join that passed the access and nickname checks, an occupant's
 * change of presence (status, nick, entering again), a groupchat message or subject change from an
 * occupant with voice that every other check let through (a body-less one with no type counts once
 * it is taken as groupchat). It is the last of the features that may refuse, so that a stranger, a
 * visitor, a flooder refused on its own account or a message another feature refuses spends
 * nothing, and nobody can exhaust a room's budget without being let in. Unaffiliated users only;
 * leaving and errors are never counted. Over it: policy-violation. Attached only where the
 * service sets a budget ({@code room-events-per-second}).
 */
public final class RoomBudget {
    public static final RoomFeature FEATURE = events -> {
        RoomEventRate rate = events.config().roomEventRate();
        if (!rate.limited()) {
            return;
        }
        // A budget starts full, so one made at a room's first counted event is the one it had from its start.
        RoomState<RoomEventBudget> budgets = new RoomState<>(room -> new RoomEventBudget(rate, room.now().toEpochMilli()));
        events.on(RoomEvent.ENTERING, e -> spend(e.room(), budgets, e.affiliation(), e));
        events.on(RoomEvent.PRESENCE_CHANGE, e -> spend(e.room(), budgets, e.room().affiliationOf(e.occupant().bareJid()), e));
        events.on(RoomEvent.SPEAKING, e -> spend(e.room(), budgets, e.room().affiliationOf(e.sender().bareJid()), e));
        events.on(RoomEvent.SUBJECT_CHANGE, e -> spend(e.room(), budgets, e.room().affiliationOf(e.sender().bareJid()), e));
    };

    private RoomBudget() {
    }

    private static void spend(Room room, RoomState<RoomEventBudget> budgets, Affiliation affiliation,
                              RoomEvent.Refusable event) {
        if (affiliation != Affiliation.NONE) {
            return;
        }
        RoomEventBudget budget = room.state(budgets);
        if (!budget.admits(room.now().toEpochMilli())) {
            event.refuse(Condition.POLICY_VIOLATION, budget.refusal());
        }
    }
}
