package org.reconmuc.component.muc;

import org.dom4j.Element;

/** {@code muc#roomconfig_changesubject}: participants, not only moderators, may change the subject (XEP-0045 §8.1). */
final class ChangeSubjectOption extends RoomOption.Flag {
    static final ChangeSubjectOption CHANGE_SUBJECT = new ChangeSubjectOption();

    private ChangeSubjectOption() {
        super("muc#roomconfig_changesubject", "Participants may change the subject", false, null, null);
    }

    @Override
    void describe(RoomConfig config, Element query, Element roomInfo) {
        field(roomInfo, var, "boolean", null, config.get(this) ? "1" : "0");
    }
}
