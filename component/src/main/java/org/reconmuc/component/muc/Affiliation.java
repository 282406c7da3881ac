package org.reconmuc.component.muc;

import java.util.Locale;
import java.util.Optional;

/** Long-lived relation of a (bare) user to a room, XEP-0045 §5.2. Ordered by rank. */
public enum Affiliation {
    OUTCAST, NONE, MEMBER, ADMIN, OWNER;

    public String xmlValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Affiliation> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (Affiliation a : values()) {
            if (a.xmlValue().equals(value)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    public boolean atLeast(Affiliation other) {
        return compareTo(other) >= 0;
    }
}
