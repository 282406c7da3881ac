package org.reconmuc.component.it;

/** Slow mode, the room's budget and held messages through ejabberd 23.01 (Debian's package). */
class EjabberdModerationIT extends ModerationIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
