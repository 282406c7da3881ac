package org.reconmuc.component.it;

/** Relaxed consistency through ejabberd 23.01. */
class EjabberdRelaxedConsistencyIT extends RelaxedConsistencyIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
