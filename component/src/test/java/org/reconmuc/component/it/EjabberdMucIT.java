package org.reconmuc.component.it;

/** The MUC conversation through ejabberd 23.01 (Debian's package) with the component attached. */
class EjabberdMucIT extends MucConformanceIT {
    @Override
    String serverKind() {
        return "ejabberd";
    }
}
