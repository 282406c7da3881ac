package org.reconmuc.component.testing.cycle.a;

import org.reconmuc.component.testing.cycle.b.Egg;

/** Half of a cycle between two packages, for ArchitectureTest to catch. */
public final class Hen {
    public Egg lay() {
        return new Egg();
    }
}
