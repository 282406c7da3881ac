package org.reconmuc.component.it;

/** Relaxed consistency through Openfire 5.1.1 with the component attached externally. */
class OpenfireRelaxedConsistencyIT extends RelaxedConsistencyIT {
    @Override
    String serverKind() {
        return "openfire";
    }
}
