package org.reconmuc.component.it;

/** Presence levels through ejabberd 23.01 (Debian's package) with the component attached. */
class EjabberdPresenceLevelsIT extends PresenceLevelsIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
