package org.reconmuc.component.muc;

import org.dom4j.Element;
import org.reconmuc.component.muc.StanzaErrors.Condition;

/** {@code muc#roomconfig_changesubject}: participants, not only moderators, may change the subject (XEP-0045 §8.1). */
public final class ChangeSubjectOption extends RoomOption.Flag {
    public static final ChangeSubjectOption CHANGE_SUBJECT = new ChangeSubjectOption();

    private ChangeSubjectOption() {
        super("muc#roomconfig_changesubject", "Participants may change the subject", false, null, null);
    }

    /** Unless the option is on, only moderators change the subject. */
    @Override
    public void attach(RoomEvents events) {
        events.on(RoomEvent.SUBJECT_CHANGE, speaking -> {
            if (speaking.sender().role() != Role.MODERATOR && !speaking.room().config().get(this)) {
                speaking.refuse(Condition.FORBIDDEN, "Only moderators may change the subject of this room");
            }
        });
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        field(roomInfo, var, "boolean", null, config.get(this) ? "1" : "0");
    }
}
