package org.reconmuc.component.muc;

import org.dom4j.Element;

/** {@code muc#roomconfig_roomdesc}: what the room is about, shown as {@code muc#roominfo_description}. */
final class DescriptionOption extends RoomOption.Text {
    static final DescriptionOption DESCRIPTION = new DescriptionOption();

    private DescriptionOption() {
        super("muc#roomconfig_roomdesc", "Description of the room");
    }

    @Override
    void describe(RoomConfig config, Element query, Element roomInfo) {
        field(roomInfo, "muc#roominfo_description", "text-single", null, config.get(this));
    }
}
