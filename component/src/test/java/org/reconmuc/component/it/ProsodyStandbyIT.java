package org.reconmuc.component.it;

/** Prosody refuses a second connection for the component ({@code conflict}): active/standby. */
class ProsodyStandbyIT extends StandbyIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
