package org.reconmuc.component.it;

/** Slow mode, the room's budget and held messages through Prosody 0.12 (Debian's package). */
class ProsodyModerationIT extends ModerationIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
