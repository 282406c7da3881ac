package org.reconmuc.component.it;

/** The block list on Prosody 0.12's mod_pubsub, the component attached to Prosody. */
class ProsodyRealTimeBlockListIT extends RealTimeBlockListIT {
    @Override
    String serverKind() {
        return "prosody";
    }
}
