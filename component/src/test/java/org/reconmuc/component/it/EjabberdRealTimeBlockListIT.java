package org.reconmuc.component.it;

/** The block list on ejabberd 23.01's mod_pubsub, the component attached to ejabberd. */
class EjabberdRealTimeBlockListIT extends RealTimeBlockListIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
