package org.reconmuc.component.muc.options;

import org.dom4j.Element;

/** {@code muc#roomconfig_changesubject}: participants, not only moderators, may change the subject (XEP-0045 §8.1). */
public final class ChangeSubjectOption extends RoomOption.Flag {
    public static final ChangeSubjectOption CHANGE_SUBJECT = new ChangeSubjectOption();

    private ChangeSubjectOption() {
        super("muc#roomconfig_changesubject", "Participants may change the subject", false, null, null);
    }

    @Override
    public void describe(RoomConfig config, Element query, Element roomInfo) {
        field(roomInfo, var, "boolean", null, config.get(this) ? "1" : "0");
    }
}
