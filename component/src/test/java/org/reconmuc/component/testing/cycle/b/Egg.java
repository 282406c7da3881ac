package org.reconmuc.component.testing.cycle.b;

import org.reconmuc.component.testing.cycle.a.Hen;

/** The other half of a cycle between two packages, for ArchitectureTest to catch. */
public final class Egg {
    public Hen hatch() {
        return new Hen();
    }
}
