package org.reconmuc.component.it;

/** Openfire 5.1.1 without {@code allowMultiple} takes one connection for the component: active/standby. */
class OpenfireStandbyIT extends StandbyIT {
    @Override
    String serverKind() {
        return "openfire";
    }
}
