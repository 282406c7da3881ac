package org.reconmuc.component.it;

/** Hostile stanzas through Prosody 0.12 (Debian's package), which forwards them to the component. */
class ProsodyHostileStanzaIT extends HostileStanzaIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
