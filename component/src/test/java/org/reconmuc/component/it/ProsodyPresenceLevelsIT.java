package org.reconmuc.component.it;

/** Presence levels through Prosody 0.12 (Debian's package) with the component attached. */
class ProsodyPresenceLevelsIT extends PresenceLevelsIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
