package org.reconmuc.component.muc;


/** {@code muc#roomconfig_roomdesc}: what the room is about, shown as {@code muc#roominfo_description}. */
final class DescriptionOption extends RoomOption.Text {
    static final DescriptionOption DESCRIPTION = new DescriptionOption();

    private DescriptionOption() {
        super("muc#roomconfig_roomdesc", "Description of the room", "muc#roominfo_description");
    }
}
