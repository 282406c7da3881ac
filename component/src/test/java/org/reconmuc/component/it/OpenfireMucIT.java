package org.reconmuc.component.it;

/**
 * The MUC conversation through Openfire 5.1.1 (from ../shared/openfire) with the component
 * attached as an external component; clients log in anonymously (distinct random users).
 */
class OpenfireMucIT extends MucConformanceIT {
    @Override
    String serverKind() {
        return "openfire";
    }

    /** Openfire 5.1.1's multicast leaves an empty {@code <addresses/>} on each copy: the probe finds it and the component sends a copy each. */
    @Override
    boolean carriesBroadcastsByMulticast() {
        return false;
    }
}
