package org.reconmuc.component.it;

/** Relaxed consistency through Prosody 0.12. */
class ProsodyRelaxedConsistencyIT extends RelaxedConsistencyIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
