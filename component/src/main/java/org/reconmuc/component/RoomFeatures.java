package org.reconmuc.component;

import java.util.List;
import org.reconmuc.component.activity.RoomActivityHost;
import org.reconmuc.component.muc.RoomFeature;
import org.reconmuc.component.muc.avatar.RoomAvatars;
import org.reconmuc.component.muc.budget.RoomBudget;
import org.reconmuc.component.muc.delay.ModerationDelayOption;
import org.reconmuc.component.muc.rtbl.RealTimeBlockList;
import org.reconmuc.component.muc.slowmode.SlowModeOption;
import org.reconmuc.component.muc.takebacks.RoomTakeBacks;

/**
 * The features every room of the service has, one line each, in the order their handlers run
 * (DESIGN.md, "A room's features"): the core has decided who is an occupant, with which role and
 * within its own rate, and what a message is, and its own options (XEP-0045's) have had their say;
 * then, of what may refuse, the stateless checks before those that count what they let through,
 * the room-wide count last of all, so that only what everything else lets through spends it; then
 * what acts on what went through.
 */
public final class RoomFeatures {
    public static final List<RoomFeature> ALL = List.of(
            // Before the room looks at a stanza: a listed user is refused whatever else.
            RealTimeBlockList.FEATURE,
            // Refuses taking back someone else's message (stateless); once everything let it through, takes it back.
            RoomTakeBacks.FEATURE,
            // Counts each user's messages: refused ones must not count, so after the stateless checks.
            SlowModeOption.SLOW_MODE,
            // Counts the whole room's traffic: last of what may refuse.
            RoomBudget.FEATURE,
            // Holds back what was let through and logged.
            ModerationDelayOption.MODERATION_DELAY,
            // What was sent, who came and went: XEP-0437, XEP-0502.
            RoomActivityHost.FEATURE,
            // XEP-0486.
            RoomAvatars.FEATURE);

    private RoomFeatures() {
    }
}
