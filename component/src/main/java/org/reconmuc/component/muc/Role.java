package org.reconmuc.component.muc;

import java.util.Locale;
import java.util.Optional;

/** Role of an occupant while present, XEP-0045 §5.1. Ordered by rank. */
public enum Role {
    NONE, VISITOR, PARTICIPANT, MODERATOR;

    public String xmlValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (Role r : values()) {
            if (r.xmlValue().equals(value)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    public boolean atLeast(Role other) {
        return compareTo(other) >= 0;
    }
}
