package org.reconmuc.component.it;

/** Room avatars through Prosody 0.12, the component attached to it. */
class ProsodyRoomAvatarIT extends RoomAvatarIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
