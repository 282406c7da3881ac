package org.reconmuc.component.it;

/** Hostile stanzas through ejabberd (Debian's package), which forwards them to the component. */
class EjabberdHostileStanzaIT extends HostileStanzaIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
