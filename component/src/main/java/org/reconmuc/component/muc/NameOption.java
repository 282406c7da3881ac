package org.reconmuc.component.muc;


/** {@code muc#roomconfig_roomname}: the room's name, shown in disco#info and the room directory (the node when empty). */
public final class NameOption extends RoomOption.Text {
    public static final NameOption NAME = new NameOption();

    private NameOption() {
        super("muc#roomconfig_roomname", "Name of the room", "muc#roomconfig_roomname");
    }
}
