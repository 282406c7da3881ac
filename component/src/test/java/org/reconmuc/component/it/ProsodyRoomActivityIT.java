package org.reconmuc.component.it;

/** XEP-0437 room activity indicators through Prosody (Debian's package) with the component attached. */
class ProsodyRoomActivityIT extends RoomActivityIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
