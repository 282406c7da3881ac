package org.reconmuc.component.it;

/** Room avatars through ejabberd 23.01, the component attached to it. */
class EjabberdRoomAvatarIT extends RoomAvatarIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
