package org.reconmuc.component.it;

/** The MUC conversation through Prosody 0.12 (Debian's package) with the component attached. */
class ProsodyMucIT extends MucConformanceIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
