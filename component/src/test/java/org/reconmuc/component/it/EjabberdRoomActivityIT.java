package org.reconmuc.component.it;

/** XEP-0437 room activity indicators through ejabberd (Debian's package) with the component attached. */
class EjabberdRoomActivityIT extends RoomActivityIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
